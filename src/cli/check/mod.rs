//! `mcpctl check`: connect to servers, list what they offer, say what's wrong.
//!
//! This is the CI-facing verb: no supervisor, every server checked
//! concurrently within its own budget, a table (or `--json`) of results, and
//! exit code 1 when any server failed.

mod human;
mod json;
mod unconfined;

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressDrawTarget};

use super::Context;
use crate::check::{self, Outcome};
use crate::defs::ServerDef;
use crate::error::{Diagnostic, ExitCode, Result, UsageError};
use crate::mcp::{self, ConnectError, DiscoverOptions, DiscoveryReport};
use crate::output;

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
fetched), names outside [A-Za-z0-9_.-]{1,128}, and descriptions over 10,000
characters. A tool name listed twice is always an error: which definition a
call reaches is the server's choice, so such a tool is never served nor
callable (the supervisor holds it, `lock` records it as ambiguous).

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

/// The servers `check` was asked about: those to check, the disabled ones
/// it lists as skipped, and how many entries were refused for their name.
struct Selection {
    defs: Vec<ServerDef>,
    skipped: Vec<ServerDef>,
    refused: usize,
}

/// Check the selected servers and print the results.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let Selection {
        defs,
        skipped,
        refused,
    } = select(ctx, &catalog, &args)?;
    let timeout = super::lock::observe::parse_timeout(args.timeout)?;
    unconfined::warn(&defs);
    if defs.is_empty() && skipped.is_empty() {
        return nothing_to_check(ctx, &catalog, refused);
    }
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = timeout;
    opts.strict = args.strict;
    opts.full_catalog = args.locked;
    let jobs = check::jobs(args.jobs, defs.len());
    let order: Vec<String> = catalog.servers().iter().map(|d| d.name.clone()).collect();
    let mut outcomes = check_with_progress(ctx, defs, opts, jobs)?;
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
        Some(super::lock::drift::drift_offline(ctx, &outcomes)?)
    } else {
        None
    };
    if ctx.json {
        let skipped = outcomes.len() + refused - passed - failed;
        let counts = json::Counts {
            passed,
            failed,
            skipped,
        };
        json::print(&mut outcomes, counts, drift.as_deref())?;
    } else {
        human::print(&outcomes, args.tools)?;
        if let Some(drift) = drift
            .as_deref()
            .filter(|d| super::lock::drift::any_drift(d))
        {
            // A blank line between the table and the drift reports.
            output::line("")?;
            super::lock::drift::print_drift(drift)?;
        }
    }
    if drift
        .as_ref()
        .is_some_and(|d| super::lock::drift::any_drift(d))
    {
        return Ok(ExitCode::Conflict);
    }
    Ok(if failed == 0 {
        ExitCode::Success
    } else {
        ExitCode::Failed
    })
}

/// The named servers, or (with no names) every enabled one plus the
/// disabled ones as skipped; each from a file we may launch from, its
/// lockfile readable with `--locked`, its inputs asked for.
fn select(ctx: &Context, catalog: &crate::defs::Catalog, args: &Args) -> Result<Selection> {
    // Disabled servers are listed as skipped (never silently left out) when
    // no names are given; a server named explicitly is checked regardless.
    let mut skipped = Vec::new();
    let mut refused = 0;
    let defs: Vec<ServerDef> = if args.names.is_empty() {
        // An entry whose name was refused cannot be checked, and a CI run
        // must not pass over it: each one counts as a failure.
        refused = ctx.report_refused(catalog);
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
    Ok(Selection {
        defs,
        skipped,
        refused,
    })
}

/// No server to check: an empty report, a failure when entries were
/// refused, else a note.
fn nothing_to_check(
    ctx: &Context,
    catalog: &crate::defs::Catalog,
    refused: usize,
) -> Result<ExitCode> {
    if ctx.json {
        output::print_json(
            &serde_json::json!({"schema_version": 1, "servers": [], "passed": 0, "failed": refused}),
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
    Ok(ExitCode::Success)
}

/// Run the engine over `defs`, with a spinner per server on a terminal,
/// until every server is checked or a signal stops it (after every server
/// it started has ended).
fn check_with_progress(
    ctx: &Context,
    defs: Vec<ServerDef>,
    opts: DiscoverOptions,
    jobs: usize,
) -> Result<Vec<Outcome>> {
    let progress = (!ctx.json && !output::quiet() && std::io::stderr().is_terminal())
        .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
    let runtime = check::runtime().map_err(UsageError::Output)?;
    let sigpipe = mcp::child::ignore_sigpipe();
    let checked = super::interrupt::block_on(
        &runtime,
        check::check_all(defs, opts, jobs, progress.clone()),
    );
    if let Some(progress) = progress {
        let _ = progress.clear();
    }
    drop(runtime);
    drop(sigpipe);
    Ok(checked?)
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
