//! What the lifecycle verbs (`start`, `stop`, `restart`, `refresh`) share:
//! `NAME…` or `--all`, one request to the supervisor, a table or `--json`,
//! and an exit code from the first failure.

use serde_json::json;

use super::Context;
use crate::defs::vars::LaunchEnv;
use crate::error::{ExitCode, Result, UsageError};
use crate::output::{self, Table};
use crate::supervisor::SupervisorError;
use crate::supervisor::client::Client;
use crate::supervisor::exit_code_for;
use crate::supervisor::protocol::{
    Body, ErrorCode, ItemResult, Op, ServerStatus, Target, WireError,
};

/// The arguments every lifecycle verb takes: names or `--all`, one of the
/// two (a group, so the usage line says `<NAME>...|--all`).
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub struct Names {
    /// The servers.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,
    /// Every server (enabled ones for `start`, running ones otherwise).
    #[arg(long)]
    pub all: bool,
}

impl Names {
    /// The wire form.
    pub fn target(&self) -> Target {
        Target {
            names: self.names.clone(),
            all: self.all,
            allow_insecure_file: false,
            env: None,
        }
    }
}

/// Connect (spawning the supervisor if allowed).
pub fn connect(ctx: &Context) -> Result<Client> {
    Ok(Client::connect(&ctx.sources, ctx.spawn)?)
}

/// Connect for a read-only verb (`status`, `tools`, `logs`): never spawns
/// a supervisor; `None` when none is running.
pub fn connect_existing(ctx: &Context) -> Result<Option<Client>> {
    match Client::connect(&ctx.sources, false) {
        Ok(client) => Ok(Some(client)),
        Err(SupervisorError::NotRunning { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Said on stderr by a read-only verb that found no supervisor.
pub fn note_not_running() {
    output::note(
        "note: the supervisor is not running, so every server is stopped; `mcpctl start NAME` starts one",
    );
}

/// The error a verb that needs a running server gives when no supervisor
/// runs: not found for an unknown name, else the supervisor's own
/// "stopped, not ready" answer (exit 4).
pub fn stopped_without_supervisor(ctx: &Context, name: &str) -> crate::error::Error {
    let known = ctx
        .catalog()
        .and_then(|c| c.get(name).map(|_| ()).map_err(Into::into));
    if let Err(e) = known {
        return e;
    }
    SupervisorError::Remote(
        WireError::new(
            ErrorCode::Conflict,
            format!("`{name}` is stopped, not ready (the supervisor is not running)"),
        )
        .hint(format!("run `mcpctl start {name}`")),
    )
    .into()
}

/// Send `start` or `restart` with the values of the `${VAR}`s the named
/// definitions reference, taken from this CLI's environment, so a launch
/// sees what `check` would see.
/// With `--all`, an entry whose name was refused is reported, and makes the
/// exit code 2 if nothing else failed.
pub fn run_launch(ctx: &Context, names: &Names, make: impl Fn(Target) -> Op) -> Result<ExitCode> {
    let mut refused = 0;
    let env = match ctx.catalog() {
        Ok(catalog) => {
            if names.all {
                refused = ctx.report_refused(&catalog);
            }
            LaunchEnv::capture(
                catalog
                    .servers()
                    .iter()
                    .filter(|d| names.all || names.names.contains(&d.name)),
            )
        }
        // The supervisor reads the file too and reports why it cannot.
        Err(_) => LaunchEnv::default(),
    };
    let mut target = names.target();
    target.allow_insecure_file = ctx.allow_insecure_file;
    target.env = Some(env);
    match send(ctx, make(target))? {
        ExitCode::Success if refused > 0 => Ok(ExitCode::Usage),
        code => Ok(code),
    }
}

/// Format seconds as `1h02m`, `3m04s` or `12s`.
pub fn uptime(secs: Option<u64>) -> String {
    match secs {
        None => "-".into(),
        Some(s) if s >= 3600 => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
        Some(s) if s >= 60 => format!("{}m{:02}s", s / 60, s % 60),
        Some(s) => format!("{s}s"),
    }
}

/// The status table shared by `status` and the lifecycle verbs.
pub fn status_table(servers: &[&ServerStatus]) -> Table {
    let mut table = Table::new(&[
        "NAME",
        "STATE",
        "PID",
        "UPTIME",
        "TOOLS",
        "RESTARTS",
        "SANDBOX",
        "LAST ERROR",
    ]);
    for s in servers {
        let tools = match (s.tools, s.catalog_stale) {
            (Some(n), true) => format!("{n} (stale)"),
            (Some(n), false) => n.to_string(),
            (None, _) => "-".into(),
        };
        let err = s
            .last_error
            .as_ref()
            .map(|e| e.message.lines().next().unwrap_or("").to_string())
            .unwrap_or_else(|| "-".into());
        table.row(vec![
            s.name.clone(),
            s.state.clone(),
            s.pid.map_or("-".into(), |p| p.to_string()),
            uptime(s.uptime_secs),
            tools,
            s.restarts.to_string(),
            sandbox_word(s).to_string(),
            err,
        ]);
    }
    table
}

/// A status's sandbox kind, `-` for a remote server (or an older
/// supervisor's answer).
pub fn sandbox_word(s: &ServerStatus) -> &'static str {
    s.sandbox.map_or("-", |kind| kind.as_str())
}

/// Send a lifecycle op built from `names` and report it.
pub fn run(ctx: &Context, names: &Names, make: impl Fn(Target) -> Op) -> Result<ExitCode> {
    let mut target = names.target();
    target.allow_insecure_file = ctx.allow_insecure_file;
    send(ctx, make(target))
}

fn send(ctx: &Context, op: Op) -> Result<ExitCode> {
    let mut client = connect(ctx)?;
    let body = client.request(op)?;
    let Body::Batch { results } = body else {
        return Err(UsageError::new(
            "the supervisor sent an unexpected answer",
            "restart the supervisor",
        )
        .into());
    };
    report(ctx, &results)
}

/// Print batch results; the exit code is that of the first failure.
pub fn report(ctx: &Context, results: &[ItemResult]) -> Result<ExitCode> {
    let code = results
        .iter()
        .find_map(|r| r.error.as_ref().map(|e| exit_code_for(e.code)))
        .unwrap_or(ExitCode::Success);
    if ctx.json {
        output::print_json(&json!({ "results": results }))?;
    } else {
        let ok: Vec<&ServerStatus> = results.iter().filter_map(|r| r.status.as_ref()).collect();
        if !ok.is_empty() {
            status_table(&ok).print()?;
        }
    }
    for r in results {
        if let Some(e) = &r.error {
            output::error(&named(&r.name, &e.message), e.hint.as_deref());
        }
    }
    Ok(code)
}

/// `message` about server `name`, starting with the name once: many
/// errors (a failed connection's, `` `x` is busy``) name it already.
fn named(name: &str, message: &str) -> String {
    if message.starts_with(&format!("{name}: ")) || message.contains(&format!("`{name}`")) {
        message.to_string()
    } else {
        format!("{name}: {message}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_name_is_never_doubled() {
        assert_eq!(super::named("broken", "broken: exited"), "broken: exited");
        assert_eq!(super::named("x", "`x` is busy"), "`x` is busy");
        assert_eq!(super::named("x", "timed out"), "x: timed out");
        assert_eq!(super::named("x", "xy: other"), "x: xy: other");
    }
}
