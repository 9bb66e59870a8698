//! `mcpctl check`: connect to servers, list what they offer, say what's wrong.
//!
//! This is the CI-facing verb: no supervisor, every server checked
//! concurrently within its own budget, a table (or `--json`) of results, and
//! exit code 1 when any server failed.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rmcp::model::Tool;
use serde_json::{Value, json};

use super::Context;
use crate::defs::ServerDef;
use crate::error::{Diagnostic, ExitCode, Result, UsageError};
use crate::mcp::{self, ConnectError, DiscoverOptions, DiscoveryReport, Severity};
use crate::output::{self, Table};

/// How many servers are checked at once when `--jobs` is not given.
pub const DEFAULT_MAX_JOBS: usize = 32;

const LONG_ABOUT: &str = "\
Connect to each server, run the MCP handshake, list its tools (and its
resources and prompts when it advertises them), lint what it advertises, and
report. Stdio servers are started in their own process group and stopped
(TERM, then KILL) with every descendant when the check ends.

Each server has one budget (its connect_timeout, default 30 s, or --timeout)
covering start-up, initialize and every tools/list page. Failures name what
went wrong and in which phase: a missing launcher, a process that exited (with
its exit code and the last lines of its stderr), a timeout, HTTP 401/403, a
URL that serves a web page, TLS, DNS, a refused connection, a JSON-RPC error,
a protocol-version mismatch, non-JSON on stdout (named within moments of the
line, not at the end of the budget), a reply over 16 MB, or a reply to a
request id that was never sent.

A server that does not advertise the tools capability is healthy (\"ok, no
tools capability\"): MCP makes tools optional. Disabled servers are listed as
skipped unless named.

Lints (a warning, or an error with --strict): a server that advertises tools
but lists none, an inputSchema that does not compile (no $schema means JSON Schema 2020-12; remote $refs are never
fetched), duplicate tool names, names outside [A-Za-z0-9_.-]{1,128}, and
descriptions over 10,000 characters.

--locked also compares each server with the lockfile beside its definitions
file (see `mcpctl lock --help`): its serverInfo, protocol, the artifact the
definition names, and the hash of every tool, prompt and resource template.
It asks no package registry (`mcpctl lock --check` does).

Exit status: 0 when every server passed, 1 when any failed, 4 when --locked
found drift or a server missing from the lock; 130, 143 or 129
when stopped by SIGINT, SIGTERM or SIGHUP (after stopping every server it
started).";

const EXAMPLES: &str = "\
Stdio servers get only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, TMPDIR,
the proxy and CA variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY in either case,
SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE) and
their own env; name more in MCPCTL_INHERIT_ENV (e.g.
MCPCTL_INHERIT_ENV=UV_SYSTEM_CERTS,JAVA_HOME).

Examples:
  mcpctl check                       # every enabled server, all at once
  mcpctl check everything time       # just these two
  mcpctl check --tools               # also list each server's tool names
  mcpctl check --strict --timeout 10 # lints fail the check; 10 s per server
  mcpctl check --locked              # CI: fail (exit 4) when a server drifted from servers.lock
  mcpctl check --jobs 4 --json | jq '.servers[] | select(.ok == false) | .error'";

/// Arguments of `mcpctl check`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
pub struct Args {
    /// Servers to check (default: every enabled server).
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,

    /// How many servers to check at once (default: all, at most 32).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// List each server's tool names.
    #[arg(long)]
    pub tools: bool,

    /// Treat lint warnings as failures.
    #[arg(long)]
    pub strict: bool,

    /// Budget per server in seconds, overriding each connect_timeout.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Also compare each server with its lockfile (`mcpctl lock`); any
    /// drift, or a server not in the lock, fails with exit 4.
    #[arg(long)]
    pub locked: bool,
}

/// One server's outcome.
pub(super) struct Outcome {
    pub(super) def: ServerDef,
    /// `None` for a disabled server that was listed but not checked.
    pub(super) result: Option<std::result::Result<DiscoveryReport, ConnectError>>,
}

