//! `mcpctl serve --stdio|--http [ADDR]`: the supervised servers' granted
//! tools as one MCP server for agent hosts (see [`crate::serve`]).

use std::sync::Arc;

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result};
use crate::output;
use crate::serve::audit::Audit;
use crate::serve::settings::Settings;
use crate::serve::shared::Shared;
use crate::serve::upstream::Upstream;
use crate::serve::{ServeError, naming};
use crate::supervisor::socket::Paths;

const LONG_ABOUT: &str = "\
Serve the tools of the supervised servers to an agent host (Claude Code,
VS Code, Cursor, Codex …) as one MCP server, over stdio (--stdio, for hosts
that launch a command) or Streamable HTTP (--http, default 127.0.0.1:8765,
endpoint /mcp). Only granted tools
are listed (`mcpctl grant`), as SERVER__TOOL with the server's description
and input schema. Calls go through the supervisor like `mcpctl call`:
arguments are validated before dispatch; a call of a tool whose
definition changed since it was listed is refused (one whose server only
re-listed, or added or dropped other tools, is made against the new
catalog).

Agents get notifications/tools/list_changed when a grant or a catalog
changes, and prompts/ and resources/list_changed when the servers whose
prompts and resources pass through (those with a granted tool) change. A
tool that appears after a refresh, or whose definition changed since it
was granted, is hidden and refused until granted; tools held back for
lockfile drift are never exposed. serve never launches MCP servers
itself: it starts the supervisor if none is running, and the granted
servers that are not running through it (unless --no-start), in the
background. Meanwhile tools/list, and a call of a granted tool not listed
yet, wait for them (up to --timeout), as talking to the servers
themselves would; what starts later comes with tools/list_changed.

What a server says during a call reaches the agent that made it:
progress under the agent's progress token, log messages (at the level it
set with logging/setLevel), elicitation (declined when the agent offers
none), sampling (refused when it offers none), and roots/list answered
with the agent's roots. An agent's cancellation ends the call upstream.
Arguments that fail the tool's input schema give a tool result with
isError: true and the reason; unknown and ungranted tools are errors.

Every call is recorded as one JSON line (time, profile, session, server,
tool, catalog id, duration, outcome, argument size) in the audit log beside
the supervisor's socket; argument values only with --audit-args.

Over HTTP, sessions (2025-11-25) and the stateless 2026-07-28 lifecycle
(server/discover) share the endpoint. Every request needs
`Authorization: Bearer <token>`: the token is generated on first use, kept
0600 in the state directory, shown by --print-token and replaced by
--rotate-token (no token → 401, a wrong one → 401). A request whose Origin
is not loopback gets 403 (DNS rebinding). Binding a non-loopback address
needs --allow-remote; there is no TLS, so put a TLS proxy in front. The
token is never sent on to the servers: calls reach them through the
supervisor's socket.

When the supervisor stops, the session ends (exit 5).

`mcpctl serve --stdio|--http` runs as the small `mcpctl-serve` executable
installed beside mcpctl (same arguments, same process), unless
MCPCTL_SERVE_IN_PROCESS=1.";

const EXAMPLES: &str = "\
Examples:
  mcpctl grant time --all-current && mcpctl serve --stdio
  mcpctl serve --stdio --profile reviewer
  mcpctl serve --http                      # http://127.0.0.1:8765/mcp
  mcpctl serve --print-token
  mcpctl serve --print-config claude-code > .mcp.json
  mcpctl serve --print-config codex --profile reviewer
  mcpctl serve --write-config vscode       # into .vscode/mcp.json
  curl -H \"Authorization: Bearer $(mcpctl serve --print-token)\" http://127.0.0.1:8765/mcp
  claude mcp add mcpctl -- mcpctl --file ~/servers.json serve --stdio";

