//! The command line: clap definitions and dispatch, one file per verb.
//!
//! Each verb's file holds its `Args` struct (with a long help that ends in
//! examples) and a `run` function. This module owns what they share: the
//! global options, the [`Context`], and turning an error into `error:` and
//! `hint:` lines plus an exit code.

mod add;
mod add_json;
mod add_oauth;
mod approve;
mod auth;
mod call;
pub mod check;
mod clients;
mod complete;
mod export;
mod grant;
mod import;
mod transfer;
pub use complete::complete_if_asked;
mod completions;
mod disable;
mod enable;
pub mod interrupt;
mod lifecycle;
mod list;
mod lock;
mod login;
mod logout;
mod logs;
mod pin;
mod refresh;
mod refusal;
mod remove;
mod restart;
mod revoke;
mod sandbox;
mod sandbox_set;
mod save;
mod search;
mod serve;
pub use serve::serve_main;
mod show;
mod start;
mod status;
mod stop;
mod supervisor;
pub mod talkback;
mod toggle;
mod tools;

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

use crate::defs::{Catalog, Sources};
use crate::error::{ExitCode, Result};
use crate::output;

const ABOUT: &str = "Manage, check and supervise Model Context Protocol (MCP) servers";

const LONG_ABOUT: &str = "\
mcpctl manages the file that lists your MCP servers: local ones launched as
child processes over stdio (npx, uvx, docker …) and remote ones reached over
Streamable HTTP or legacy SSE. It edits JSON and YAML definition files without
losing comments or unknown fields, and validates launchers, version pins and
URLs before it saves.

start, stop, restart, refresh, status, tools, call and logs go through a
background supervisor (one per set of definition files), which mcpctl starts
on first use unless --no-spawn or MCPCTL_NO_SPAWN=1; `mcpctl supervisor`
runs, starts, stops and inspects it.

Definition files: --file PATH (repeatable), else MCPCTL_FILE (a ':'-separated
list), else ~/.config/mcpctl/servers.json.

Launched stdio servers get only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG,
TMPDIR, the proxy and CA variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY in
either case, SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS,
REQUESTS_CA_BUNDLE) and their own env. MCPCTL_INHERIT_ENV (names separated by
',' or ':') passes more, e.g. MCPCTL_INHERIT_ENV=UV_SYSTEM_CERTS; supervised
servers inherit from the supervisor's environment.

Exit codes: 0 ok, 1 failed, 2 usage or invalid input, 3 not found,
4 conflict, 5 supervisor unreachable, 130 interrupted.";

const EXAMPLES: &str = "\
Examples:
  mcpctl add --command npx --args=-y,@modelcontextprotocol/server-everything@2026.8.31
  mcpctl add --name time --command uvx -- mcp-server-time==2026.10.19
  mcpctl add --url https://mcp.example.com/mcp --header 'Authorization: Bearer ${TOKEN}'
  mcpctl add --name linear --url https://mcp.linear.app/mcp --auth oauth && mcpctl login linear
  mcpctl search time && mcpctl add io.github.modelcontextprotocol/server-time
  mcpctl list
  mcpctl check --tools
  mcpctl pin --all && mcpctl lock && mcpctl check --locked
  mcpctl disable time
  mcpctl start time && mcpctl call time get_current_time --arg timezone=UTC
  mcpctl status
  mcpctl --file .mcp.json list --json | jq '.servers[].name'";

/// The top-level command line.
#[derive(Debug, Parser)]
#[command(
    name = "mcpctl",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = EXAMPLES,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    /// The options every verb takes.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The options every verb takes, before or after it: shared by `mcpctl`
/// and the `mcpctl-serve` executable ([`serve_main`]), so both read a
/// command line the same way.
#[derive(Debug, clap::Args)]
pub struct GlobalArgs {
    /// Definition file to read and edit (repeatable; default: MCPCTL_FILE or
    /// ~/.config/mcpctl/servers.json).
    #[arg(long = "file", global = true, value_name = "PATH")]
    pub files: Vec<PathBuf>,

