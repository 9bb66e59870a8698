//! `mcpctl status [NAME]`: the state of supervised servers.

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

Exit codes: 0 ok, 3 unknown name, 5 supervisor unreachable.

Examples:
  mcpctl status
  mcpctl status billing
  mcpctl status --json | jq -r '.servers[] | select(.state==\"failed\") | .name'";

/// Arguments of `mcpctl status`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// One server (default: all).
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: Option<String>,
}

/// Print the status table, or one server in detail. Never starts a
/// supervisor: without one, the defined servers are listed as `stopped`.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let names: Vec<String> = args.name.iter().cloned().collect();
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
    if args.name.is_none() {
        if servers.is_empty() {
            output::line("no servers are defined")?;
        } else {
            lifecycle::status_table(&servers.iter().collect::<Vec<_>>()).print()?;
        }
        return Ok(ExitCode::Success);
    }
    // One line per field: what came from files or servers cannot add lines.
    let one = |text: &str| output::sanitize(text).into_owned();
    for s in &servers {
        let mut out = vec![
            format!("name:       {}", one(&s.name)),
            format!("state:      {}", s.state),
            format!("transport:  {}", s.transport),
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
            format!("restarts:   {}", s.restarts),
            format!("log:        {}", one(&s.log)),
        ];
        if let Some(e) = &s.last_error {
            out.push(format!("last error: {}", e.message));
            if let Some(code) = e.exit_code {
                out.push(format!("exit code:  {code}"));
            }
            for line in &e.stderr_tail {
                out.push(format!("  | {}", one(line)));
            }
        }
        output::line(out.join("\n"))?;
    }
    Ok(ExitCode::Success)
}

/// Every defined server (or the one named) as `stopped`, for when no
/// supervisor runs; an unknown name is not found, as the supervisor says.
fn defined_as_stopped(ctx: &Context, names: &[String]) -> Result<Vec<ServerStatus>> {
    let catalog = ctx.catalog()?;
    for name in names {
        catalog.get(name)?;
    }
    let logs = Paths::for_sources(&ctx.sources).logs;
    Ok(catalog
        .servers()
        .iter()
        .filter(|d| names.is_empty() || names.contains(&d.name))
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
            log: crate::supervisor::logs::log_path(&logs, &d.name)
                .display()
                .to_string(),
        })
        .collect())
}