impl Outcome {
    fn ok(&self) -> bool {
        matches!(&self.result, Some(Ok(report)) if !report.has_lint_errors())
    }

    fn failed(&self) -> bool {
        self.result.is_some() && !self.ok()
    }
}

/// Check the selected servers and print the results.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    // Disabled servers are listed as skipped (never silently left out) when
    // no names are given; a server named explicitly is checked regardless.
    let mut skipped = Vec::new();
    let mut refused = 0;
    let defs: Vec<ServerDef> = if args.names.is_empty() {
        // An entry whose name was refused cannot be checked, and a CI run
        // must not pass over it: each one counts as a failure.
        refused = ctx.report_refused(&catalog);
        let (enabled, disabled): (Vec<ServerDef>, Vec<ServerDef>) =
            catalog.servers().iter().cloned().partition(|d| d.enabled);
        skipped = disabled;
        enabled
    } else {
        let mut picked = Vec::new();
        for name in &args.names {
            let def = catalog.get(name)?.clone();
            if !picked.iter().any(|d: &ServerDef| d.name == def.name) {
                picked.push(def);
            }
        }
        picked
    };
    for def in &defs {
        ctx.require_trusted(&def.source)?;
        if args.locked {
            // A malformed lockfile stops the check before any server starts.
            crate::lock::file::load(&def.source, ctx.allow_insecure_file)?;
        }
    }
    crate::defs::vars::ask_inputs(&defs);
    let timeout = match args.timeout {
        Some(s) => Some(
            crate::validate::seconds::duration("--timeout", s)
                .map_err(|why| UsageError::new(why, "e.g. --timeout 10"))?,
        ),
        None => None,
    };
    if defs.is_empty() && skipped.is_empty() {
        if ctx.json {
            output::print_json(
                &json!({"schema_version": 1, "servers": [], "passed": 0, "failed": refused}),
            )?;
        }
        if refused > 0 {
            return Ok(ExitCode::Failed);
        }
        if !ctx.json {
            output::note(format!(
                "no servers in {}; nothing to check",
                catalog.sources.describe()
            ));
        }
        return Ok(ExitCode::Success);
    }
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = timeout;
    opts.strict = args.strict;
    opts.full_catalog = args.locked;
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or(DEFAULT_MAX_JOBS)
        .min(defs.len())
        .max(1);

    let progress = (!ctx.json && !output::quiet() && std::io::stderr().is_terminal())
        .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(UsageError::Output)?;
    let sigpipe = mcp::child::ignore_sigpipe();
    let order: Vec<String> = catalog.servers().iter().map(|d| d.name.clone()).collect();
    let checked =
        super::interrupt::block_on(&runtime, check_all(defs, opts, jobs, progress.clone()));
    if let Some(progress) = progress {
        let _ = progress.clear();
    }
    drop(runtime);
    drop(sigpipe);
    let mut outcomes = checked?;
    outcomes.extend(skipped.into_iter().map(|def| Outcome { def, result: None }));
    if args.names.is_empty() {
        outcomes.sort_by_key(|o| order.iter().position(|name| *name == o.def.name));
    }
    // The process ends right after this command: freeing every tool of a
    // big catalog one allocation at a time took longer than linting them,
    // after the server had already gone (issue 13), so the reports are left
    // for the exit to reclaim.
    let mut outcomes = std::mem::ManuallyDrop::new(outcomes);

    let failed = outcomes.iter().filter(|o| o.failed()).count() + refused;
    let passed = outcomes.iter().filter(|o| o.ok()).count();
    let drift = if args.locked {
        Some(super::lock::drift_offline(ctx, &outcomes)?)
    } else {
        None
    };
    if ctx.json {
        // The tools go to the output straight from the reports: the
        // document holds everything else, and an empty list where each
        // server's tools go (issue 13: no copy of the catalog for output).
        let tools: Vec<Option<Vec<Tool>>> = outcomes
            .iter_mut()
            .map(|o| match &mut o.result {
                Some(Ok(report)) => Some(std::mem::take(&mut report.tools)),
                _ => None,
            })
            .collect();
        let mut doc = json!({
            "schema_version": 1,
            "servers": outcomes.iter().map(outcome_json).collect::<Vec<_>>(),
            "passed": passed,
            "failed": failed,
            "skipped": outcomes.len() + refused - passed - failed,
        });
        if let Some(drift) = &drift {
            super::lock::add_drift_json(&mut doc, drift);
        }
        output::print_json_streamed(&WithTools {
            doc: &doc,
            tools: &tools,
        })?;
        // As the reports: the exit reclaims them faster than a drop.
        std::mem::forget((doc, tools));
    } else {
        print_human(&outcomes, args.tools)?;
        if let Some(drift) = &drift {
            super::lock::print_drift(drift)?;
        }
    }
    if drift.as_ref().is_some_and(|d| super::lock::any_drift(d)) {
        return Ok(ExitCode::Conflict);
    }
    Ok(if failed == 0 {
        ExitCode::Success
    } else {
        ExitCode::Failed
    })
}