    /// Print machine-readable JSON on stdout instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// Print no notes or progress on stderr (warnings and errors still).
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Colour output: auto (a terminal, unless NO_COLOR is set;
    /// CLICOLOR_FORCE=1 forces it), always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = output::ColorChoice::Auto
    )]
    pub color: output::ColorChoice,

    /// Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0,
    /// true/false, yes/no or on/off).
    #[arg(
        long,
        global = true,
        env = "MCPCTL_NO_SPAWN",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub no_spawn: bool,

    /// Launch from a definition file even when another user could change it
    /// (group- or world-writable, or owned by someone else), for this run
    /// (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off).
    #[arg(
        long,
        global = true,
        env = "MCPCTL_ALLOW_INSECURE_FILE",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub allow_insecure_file: bool,

    /// In Claude Code's `~/.claude.json`, read and edit the servers of this
    /// project (`projects.<PATH>.mcpServers`) instead of the user's
    /// (default: the current directory, when the file has an entry for it).
    #[arg(long, global = true, value_name = "PATH")]
    pub project: Option<PathBuf>,
}

/// Every verb mcpctl understands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every server with its transport, target, whether it is enabled, and its source file.
    #[command(visible_alias = "ls")]
    List(list::Args),
    /// Show one server's full definition.
    #[command(visible_alias = "get")]
    Show(show::Args),
    /// Add a server from the MCP Registry, a URL or a command, after validating it.
    Add(Box<add::Args>),
    /// Add a server from its JSON entry (Claude Code's `mcp add-json`).
    #[command(name = "add-json")]
    AddJson(add_json::Args),
    /// Connect to servers, list their tools, and report what is wrong.
    Check(check::Args),
    /// Pin what each server launches and what its tools claim, in a lockfile.
    Lock(lock::Args),
    /// Resolve unpinned package launches to exact versions, in place.
    Pin(pin::Args),
    /// Accept a server's drift from the lockfile: show it, then update the lock.
    Approve(approve::Args),
    /// List the agent hosts' MCP configuration files found here.
    Clients(clients::Args),
    /// Copy servers from an agent host's file into mcpctl's.
    Import(import::Args),
    /// Write servers into an agent host's own file, in its shape.
    Export(export::Args),
    /// Remove servers from their definition files.
    #[command(visible_alias = "rm")]
    Remove(remove::Args),
    /// Enable servers (keeps the definition, flips its state).
    Enable(enable::Args),
    /// Disable servers (keeps the definition, flips its state).
    Disable(disable::Args),
    /// Search the official MCP Registry for servers to install.
    #[command(long_about = search::LONG_ABOUT)]
    Search(search::Args),
    /// Start servers under the supervisor and wait until they are ready.
    Start(start::Args),
    /// Stop supervised servers (TERM, grace, KILL, reap).
    Stop(stop::Args),
    /// Stop then start servers, with new binding and catalog ids.
    Restart(restart::Args),
    /// Re-list the tools of ready servers.
    Refresh(refresh::Args),
    /// Show the state of supervised servers.
    Status(status::Args),
    /// Show a running server's tool catalog.
    Tools(tools::Args),
    /// Call a tool of a running server (or --direct, without the supervisor).
    Call(call::Args),
    /// Show a supervised server's stderr log.
    Logs(logs::Args),
    /// Serve the granted tools of the supervised servers to an agent host over MCP.
    Serve(serve::Args),
    /// Expose tools of a server to `mcpctl serve` (nothing is exposed until granted).
    Grant(grant::Args),
    /// Take back tools granted to `mcpctl serve`.
    Revoke(revoke::Args),
    /// Print a server's sandbox rules as its launch builds them, or set its policy.
    Sandbox(sandbox::Args),
    /// Sign in to a remote server with OAuth and store its tokens.
    Login(login::Args),
    /// Revoke a server's OAuth tokens and delete them here.
    Logout(logout::Args),
    /// Inspect OAuth sign-ins (`mcpctl auth status`).
    #[command(subcommand)]
    Auth(auth::Verb),
    /// Run, start, stop or inspect the supervisor daemon itself.
    #[command(subcommand)]
    Supervisor(supervisor::Verb),
    /// Print a shell completion script.
    Completions(completions::Args),
}

