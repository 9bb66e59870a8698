//! `mcpctl status [NAME]`: the state of supervised servers.

use serde_json::json;

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;
use crate::supervisor::protocol::{Body, Op};

const EXAMPLES: &str = "\
States: stopped, starting, ready, refreshing, stopping, failed (with the
exit code and the last stderr lines), changed (the definition changed on
disk while it runs; restart it to apply).

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
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
}

/// Print the status table, or one server in detail.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let mut client = lifecycle::connect(ctx)?;
    let body = client.request(Op::Status {
        names: args.name.iter().cloned().collect(),
    })?;
    let Body::Servers { servers } = body else {
        return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
    };
    if ctx.json {
        output::print_json(&json!({ "servers": servers }))?;
        return Ok(ExitCode::Success);
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
