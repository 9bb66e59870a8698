//! One full discovery of a server: connect, list, lint, close.
//!
//! This is `check`'s unit of work (and `add`'s pre-save check): it always
//! closes the connection and reaps the process, whether it succeeds or not.

use std::time::{Duration, Instant};

use rmcp::model::{Prompt, ResourceTemplate, ServerPeerInfo, Tool};

use super::connection::{ConnectOptions, Connection, DEFAULT_MAX_PAGES, PageEnd, ToolPages};
use super::error::ConnectError;
use super::lint::{self, Lint, Severity};
use crate::defs::{ServerDef, Transport};

/// What `discover` should do beyond connecting.
#[derive(Debug, Clone)]
pub struct DiscoverOptions {
    /// Budget, kill grace and stderr tee.
    pub connect: ConnectOptions,
    /// The cap on pages per list.
    pub max_pages: usize,
    /// Lints are errors rather than warnings.
    pub strict: bool,
    /// Also keep every prompt and resource template (for the lockfile).
    pub full_catalog: bool,
}

impl Default for DiscoverOptions {
    fn default() -> Self {
        DiscoverOptions {
            connect: ConnectOptions::default(),
            max_pages: DEFAULT_MAX_PAGES,
            strict: false,
            full_catalog: false,
        }
    }
}

/// Milliseconds per phase; `None` for phases that did not run.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Timings {
    /// Starting the process (stdio) or nothing (HTTP).
    pub spawn_ms: f64,
    /// `initialize` + `initialized`, or `server/discover`.
    pub initialize_ms: f64,
    /// All `tools/list` pages.
    pub tools_list_ms: f64,
    /// All `resources/list` pages, when advertised.
    pub resources_list_ms: Option<f64>,
    /// All `prompts/list` pages, when advertised.
    pub prompts_list_ms: Option<f64>,
    /// Closing and reaping.
    pub close_ms: f64,
    /// Everything.
    pub total_ms: f64,
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0 * 10.0).round() / 10.0
}

/// Everything `check --json` reports about one healthy server.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DiscoveryReport {
    /// The definition's name.
    pub server: String,
    /// How it was reached.
    pub transport: Transport,
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// True when reached through the stateless `server/discover` lifecycle.
    pub stateless: bool,
    /// The initialize (or discover) result: version, capabilities, serverInfo, instructions.
    pub initialize: ServerPeerInfo,
    /// True when the server advertises the `tools` capability; without it
    /// `tools/list` is not asked (MCP makes tools optional) and `tools` is empty.
    pub tools_capability: bool,
    /// Every tool with its inputSchema.
    pub tools: Vec<Tool>,
    /// How many `tools/list` pages were read.
    pub tool_pages: usize,
    /// How the tool listing ended.
    pub tool_list_end: PageEnd,
    /// Resource count, when the server advertises resources.
    pub resources: Option<usize>,
    /// Prompt count, when the server advertises prompts.
    pub prompts: Option<usize>,
    /// Time per phase.
    pub timings: Timings,
    /// The JSON Schema dialect each tool's inputSchema is compiled with
    /// (`2020-12` when it declares no `$schema`), by tool name.
    pub schema_dialects: indexmap::IndexMap<String, String>,
    /// Lint findings.
    pub lints: Vec<Lint>,
    /// Every prompt, when [`DiscoverOptions::full_catalog`] asked for them.
    #[serde(skip)]
    pub prompt_list: Vec<rmcp::model::Prompt>,
    /// Every resource template, when [`DiscoverOptions::full_catalog`]
    /// asked for them.
    #[serde(skip)]
    pub resource_templates: Vec<rmcp::model::ResourceTemplate>,
}

impl DiscoveryReport {
    /// The server's own name and version, e.g. `everything 2.0.0`.
    pub fn server_name_version(&self) -> Option<(String, String)> {
        self.initialize
            .server_info
            .as_ref()
            .map(|i| (i.name.clone(), i.version.clone()))
    }

    /// True when any lint is an error (always false without `--strict`).
    pub fn has_lint_errors(&self) -> bool {
        self.lints.iter().any(|l| l.severity == Severity::Error)
    }
}

