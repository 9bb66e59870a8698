//! `mcpctl status [NAME…|--all]`: the state of supervised servers, as
//! `systemctl status` shows units: a table of all, or each one named in
//! detail.

use serde_json::json;

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;
use crate::supervisor::protocol::{Body, Op, ServerStatus};
use crate::supervisor::socket::Paths;

const EXAMPLES: &str = "\
States: stopped, starting, ready, refreshing, stopping, failed (with the
exit code and the last stderr lines), changed (the definition changed on
disk while it runs; restart it to apply).

Never starts the supervisor: without one, the defined servers are listed
as stopped and a note on stderr says so (`supervisor_running` in --json).
If a definitions file cannot be read, `load_error` says why (path:line:col)
and the servers shown are those of the last good read.

Without a name, or with --all, one table of every server; with names, each
one in detail, in the order given (like `systemctl status A B`).

Exit codes: 0 ok, 3 unknown name, 5 supervisor unreachable.

Examples:
  mcpctl status
  mcpctl status --all
  mcpctl status billing time
  mcpctl status --json | jq -r '.servers[] | select(.state==\"failed\") | .name'";

/// Arguments of `mcpctl status`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The servers to show in detail (default: a table of all).
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,
    /// Every server, as a table (the same as no name).
    #[arg(long, conflicts_with = "names")]
    pub all: bool,
}

/// Print the status table, or one server in detail. Never starts a
/// supervisor: without one, the defined servers are listed as `stopped`.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let names = args.names.clone();
    let (servers, load_error, running) = match lifecycle::connect_existing(ctx)? {
        Some(mut client) => {
            let Body::Servers {
                servers,
                load_error,
            } = client.request(Op::Status { names })?
            else {
                return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
            };
            (servers, load_error, true)
        }
        None => (defined_as_stopped(ctx, &names)?, None, false),
    };
    if ctx.json {
        output::print_json(&json!({
            "servers": servers,
            "supervisor_running": running,
            "load_error": load_error,
        }))?;
        return Ok(ExitCode::Success);
    }
    if !running {
        lifecycle::note_not_running();
    }
    if let Some(problem) = &load_error {
        output::warn(
            &format!("the supervisor could not read the definitions: {problem}"),
            Some("fix the file (it is re-read when saved); running servers are left as they are"),
        );
    }
    if args.names.is_empty() {
        if servers.is_empty() {
            output::line("no servers are defined")?;
        } else {
            lifecycle::status_table(&servers.iter().collect::<Vec<_>>()).print()?;
        }
        return Ok(ExitCode::Success);
    }
    for (i, s) in servers.iter().enumerate() {
        if i > 0 {
            output::line("")?;
        }
        output::line(detail(s).join("\n"))?;
    }
    Ok(ExitCode::Success)
}

/// One server in detail, a line per field: what came from files or
/// servers cannot add lines.
fn detail(s: &ServerStatus) -> Vec<String> {
    let one = |text: &str| output::sanitize(text).into_owned();
    let mut out = vec![
        format!("name:       {}", one(&s.name)),
        format!("state:      {}", s.state),
        format!("transport:  {}", s.transport),
        format!("sandbox:    {}", lifecycle::sandbox_word(s)),
        format!(
            "pid:        {}",
            s.pid.map_or("-".into(), |p| p.to_string())
        ),
        format!("uptime:     {}", lifecycle::uptime(s.uptime_secs)),
        format!("binding id: {}", s.binding_id.as_deref().unwrap_or("-")),
        format!(
            "catalog id: {}{}",
            s.catalog_id.as_deref().unwrap_or("-"),
            if s.catalog_stale { " (stale)" } else { "" }
        ),
        format!(
            "tools:      {}",
            s.tools.map_or("-".into(), |n| n.to_string())
        ),
    ];
    out.extend(held(s));
    out.push(format!("restarts:   {}", s.restarts));
    out.push(format!("log:        {}", one(&s.log)));
    if let Some(e) = &s.last_error {
        out.push(format!("last error: {}", one(&e.message)));
        if let Some(code) = e.exit_code {
            out.push(format!("exit code:  {code}"));
        }
        for line in &e.stderr_tail {
            out.push(format!("  | {}", one(line)));
        }
    }
    out
}

/// How many held tools `status NAME` names; `mcpctl tools NAME` and
/// `approve --dry-run` list them all.
const HELD_SHOWN: usize = 10;

/// What is held back (sanitized: a server names them): tools drifted from
/// the lockfile or listed twice, prompts and resource templates drifted;
/// and the commands that review and approve them.
fn held(s: &ServerStatus) -> Vec<String> {
    let groups = [
        ("tool", &s.held_tools),
        ("prompt", &s.held_prompts),
        ("resource template", &s.held_resource_templates),
    ];
    let mut out: Vec<String> = groups
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(kind, names)| held_line(kind, names))
        .collect();
    if !out.is_empty() {
        let name = output::sanitize(&s.name);
        out.push(format!(
            "  hint: review with `mcpctl approve {name} --dry-run`, then `mcpctl approve {name}`"
        ));
    }
    out
}

/// One `held back:` line: how many of `kind`, and the first names.
fn held_line(kind: &str, held: &[String]) -> String {
    let mut names: Vec<String> = held
        .iter()
        .take(HELD_SHOWN)
        .map(|n| format!("`{}`", output::sanitize(n)))
        .collect();
    if held.len() > HELD_SHOWN {
        names.push(format!("and {} more", held.len() - HELD_SHOWN));
    }
    let count = held.len();
    let why = if kind == "tool" {
        "drifted from the lockfile or listed twice"
    } else {
        "new or changed since the lock"
    };
    format!(
        "held back:  {count} {kind}{} {why}: {}",
        if count == 1 { "" } else { "s" },
        names.join(", ")
    )
}

/// Every defined server (or those named) as `stopped`, for when no
/// supervisor runs; an unknown name is not found, as the supervisor says.
fn defined_as_stopped(ctx: &Context, names: &[String]) -> Result<Vec<ServerStatus>> {
    let catalog = ctx.catalog()?;
    for name in names {
        catalog.get(name)?;
    }
    let logs = Paths::for_sources(&ctx.sources).logs;
    let all = catalog.servers();
    // In the order asked for, as the supervisor answers.
    let chosen: Vec<_> = if names.is_empty() {
        all.iter().collect()
    } else {
        names
            .iter()
            .filter_map(|n| all.iter().find(|d| &d.name == n))
            .collect()
    };
    Ok(chosen
        .into_iter()
        .map(|d| ServerStatus {
            name: d.name.clone(),
            state: "stopped".into(),
            enabled: d.enabled,
            transport: d.transport.as_str().to_string(),
            pid: None,
            uptime_secs: None,
            binding_id: None,
            catalog_id: None,
            catalog_stale: false,
            tools: None,
            restarts: 0,
            last_error: None,
            held_tools: Vec::new(),
            held_prompts: Vec::new(),
            held_resource_templates: Vec::new(),
            log: crate::supervisor::logs::log_path(&logs, &d.name)
                .display()
                .to_string(),
            sandbox: crate::defs::sandbox_kind::sandbox_kind(d),
        })
        .collect())
}