/// Check one server from synchronous code (used by `add` before it saves).
///
/// The outer error is the command's own (a signal stopped it, after ending
/// the server); the inner one is the server's verdict.
pub fn check_one(
    def: &ServerDef,
    timeout: Option<Duration>,
) -> Result<std::result::Result<DiscoveryReport, ConnectError>> {
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = timeout;
    let runtime = super::runtime()?;
    let _sigpipe = mcp::child::ignore_sigpipe();
    Ok(super::interrupt::block_on(
        &runtime,
        mcp::discover(def, &opts),
    )?)
}

/// `add` refused to save because the check failed.
#[derive(Debug, thiserror::Error)]
#[error("not saved: {0}")]
pub struct NotSaved(pub ConnectError);

impl Diagnostic for NotSaved {
    fn exit_code(&self) -> ExitCode {
        ExitCode::Failed
    }

    fn hint(&self) -> Option<String> {
        let fix = self
            .0
            .hint()
            .map(|h| format!("{h}; or "))
            .unwrap_or_default();
        Some(format!(
            "{fix}pass --force to save it anyway (--no-check skips the connection)"
        ))
    }
}

/// The one-line verdict `add` prints after a successful check:
/// `ok, 14 tools: echo, get-env, get-sum, …`.
pub fn summary(report: &DiscoveryReport) -> String {
    const SHOWN: usize = 8;
    if !report.tools_capability {
        return NO_TOOLS_CAPABILITY.to_string();
    }
    let names: Vec<_> = report
        .tools
        .iter()
        .take(SHOWN)
        .map(|t| output::sanitize(&t.name))
        .collect();
    let more = if report.tools.len() > SHOWN {
        ", …"
    } else {
        ""
    };
    format!(
        "ok, {} tools: {}{more}",
        report.tools.len(),
        names.join(", ")
    )
}

/// What is said of a healthy server that offers no tools (MCP allows it).
const NO_TOOLS_CAPABILITY: &str = "ok, no tools capability";

pub(super) async fn check_all(
    defs: Vec<ServerDef>,
    opts: DiscoverOptions,
    jobs: usize,
    progress: Option<MultiProgress>,
) -> Vec<Outcome> {
    use futures::StreamExt;

    let opts = Arc::new(opts);
    let style =
        ProgressStyle::with_template("{spinner} {prefix:.bold} {msg}").expect("a valid template");
    let results = futures::stream::iter(defs.into_iter().enumerate())
        .map(|(index, def)| {
            let opts = opts.clone();
            let bar = progress.as_ref().map(|p| {
                let bar = p.add(
                    ProgressBar::new_spinner()
                        .with_style(style.clone())
                        .with_prefix(output::sanitize(&def.name).into_owned()),
                );
                bar.set_message("connecting…");
                bar.enable_steady_tick(Duration::from_millis(100));
                bar
            });
            async move {
                // Each check in its own task, so slow servers never serialize.
                let task_def = def.clone();
                let result = tokio::spawn(async move { mcp::discover(&task_def, &opts).await })
                    .await
                    .unwrap_or_else(|e| {
                        Err(ConnectError::Transport {
                            server: def.name.clone(),
                            phase: mcp::Phase::Spawn,
                            detail: format!("internal error: {e}"),
                        })
                    });
                if let Some(bar) = bar {
                    bar.finish_with_message(match &result {
                        Ok(r) if !r.tools_capability => NO_TOOLS_CAPABILITY.into(),
                        Ok(r) => format!("ok, {} tools", r.tools.len()),
                        Err(e) => format!("failed: {}", e.kind()),
                    });
                }
                (
                    index,
                    Outcome {
                        def,
                        result: Some(result),
                    },
                )
            }
        })
        .buffer_unordered(jobs)
        .collect::<Vec<_>>()
        .await;
    let mut results = results;
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, outcome)| outcome).collect()
}