/// What every command needs besides its own arguments.
pub struct Context {
    /// The definition files in play.
    pub sources: Sources,
    /// `--json` was given.
    pub json: bool,
    /// Prompts are allowed (stdin and stderr are terminals, not CI).
    pub interactive: bool,
    /// The supervisor may be started implicitly (no `--no-spawn`, no
    /// `MCPCTL_NO_SPAWN=1`).
    pub spawn: bool,
    /// `--allow-insecure-file`: launch from files others could change.
    pub allow_insecure_file: bool,
}

impl Context {
    /// Apply the global options (quiet, colour, project) and gather what
    /// the verb needs of them.
    pub fn from_globals(global: &GlobalArgs) -> Context {
        output::set_quiet(global.quiet);
        output::set_color(global.color);
        crate::defs::format::select_project(global.project.as_deref());
        Context {
            sources: Sources::resolve(&global.files),
            json: global.json,
            interactive: output::interactive(),
            spawn: !global.no_spawn,
            allow_insecure_file: global.allow_insecure_file,
        }
    }

    /// Load every definition from the sources.
    pub fn catalog(&self) -> Result<Catalog> {
        Ok(Catalog::load(&self.sources)?)
    }

    /// [`Context::catalog`], keeping `file`'s text and parse for the edit
    /// that follows (see [`Catalog::load_keeping`]).
    pub fn catalog_keeping(
        &self,
        file: &std::path::Path,
    ) -> Result<(Catalog, Option<crate::defs::catalog::ReadFile>)> {
        Ok(Catalog::load_keeping(&self.sources, Some(file))?)
    }

    /// Refuse to launch from `file` when another user could change it,
    /// unless `--allow-insecure-file` was given.
    pub fn require_trusted(&self, file: &std::path::Path) -> Result<()> {
        Ok(crate::defs::trust::require(file, self.allow_insecure_file)?)
    }

    /// Print the error of every entry whose name was refused, as a failed
    /// command prints it, and return how many there were: a verb that acts
    /// on every server (`list`, `check`, `start --all`) must not pass over
    /// them in silence.
    pub fn report_refused(&self, catalog: &Catalog) -> usize {
        for refused in catalog.refused() {
            let err = refused.error();
            let hint = crate::error::Diagnostic::hint(&err);
            output::error(&err.to_string(), hint.as_deref());
        }
        catalog.refused().len()
    }

    /// For read-only verbs: warn about every source another user could
    /// change, without refusing.
    pub fn warn_untrusted(&self) {
        for file in &self.sources.files {
            if let Err(untrusted) = crate::defs::trust::check(file) {
                output::warn(&untrusted.to_string(), Some(&untrusted.hint_text()));
            }
        }
    }
}

/// A single-threaded tokio runtime for one command's network and child I/O:
/// commands run one operation at a time, so no worker pool is started.
fn runtime() -> std::result::Result<tokio::runtime::Runtime, crate::error::UsageError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(crate::error::UsageError::Output)
}

/// The clap command tree, for completions and man pages.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Run mcpctl with the process's own arguments and return its exit status
/// (what the `mcpctl` binary does, and all it does).
///
/// Errors are printed as `error: …` with a `hint: …` line, and mapped to the
/// exit code table in the README.
pub fn main_entry() -> std::process::ExitCode {
    if let Some(code) = crate::mcp::watchdog::run_if_asked() {
        return std::process::ExitCode::from(code);
    }
    complete_if_asked();
    let code = run_from_env();
    std::process::ExitCode::from(code.code())
}

/// Parse the process arguments, run the command, print any error.
pub fn run_from_env() -> ExitCode {
    reset_sigpipe();
    match parse::<Cli>() {
        Ok(cli) => {
            let json = cli.global.json;
            report(run(cli), json)
        }
        Err(code) => code,
    }
}

