//! `mcpctl supervisor run|start|stop|status`: the daemon itself.

use std::time::{Duration, Instant};

use serde_json::json;

use super::Context;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;
use crate::supervisor::client::Client;
use crate::supervisor::protocol::{Body, Op};
use crate::supervisor::socket::Paths;
use crate::supervisor::{SupervisorError, daemon};

const EXAMPLES: &str = "\
There is one supervisor per set of definition files; its socket is
<runtime or state dir>/mcpctl/<digest>.sock (MCPCTL_STATE_DIR overrides
the directory). Lifecycle verbs start it on first use unless --no-spawn
or MCPCTL_NO_SPAWN=1.

The supervisor watches its definition files (and their directories, as
editors save by renaming) and re-reads them when they change, as it does
after mcpctl's own writes; `reload` does it at once. A file that cannot be
read leaves the running servers alone; `mcpctl status` shows why. If its
socket is deleted or replaced, the supervisor recreates it within a second.

Exit codes: 0 ok, 4 already running (run), 5 not running (status).

Examples:
  mcpctl supervisor run            # foreground, logs to stderr
  mcpctl supervisor start          # detached; idempotent
  mcpctl supervisor status --json
  mcpctl supervisor reload         # after editing a file by hand
  mcpctl supervisor stop           # stops every server, then the daemon";

/// The supervisor verbs.
#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Run the supervisor in the foreground, logging to stderr.
    #[command(after_long_help = EXAMPLES)]
    Run,
    /// Start the supervisor detached (does nothing if it runs).
    #[command(after_long_help = EXAMPLES)]
    Start,
    /// Stop every server, then the supervisor.
    #[command(after_long_help = EXAMPLES)]
    Stop,
    /// Show the supervisor's pid, uptime, socket, sources and servers.
    #[command(after_long_help = EXAMPLES)]
    Status,
    /// Re-read the definition files now (they are also watched).
    #[command(after_long_help = EXAMPLES)]
    Reload,
}

/// Run one supervisor verb.
pub fn run(ctx: &Context, verb: Verb) -> Result<ExitCode> {
    let paths = Paths::for_sources(&ctx.sources);
    match verb {
        Verb::Run => {
            daemon::run(ctx.sources.clone())?;
            Ok(ExitCode::Success)
        }
        Verb::Start => {
            let mut c = Client::connect(&ctx.sources, true)?;
            print_daemon(ctx, &mut c)
        }
        Verb::Stop => {
            let Some(mut c) = existing(&paths)? else {
                if ctx.json {
                    output::print_json(&json!({"running": false, "stopped": false}))?;
                } else {
                    output::line("the supervisor is not running")?;
                }
                return Ok(ExitCode::Success);
            };
            let pid = c.daemon_pid;
            c.request(Op::Shutdown)?;
            drop(c);
            // Wait for it to stop its servers and exit.
            let deadline = Instant::now() + Duration::from_secs(60);
            let me = nix::unistd::Pid::from_raw(pid as i32);
            while nix::sys::signal::kill(me, None).is_ok() && crate::procfs::alive(pid) {
                if Instant::now() > deadline {
                    return Err(SupervisorError::Unreachable {
                        socket: paths.socket.clone(),
                        detail: format!("pid {pid} did not exit within 60 s"),
                    }
                    .into());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            if ctx.json {
                output::print_json(&json!({"running": false, "stopped": true, "pid": pid}))?;
            } else {
                output::line(format!("stopped the supervisor (pid {pid})"))?;
            }
            Ok(ExitCode::Success)
        }
        Verb::Reload => {
            let Some(mut c) = existing(&paths)? else {
                if ctx.json {
                    output::print_json(&json!({"running": false, "reloaded": false}))?;
                } else {
                    output::line(
                        "the supervisor is not running; it reads the definitions when it starts",
                    )?;
                }
                return Ok(ExitCode::Success);
            };
            c.request(Op::Reload)?;
            if ctx.json {
                output::print_json(&json!({"running": true, "reloaded": true}))?;
            } else {
                output::line("the supervisor re-read the definitions")?;
            }
            Ok(ExitCode::Success)
        }
        Verb::Status => match existing(&paths)? {
            Some(mut c) => print_daemon(ctx, &mut c),
            None => {
                if ctx.json {
                    output::print_json(&json!({"running": false, "socket": paths.socket}))?;
                    Ok(ExitCode::SupervisorUnreachable)
                } else {
                    Err(SupervisorError::NotRunning {
                        socket: paths.socket,
                    }
                    .into())
                }
            }
        },
    }
}

fn print_daemon(ctx: &Context, c: &mut Client) -> Result<ExitCode> {
    let Body::Daemon {
        pid,
        uptime_secs,
        socket,
        sources,
        version,
        servers,
        running,
    } = c.request(Op::Daemon)?
    else {
        return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
    };
    if ctx.json {
        output::print_json(&json!({
            "running": true, "pid": pid, "uptime_secs": uptime_secs, "socket": socket,
            "sources": sources, "version": version, "servers": servers, "running_servers": running,
        }))?;
    } else {
        output::line(format!(
            "pid:      {pid}\nuptime:   {}\nsocket:   {socket}\nsources:  {}\nversion:  {version}\nservers:  {servers} ({running} running)",
            super::lifecycle::uptime(Some(uptime_secs)),
            sources.join(", ")
        ))?;
    }
    Ok(ExitCode::Success)
}

/// The running supervisor, without spawning one; a live daemon that does
/// not answer on its socket is an error that says so, not "not running".
fn existing(paths: &Paths) -> Result<Option<Client>> {
    match Client::connect_paths(paths, false) {
        Ok(c) => Ok(Some(c)),
        Err(SupervisorError::NotRunning { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