/// Connect to `def`, list tools (and resources/prompts when advertised),
/// lint, and close — all within one budget.
pub async fn discover(
    def: &ServerDef,
    opts: &DiscoverOptions,
) -> Result<DiscoveryReport, ConnectError> {
    let start = Instant::now();
    let (mut conn, deadline) = Connection::connect(def, &opts.connect).await?;
    let budget = opts.connect.budget.unwrap_or_else(|| def.connect_budget());
    let compiler = lint::Compiler::default();
    let mut result = list_everything(&mut conn, deadline, budget, opts, &compiler).await;
    let mut extras = (Vec::new(), Vec::new());
    if opts.full_catalog && result.is_ok() {
        match full_catalog(&conn, deadline, budget, opts.max_pages).await {
            Ok(lists) => extras = lists,
            Err(err) => result = Err(err),
        }
    }
    let close_start = Instant::now();
    conn.close().await;
    let close_time = close_start.elapsed();
    let (mut pages, resources, prompts, list_times) = result?;
    let tools_capability = conn.peer_info().capabilities.tools.is_some();
    let compiled = compiler.finish(&mut pages.tools);
    let mut lints = lint::lint_compiled(&pages.tools, compiled, pages.end, opts.strict);
    if tools_capability && pages.tools.is_empty() {
        lints.push(lint::no_tools(opts.strict));
    }
    let schema_dialects = schema_dialects(&pages.tools);
    Ok(DiscoveryReport {
        server: def.name.clone(),
        transport: conn.transport(),
        protocol_version: conn.protocol_version(),
        stateless: conn.is_stateless(),
        initialize: conn.peer_info().clone(),
        tools_capability,
        tool_pages: pages.pages,
        tool_list_end: pages.end,
        tools: pages.tools,
        resources,
        prompts,
        timings: Timings {
            spawn_ms: ms(conn.spawn_time),
            initialize_ms: ms(conn.handshake_time),
            tools_list_ms: ms(list_times.0),
            resources_list_ms: list_times.1.map(ms),
            prompts_list_ms: list_times.2.map(ms),
            close_ms: ms(close_time),
            total_ms: ms(start.elapsed()),
        },
        schema_dialects,
        lints,
        prompt_list: extras.0,
        resource_templates: extras.1,
    })
}

/// Every prompt and resource template the server advertises, for the
/// lockfile (nothing for a capability it does not advertise).
pub async fn full_catalog(
    conn: &Connection,
    deadline: Instant,
    budget: Duration,
    max_pages: usize,
) -> Result<(Vec<Prompt>, Vec<ResourceTemplate>), ConnectError> {
    let Some(peer) = conn.peer_handle() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let caps = conn.peer_info().capabilities.clone();
    let prompts = match caps.prompts {
        Some(_) => super::listing::prompts(conn, &peer, deadline, budget, max_pages).await?,
        None => Vec::new(),
    };
    let templates = match caps.resources {
        Some(_) => {
            super::listing::resource_templates(conn, &peer, deadline, budget, max_pages).await?
        }
        None => Vec::new(),
    };
    Ok((prompts, templates))
}

/// The JSON Schema dialect of each tool's inputSchema, by tool name (or why
/// it has none).
fn schema_dialects(tools: &[Tool]) -> indexmap::IndexMap<String, String> {
    tools
        .iter()
        .map(|tool| {
            let dialect = match lint::dialect_of(&tool.input_schema) {
                Ok(draft) => lint::dialect_name(draft).to_string(),
                Err(why) => why,
            };
            (tool.name.to_string(), dialect)
        })
        .collect()
}

type Listed = (
    ToolPages,
    Option<usize>,
    Option<usize>,
    (Duration, Option<Duration>, Option<Duration>),
);

async fn list_everything(
    conn: &mut Connection,
    deadline: Instant,
    budget: Duration,
    opts: &DiscoverOptions,
    compiler: &lint::Compiler,
) -> Result<Listed, ConnectError> {
    let caps = conn.peer_info().capabilities.clone();
    let t = Instant::now();
    let pages = conn
        .list_tools_each(deadline, budget, opts.max_pages, |page| compiler.page(page))
        .await?;
    let tools_time = t.elapsed();
    let (mut resources, mut resources_time) = (None, None);
    if caps.resources.is_some() {
        let t = Instant::now();
        resources = Some(
            conn.count_resources(deadline, budget, opts.max_pages)
                .await?,
        );
        resources_time = Some(t.elapsed());
    }
    let (mut prompts, mut prompts_time) = (None, None);
    if caps.prompts.is_some() {
        let t = Instant::now();
        prompts = Some(conn.count_prompts(deadline, budget, opts.max_pages).await?);
        prompts_time = Some(t.elapsed());
    }
    Ok((
        pages,
        resources,
        prompts,
        (tools_time, resources_time, prompts_time),
    ))
}