fn seconds(ms: f64) -> String {
    format!("{:.2}s", ms / 1000.0)
}

fn print_human(outcomes: &[Outcome], list_tools: bool) -> Result<()> {
    let mut table = Table::new(&[
        "NAME",
        "STATUS",
        "TRANSPORT",
        "PROTOCOL",
        "SERVER",
        "TOOLS",
        "RESOURCES",
        "PROMPTS",
        "TIME",
    ]);
    for outcome in outcomes {
        let name = outcome.def.name.clone();
        match &outcome.result {
            None => table.row(unreached_row(
                name,
                "skipped (disabled)".into(),
                &outcome.def,
            )),
            Some(Ok(report)) => {
                let server = report
                    .server_name_version()
                    .map(|(n, v)| format!("{n} {v}"))
                    .unwrap_or_else(|| "-".into());
                let status = if report.has_lint_errors() {
                    "FAILED"
                } else if report.lints.is_empty() {
                    "ok"
                } else {
                    "ok (warnings)"
                };
                let count =
                    |c: Option<usize>| c.map(|c| c.to_string()).unwrap_or_else(|| "-".into());
                table.row(vec![
                    name,
                    status.into(),
                    // The one that answered: for a URL with no transport in
                    // the file, what the backwards-compatibility procedure found.
                    report.transport.to_string(),
                    report.protocol_version.clone(),
                    server,
                    if report.tools_capability {
                        report.tools.len().to_string()
                    } else {
                        "-".into()
                    },
                    count(report.resources),
                    count(report.prompts),
                    seconds(report.timings.total_ms),
                ]);
            }
            Some(Err(err)) => table.row(unreached_row(
                name,
                match err.phase() {
                    Some(phase) => format!("FAILED ({phase})"),
                    None => "FAILED".into(),
                },
                &outcome.def,
            )),
        }
    }
    table.print()?;
    for outcome in outcomes {
        match &outcome.result {
            None => {}
            Some(Err(err)) => {
                output::line("")?;
                // The error text starts with the server's name.
                output::line(format!("FAILED {err}"))?;
                if let Some(hint) = err.hint() {
                    output::line(format!("  hint: {hint}"))?;
                }
            }
            Some(Ok(report)) => {
                if !report.tools_capability {
                    output::line(format!("{}: {NO_TOOLS_CAPABILITY}", outcome.def.name))?;
                }
                for lint in &report.lints {
                    let level = match lint.severity {
                        Severity::Warning => "warning",
                        Severity::Error => "error",
                    };
                    output::line(format!(
                        "{}: {level} [{}]: {}",
                        output::sanitize(&outcome.def.name),
                        lint.code,
                        output::sanitize(&lint.message)
                    ))?;
                }
                if list_tools {
                    let names: Vec<_> = report
                        .tools
                        .iter()
                        .map(|t| output::sanitize(&t.name))
                        .collect();
                    output::line(format!(
                        "{} tools: {}",
                        output::sanitize(&outcome.def.name),
                        names.join(", ")
                    ))?;
                }
            }
        }
    }
    Ok(())
}