/// Arguments of `mcpctl serve`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
#[command(group = clap::ArgGroup::new("mode").required(true).args(["stdio", "http", "print_token", "rotate_token", "print_config", "write_config"]))]
pub struct Args {
    /// Speak MCP over stdin and stdout (for agent hosts that launch a command).
    #[arg(long)]
    pub stdio: bool,
    /// Serve Streamable HTTP at ADDR (default 127.0.0.1:8765), endpoint /mcp.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = crate::serve::http::DEFAULT_ADDR)]
    pub http: Option<String>,
    /// Allow --http to bind a non-loopback address (no TLS: use a proxy).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Print the HTTP bearer token (creating it if there is none) and exit.
    #[arg(long)]
    pub print_token: bool,
    /// Replace the HTTP bearer token with a new one, print it and exit.
    #[arg(long)]
    pub rotate_token: bool,
    /// Print the entry an agent host needs to launch `serve --stdio` (with
    /// these --file, --profile, --separator and --no-start), and exit.
    #[arg(long, value_name = "CLIENT", value_enum)]
    pub print_config: Option<crate::serve::config::Host>,
    /// Write that entry into the agent host's own file (its project file
    /// here when it has one, else its user file; as `mcpctl export --to
    /// CLIENT` writes), keeping the rest of the file, and exit.
    #[arg(long, value_name = "CLIENT", value_enum)]
    pub write_config: Option<crate::serve::config::Host>,
    /// With --write-config: replace an entry of that name that differs.
    #[arg(long, requires = "write_config")]
    pub replace: bool,
    /// Serve this profile's grants instead of the default ones.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Put this between server and tool in the names agents see.
    #[arg(long, value_name = "SEP", default_value = naming::DEFAULT_SEPARATOR)]
    pub separator: String,
    /// Start every granted server that is not running before serving (by
    /// default they start in the background, and agents hear of their tools).
    #[arg(long, conflicts_with = "no_start")]
    pub start: bool,
    /// Start no server: serve only those already running.
    #[arg(long)]
    pub no_start: bool,
    /// Seconds a call may take (default 60).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub timeout: f64,
    /// Record argument values in the audit log too (they may hold secrets).
    #[arg(long)]
    pub audit_args: bool,
}

/// Serve until the agent leaves or the supervisor stops: from the small
/// `mcpctl-serve` executable when it is installed beside this one, else
/// from this process.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    if let Some(host) = args.write_config {
        check_naming(ctx, &args)?;
        return write_config(ctx, &args, host);
    }
    if args.stdio || args.http.is_some() {
        hand_over();
    }
    serve(ctx, args)
}

/// Replace this process with `mcpctl-serve` and the same arguments; return
/// only when that cannot be done (it is not installed, it fails to start,
/// or `MCPCTL_SERVE_IN_PROCESS=1`), and then this process serves.
///
/// A `serve` lives as long as its agent's session, one per agent host
/// window, and all it needs is the supervisor's socket: in the executable
/// that holds only that, it keeps a few megabytes of mcpctl's code in
/// memory instead of pages of all of it (BENCHMARKS.md, `serve`).
fn hand_over() {
    use std::os::unix::process::CommandExt;
    if crate::env_flag::is_set("MCPCTL_SERVE_IN_PROCESS") {
        return;
    }
    let Some(lean) = crate::exe::serve_exe() else {
        return;
    };
    let err = std::process::Command::new(&lean)
        .args(std::env::args_os().skip(1))
        .exec();
    output::note(format!(
        "note: cannot run {} ({err}); serving from this process",
        lean.display()
    ));
}

/// The command line of `mcpctl-serve`: mcpctl's global options and the one
/// verb `serve`, so `mcpctl serve …` hands its arguments over unchanged.
#[derive(Debug, clap::Parser)]
#[command(
    name = "mcpctl",
    version,
    about = "Serve the granted tools of the supervised servers to an agent host over MCP",
    long_about = "mcpctl-serve is `mcpctl serve` in an executable of its own, which \
`mcpctl serve --stdio|--http` runs when it is installed beside mcpctl. \
Run it as `mcpctl-serve serve …`, with mcpctl's global options.",
    max_term_width = 100
)]
struct ServeCli {
    #[command(flatten)]
    global: super::GlobalArgs,
    #[command(subcommand)]
    command: ServeOnly,
}

/// The one verb of [`ServeCli`].
#[derive(Debug, clap::Subcommand)]
enum ServeOnly {
    /// Serve the granted tools of the supervised servers to an agent host over MCP.
    Serve(Args),
}

/// The `mcpctl-serve` executable: parse the serve-only command line, serve,
/// and exit as `mcpctl serve` would.
pub fn serve_main() -> std::process::ExitCode {
    super::reset_sigpipe();
    let cli = match super::parse::<ServeCli>() {
        Ok(cli) => cli,
        Err(code) => return std::process::ExitCode::from(code.code()),
    };
    let ServeOnly::Serve(args) = cli.command;
    let ctx = Context::from_globals(&cli.global);
    let code = super::report(serve(&ctx, args), cli.global.json);
    std::process::ExitCode::from(code.code())
}

