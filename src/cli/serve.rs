//! `mcpctl serve --stdio`: the supervised servers' granted tools as one
//! MCP server for an agent host (see [`crate::serve`]).

use std::sync::Arc;

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result};
use crate::output;
use crate::serve::audit::Audit;
use crate::serve::handler::{Settings, Shared};
use crate::serve::upstream::Upstream;
use crate::serve::{ServeError, naming};
use crate::supervisor::socket::Paths;

const LONG_ABOUT: &str = "\
Serve the tools of the supervised servers to an agent host (Claude Code,
VS Code, Cursor, Codex …) as one MCP server over stdio. Only granted tools
are listed (`mcpctl grant`), as SERVER__TOOL with the server's description
and input schema. Calls go through the supervisor like `mcpctl call`:
arguments are validated before dispatch, a call against a catalog that
changed since it was listed is refused, nothing is retried.

Agents get notifications/tools/list_changed when a grant or a catalog
changes. A tool that appears after a refresh, or whose definition changed
since it was granted, is hidden and refused until granted; tools held back
for lockfile drift are never exposed. serve never launches MCP servers
itself: it starts granted servers through the supervisor when their
definition says `autostart: true`, or all of them with --start.

Every call is recorded as one JSON line (time, profile, session, server,
tool, catalog id, duration, outcome, argument size) in the audit log beside
the supervisor's socket; argument values only with --audit-args.

When the supervisor stops, the session ends (exit 5).";

const EXAMPLES: &str = "\
Examples:
  mcpctl grant time --all-current && mcpctl serve --stdio --start
  mcpctl serve --stdio --profile reviewer
  claude mcp add mcpctl -- mcpctl --file ~/servers.json serve --stdio";

/// Arguments of `mcpctl serve`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
pub struct Args {
    /// Speak MCP over stdin and stdout (for agent hosts that launch a command).
    #[arg(long, required = true)]
    pub stdio: bool,
    /// Serve this profile's grants instead of the default ones.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Put this between server and tool in the names agents see.
    #[arg(long, value_name = "SEP", default_value = naming::DEFAULT_SEPARATOR)]
    pub separator: String,
    /// Start every granted server that is not running (default: only those
    /// whose definition says `autostart: true`).
    #[arg(long)]
    pub start: bool,
    /// Seconds a call may take (default 60).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub timeout: f64,
    /// Record argument values in the audit log too (they may hold secrets).
    #[arg(long)]
    pub audit_args: bool,
}

/// Serve until the agent leaves or the supervisor stops.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    if let Some(why) = naming::separator_problem(&args.separator) {
        return Err(ServeError::Usage(why).into());
    }
    if let Some(profile) = &args.profile {
        super::grant::check_profile(profile)?;
        let catalog = ctx.catalog()?;
        if !catalog
            .servers()
            .iter()
            .any(|d| d.grants.profiles.contains_key(profile))
        {
            return Err(ServeError::NoProfile(profile.clone()).into());
        }
    }
    let timeout = crate::validate::seconds::duration("--timeout", args.timeout)
        .map_err(|why| crate::error::UsageError::new(why, "e.g. --timeout 30"))?;
    // Connects (and spawns the supervisor unless --no-spawn) first, so a
    // missing supervisor is reported before the agent's session starts.
    drop(lifecycle::connect(ctx)?);
    let paths = Paths::for_sources(&ctx.sources);
    let upstream = Upstream::connect(paths.clone(), false)?;
    let audit = Audit::new(paths.socket.with_extension("audit.jsonl"), args.audit_args);
    let settings = Settings {
        sources: ctx.sources.clone(),
        profile: args.profile,
        separator: args.separator,
        start_all: args.start,
        timeout_ms: timeout.as_millis() as u64,
    };
    let shared = Arc::new(Shared::new(upstream, settings, Some(audit))?);
    crate::serve::start_granted(&shared, ctx.allow_insecure_file);
    let exposed = shared.view().tools.len();
    if shared.granted().servers.is_empty() {
        output::warn(
            "nothing is granted, so agents will see no tools",
            Some(
                "grant some first: `mcpctl grant NAME TOOL…` or `mcpctl grant NAME --all-current`",
            ),
        );
    } else {
        output::note(format!(
            "serving {exposed} granted tool{} over stdio",
            if exposed == 1 { "" } else { "s" }
        ));
    }
    let rt = super::runtime()?;
    let agent_left = rt.block_on(crate::serve::run_stdio(shared))?;
    if agent_left {
        Ok(ExitCode::Success)
    } else {
        Err(crate::supervisor::SupervisorError::Unreachable {
            socket: paths.socket,
            detail: "the supervisor stopped; the agent's session was ended".into(),
        }
        .into())
    }
}