/// The keys of a checked server's report (`DiscoveryReport`), which every
/// entry of `check --json` carries, null where unknown: a script reads a
/// failed or skipped entry with the same code as a passing one.
const REPORT_KEYS: &[&str] = &[
    "server",
    "transport",
    "protocol_version",
    "stateless",
    "initialize",
    "tools_capability",
    "tools",
    "tool_pages",
    "tool_list_end",
    "resources",
    "prompts",
    "timings",
    "schema_dialects",
    "lints",
];

/// The `check --json` document with each server's `tools` serialised from
/// its report (`tools[i]` for `servers[i]`) in place of the empty list the
/// document holds there.
struct WithTools<'a> {
    doc: &'a Value,
    tools: &'a [Option<Vec<Tool>>],
}

impl serde::Serialize for WithTools<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Servers<'a>(&'a [Value], &'a [Option<Vec<Tool>>]);
        impl serde::Serialize for Servers<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                serializer: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
                for (i, entry) in self.0.iter().enumerate() {
                    match (entry, self.1.get(i).and_then(Option::as_ref)) {
                        (Value::Object(fields), Some(tools)) => {
                            seq.serialize_element(&Server(fields, tools))?
                        }
                        _ => seq.serialize_element(entry)?,
                    }
                }
                seq.end()
            }
        }
        struct Server<'a>(&'a serde_json::Map<String, Value>, &'a [Tool]);
        impl serde::Serialize for Server<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                serializer: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (key, value) in self.0 {
                    if key == "tools" {
                        map.serialize_entry(key, self.1)?;
                    } else {
                        map.serialize_entry(key, value)?;
                    }
                }
                map.end()
            }
        }
        let Value::Object(fields) = self.doc else {
            return self.doc.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in fields {
            match value {
                Value::Array(servers) if key == "servers" => {
                    map.serialize_entry(key, &Servers(servers, self.tools))?
                }
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

fn outcome_json(outcome: &Outcome) -> Value {
    let mut entry = serde_json::Map::new();
    entry.insert("name".into(), json!(outcome.def.name));
    entry.insert("ok".into(), Value::Null);
    entry.insert("skipped".into(), json!(outcome.result.is_none()));
    entry.insert("reason".into(), Value::Null);
    entry.insert("error".into(), Value::Null);
    for key in REPORT_KEYS {
        entry.insert((*key).into(), Value::Null);
    }
    entry.insert("server".into(), json!(outcome.def.name));
    // The defined transport until one answers; unknown (null) for a URL
    // whose file names none.
    let defined = (!outcome.def.transport_inferred).then_some(outcome.def.transport);
    entry.insert("transport".into(), json!(defined));
    match &outcome.result {
        None => {
            entry.insert("reason".into(), json!("disabled"));
        }
        Some(Ok(report)) => {
            if let Value::Object(fields) = serde_json::to_value(report).unwrap_or(Value::Null) {
                entry.extend(fields);
            }
            entry.insert("ok".into(), json!(outcome.ok()));
        }
        Some(Err(err)) => {
            let stderr_tail = match err {
                ConnectError::ProcessExited { stderr_tail, .. }
                | ConnectError::Timeout { stderr_tail, .. } => stderr_tail.clone(),
                _ => Vec::new(),
            };
            entry.insert("ok".into(), json!(false));
            entry.insert(
                "error".into(),
                json!({
                    "kind": err.kind(),
                    "phase": err.phase(),
                    "message": err.to_string(),
                    "hint": err.hint(),
                    "stderr_tail": stderr_tail,
                }),
            );
        }
    }
    Value::Object(entry)
}

/// A table row for a server that was not reached: its name, status and
/// defined transport (`auto` when the file names none), and `-` in every
/// other column.
fn unreached_row(name: String, status: String, def: &ServerDef) -> Vec<String> {
    let transport = if def.transport_inferred {
        "auto".to_string()
    } else {
        def.transport.to_string()
    };
    let mut row = vec![name, status, transport];
    row.resize(9, "-".into());
    row
}