/// [`run`] in this process.
fn serve(ctx: &Context, args: Args) -> Result<ExitCode> {
    let paths = Paths::for_sources(&ctx.sources);
    let token_file = crate::serve::token::path_for(&paths.socket);
    if args.print_token || args.rotate_token {
        return print_token(ctx, &token_file, args.rotate_token);
    }
    let addr = http_address(&args)?;
    check_naming(ctx, &args)?;
    if args.write_config.is_some() {
        // Writing host files is mcpctl's, not this small executable's.
        return Err(ServeError::Usage(
            "--write-config is written by mcpctl: run `mcpctl serve --write-config CLIENT`".into(),
        )
        .into());
    }
    if let Some(host) = args.print_config {
        return print_config(ctx, &args, host);
    }
    let timeout = crate::validate::seconds::duration("--timeout", args.timeout)
        .map_err(|why| crate::error::UsageError::new(why, "e.g. --timeout 30"))?;
    // Connects (and spawns the supervisor unless --no-spawn) first, so a
    // missing supervisor is reported before the agent's session starts.
    drop(lifecycle::connect(ctx)?);
    let upstream = Upstream::connect(paths.clone(), false)?;
    let audit_path = paths.socket.with_extension("audit.jsonl");
    let audit = Audit::new(audit_path.clone(), args.audit_args);
    let settings = Settings {
        sources: ctx.sources.clone(),
        profile: args.profile,
        separator: args.separator,
        start_all: !args.no_start,
        timeout_ms: timeout.as_millis() as u64,
    };
    let shared = Arc::new(Shared::new(upstream, settings, Some(audit))?);
    start_and_announce(&shared, ctx.allow_insecure_file, args.start, &audit_path);
    let agent_left = serve_agents(shared, addr, &token_file, args.allow_remote)?;
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

/// `--print-token` (or `--rotate-token`): the HTTP bearer token, and nothing
/// served.
fn print_token(ctx: &Context, token_file: &std::path::Path, rotate: bool) -> Result<ExitCode> {
    let token = if rotate {
        crate::serve::token::rotate(token_file)?
    } else {
        crate::serve::token::load_or_create(token_file)?
    };
    if ctx.json {
        output::print_json(&serde_json::json!({"token": token, "file": token_file}))?;
    } else {
        output::line(token)?;
    }
    Ok(ExitCode::Success)
}

/// `--http`'s address: loopback, unless `--allow-remote`.
fn http_address(args: &Args) -> Result<Option<std::net::SocketAddr>> {
    let Some(text) = &args.http else {
        return Ok(None);
    };
    let addr: std::net::SocketAddr = text.parse().map_err(|_| {
        ServeError::Usage(format!(
            "--http `{text}` is not an address; write IP:PORT, e.g. 127.0.0.1:8765"
        ))
    })?;
    if !addr.ip().is_loopback() && !args.allow_remote {
        return Err(ServeError::Usage(format!(
            "--http {addr} is not a loopback address; agents elsewhere could reach it without TLS (pass --allow-remote to do it anyway)"
        ))
        .into());
    }
    Ok(Some(addr))
}

/// Serve one agent on stdio, or (with an address) many over Streamable
/// HTTP; true when the agent left, false when the supervisor went away.
fn serve_agents(
    shared: Arc<Shared>,
    addr: Option<std::net::SocketAddr>,
    token_file: &std::path::Path,
    allow_remote: bool,
) -> Result<bool> {
    Ok(match addr {
        None => {
            let rt = super::runtime()?;
            let left = rt.block_on(crate::serve::run_stdio(shared));
            // The stdin reader blocks in a thread until the agent writes
            // again; do not wait for it when the supervisor ended the session.
            rt.shutdown_background();
            left?
        }
        Some(addr) => {
            let token = crate::serve::token::load_or_create(token_file)?;
            // Many agents at once: a worker per core, not one thread.
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .map_err(crate::error::UsageError::Output)?;
            rt.block_on(crate::serve::http::run(shared, addr, token, allow_remote))?
        }
    })
}

/// Start the granted servers, in the background (the agent's session
/// starts at once, and hears tools/list_changed when they are ready) or,
/// with `--start` (`wait`), before serving; and say on stderr what is served.
fn start_and_announce(
    shared: &Arc<Shared>,
    insecure: bool,
    wait: bool,
    audit_path: &std::path::Path,
) {
    if wait {
        crate::serve::start_granted(shared, insecure);
        shared.rebuild_blocking(true);
    }
    let view = shared.view();
    let starting = shared
        .granted()
        .startable
        .iter()
        .filter(|name| !view.catalogs.contains_key(*name))
        .count();
    if starting > 0 {
        // Marked before the session can ask for tools/list.
        let busy = shared.starting();
        let shared = shared.clone();
        std::thread::spawn(move || {
            crate::serve::start_granted(&shared, insecure);
            // One rebuild for every session waiting in `settled`, before
            // they are let go; the agents hear of it from the watcher.
            let changed = shared.rebuild_blocking(true);
            shared.hold_notice(changed);
            drop(busy);
        });
    }
    let exposed = view.tools.len();
    if shared.granted().servers.is_empty() {
        output::warn(
            "nothing is granted, so agents will see no tools",
            Some(
                "grant some first: `mcpctl grant NAME TOOL…` or `mcpctl grant NAME --all-current`",
            ),
        );
    } else {
        output::note(format!(
            "serving {exposed} granted tool{}{} (audit log: {})",
            if exposed == 1 { "" } else { "s" },
            if starting > 0 {
                ", more as the granted servers start"
            } else {
                ""
            },
            audit_path.display()
        ));
    }
}

/// Refuse a separator that breaks the tool-name rules, and a profile that
/// is invalid or defined nowhere.
fn check_naming(ctx: &Context, args: &Args) -> Result<()> {
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
    Ok(())
}

/// The agent host's entry that launches `serve --stdio` as this run would
/// serve: its name, the executable and the arguments.
fn host_entry(ctx: &Context, args: &Args) -> Result<(String, std::path::PathBuf, Vec<String>)> {
    let exe = crate::exe::main_exe().map_err(crate::error::UsageError::Output)?;
    let mut argv: Vec<String> = Vec::new();
    for file in &ctx.sources.files {
        let absolute = std::path::absolute(file).map_err(crate::error::UsageError::Output)?;
        argv.push("--file".into());
        argv.push(absolute.display().to_string());
    }
    argv.extend(["serve".to_string(), "--stdio".to_string()]);
    if let Some(profile) = &args.profile {
        argv.extend(["--profile".to_string(), profile.clone()]);
    }
    if args.separator != naming::DEFAULT_SEPARATOR {
        argv.extend(["--separator".to_string(), args.separator.clone()]);
    }
    if args.no_start {
        argv.push("--no-start".into());
    }
    let name = match &args.profile {
        Some(profile) => format!("mcpctl-{profile}"),
        None => "mcpctl".to_string(),
    };
    Ok((name, exe, argv))
}

/// Write the entry of [`host_entry`] into the host's own file, the way
/// `mcpctl export` writes servers there.
fn write_config(ctx: &Context, args: &Args, host: crate::serve::config::Host) -> Result<ExitCode> {
    use clap::ValueEnum;
    let (name, exe, argv) = host_entry(ctx, args)?;
    let client = host
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    let target = super::transfer::client_file(&client, super::transfer::Purpose::Write)?;
    let against = crate::defs::Catalog::load(&crate::defs::Sources::resolve(
        std::slice::from_ref(&target),
    ))?;
    let entry = crate::defs::ServerDef::new(
        name,
        crate::defs::Transport::Stdio,
        crate::defs::Launch::Stdio {
            command: exe.display().to_string(),
            args: argv,
            env: Default::default(),
            cwd: None,
        },
        target.clone(),
    );
    let save = super::transfer::save_into(target, false, false, false);
    super::transfer::copy(ctx, vec![entry], &against, &save, args.replace)
}

/// Print the agent host's entry for `serve --stdio` as this run would serve.
fn print_config(ctx: &Context, args: &Args, host: crate::serve::config::Host) -> Result<ExitCode> {
    let (name, exe, argv) = host_entry(ctx, args)?;
    let text = crate::serve::config::snippet(host, &name, &exe.display().to_string(), &argv);
    if ctx.json {
        output::print_json(
            &serde_json::json!({"client": format!("{host:?}"), "name": name,
            "command": exe, "args": argv, "snippet": text}),
        )?;
    } else {
        output::line(text.trim_end())?;
    }
    Ok(ExitCode::Success)
}