/// The process arguments as `P`, or the exit code after printing why not
/// (help and version are a success; a refusal reads `error:`/`hint:` as
/// every mcpctl error does, and under `--json` is also answered as JSON).
fn parse<P: Parser>() -> std::result::Result<P, ExitCode> {
    P::try_parse().map_err(|err| refusal::report(err, &P::command(), json_requested()))
}

/// The exit code of a command's result, after printing its error (also as
/// JSON under `--json`).
fn report(result: Result<ExitCode>, json: bool) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            let (message, hint, code) = (err.to_string(), err.hint(), err.exit_code());
            let also = err.also();
            output::error(&message, hint.as_deref());
            for more in &also {
                output::error(&more.message, more.hint.as_deref());
            }
            if json {
                let doc = output::JsonError {
                    code: code.name(),
                    message: &message,
                    hint: hint.as_deref(),
                    exit_code: code.code(),
                    also: &also,
                };
                let _ = output::print_json_error(&doc);
            }
            code
        }
    }
}

/// True when `--json` is among the arguments before any `--`: a command
/// line clap refused still answers a script in JSON.
fn json_requested() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let ctx = Context::from_globals(&cli.global);
    let writes = matches!(
        cli.command,
        Command::Add(_)
            | Command::AddJson(_)
            | Command::Import(_)
            | Command::Remove(_)
            | Command::Enable(_)
            | Command::Disable(_)
            | Command::Grant(_)
            | Command::Revoke(_)
    );
    let result = dispatch(&ctx, cli.command);
    if writes && result.is_ok() {
        // Best effort: a running supervisor re-reads the definitions; none is started.
        if let Some(problem) = crate::supervisor::client::notify_reload(&ctx.sources) {
            output::warn(
                &format!("the running supervisor did not reload: {problem}"),
                Some("run `mcpctl supervisor stop`; the next command starts a fresh one"),
            );
        }
    }
    result
}

fn dispatch(ctx: &Context, command: Command) -> Result<ExitCode> {
    match command {
        Command::List(args) => list::run(ctx, args),
        Command::Show(args) => show::run(ctx, args),
        Command::Sandbox(args) => sandbox::run(ctx, args),
        Command::Add(args) => add::run(ctx, *args),
        Command::AddJson(args) => add_json::run(ctx, args),
        Command::Check(args) => check::run(ctx, args),
        Command::Lock(args) => lock::run(ctx, args),
        Command::Approve(args) => approve::run(ctx, args),
        Command::Pin(args) => pin::run(ctx, args),
        Command::Remove(args) => remove::run(ctx, args),
        Command::Clients(args) => clients::run(ctx, args),
        Command::Import(args) => import::run(ctx, args),
        Command::Export(args) => export::run(ctx, args),
        Command::Enable(args) => enable::run(ctx, args),
        Command::Disable(args) => disable::run(ctx, args),
        Command::Search(args) => search::run(ctx, args),
        Command::Start(args) => start::run(ctx, args),
        Command::Stop(args) => stop::run(ctx, args),
        Command::Restart(args) => restart::run(ctx, args),
        Command::Refresh(args) => refresh::run(ctx, args),
        Command::Status(args) => status::run(ctx, args),
        Command::Tools(args) => tools::run(ctx, args),
        Command::Call(args) => call::run(ctx, args),
        Command::Logs(args) => logs::run(ctx, args),
        Command::Serve(args) => serve::run(ctx, args),
        Command::Grant(args) => grant::run(ctx, args),
        Command::Revoke(args) => revoke::run(ctx, args),
        Command::Login(args) => login::run(ctx, args),
        Command::Logout(args) => logout::run(ctx, args),
        Command::Auth(verb) => auth::run(ctx, verb),
        Command::Supervisor(verb) => supervisor::run(ctx, verb),
        Command::Completions(args) => completions::run(args),
    }
}

/// Die quietly on a closed pipe (`mcpctl list | head`), like other Unix tools.
fn reset_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL has no handler to race with.
    unsafe {
        let _ = nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigDfl,
        );
    }
}
