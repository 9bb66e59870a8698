//! `mcpctl add-json NAME 'JSON'`: Claude Code's `claude mcp add-json`, so a
//! server entry copied from a README or another client's file is added as
//! typed, after the same validation and connection check as `add`.

use std::path::Path;

use serde_json::Value;

use super::Context;
use super::save::{Save, SaveFlags};
use crate::defs::DefsError;
use crate::defs::format;
use crate::error::{Error, ExitCode, Result, UsageError};

const EXAMPLES: &str = "\
JSON is one server entry as the clients write it: `command`, `args`, `env`,
`cwd` for stdio; `type` (`http`, `sse`), `url`, `headers` for a remote
server; plus any of mcpctl's fields (`label`, `disabled`, `autostart`,
`connect_timeout`, `restart`). Into a `mcpServers` JSON file (such as
.mcp.json) the entry is written as given, unknown fields included; other
files get it in their own vocabulary. ${VAR} references stay as written.

-s/--scope picks the file as `add` does: local (the default: --to, else the
first definition file), user (~/.config/mcpctl/servers.json), project
(.mcp.json in the current directory).

Examples:
  mcpctl add-json time '{\"command\":\"uvx\",\"args\":[\"mcp-server-time==2026.10.19\"]}'
  mcpctl add-json -s project weather '{\"type\":\"stdio\",\"command\":\"node\",\"args\":[\"server.js\"],\"env\":{\"API_KEY\":\"${API_KEY}\"}}'
  mcpctl add-json gateway '{\"type\":\"http\",\"url\":\"http://mcp-gateway:8080/mcp\",\"headers\":{\"Authorization\":\"Bearer ${TOKEN}\"}}'";

/// Arguments of `mcpctl add-json`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server's name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The server's entry, as a JSON object.
    #[arg(value_name = "JSON")]
    pub entry: String,
    /// Where to write, and how strictly.
    #[command(flatten)]
    pub save: SaveFlags,
}

/// Parse the entry, then save it as `add` would.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let mut given = parse_object(&args.entry)?;
    let target = args.save.target(ctx)?;
    let mut def = definition(&args.name, &args.entry)?;
    default_sandbox(&mut def, &mut given);
    def.source = target.clone();
    let (catalog, kept) = ctx.catalog_keeping(&target)?;
    let save = Save {
        entry: Some(given),
        ..args.save.save(target, true)
    };
    super::save::save_definition(ctx, &catalog, kept, def, &save, &[])?;
    Ok(ExitCode::Success)
}

/// A stdio entry given without `sandbox` gets `"network"`, as `add` gives
/// it (files contained, outbound open); a container launcher is left to
/// its runtime, and a remote entry never gets the field.
fn default_sandbox(def: &mut crate::defs::ServerDef, given: &mut Value) {
    use crate::defs::sandbox_kind::{SandboxKind, is_stdio, sandbox_kind};
    if is_stdio(def) && sandbox_kind(def) == Some(SandboxKind::Unset) {
        def.sandbox = Some(crate::sandbox::Sandbox::Network);
        if let Some(entry) = given.as_object_mut() {
            entry.insert("sandbox".into(), Value::from("network"));
        }
    }
}

/// The JSON argument as an object, or an error saying where it breaks.
fn parse_object(raw: &str) -> Result<Value> {
    let value: Value = serde_json::from_str(raw).map_err(|err| {
        UsageError::new(
            format!(
                "the JSON is not valid at line {}, column {}: {err}",
                err.line(),
                err.column()
            ),
            "quote it for the shell: mcpctl add-json NAME '{\"command\":\"npx\",\"args\":[\"-y\",\"pkg@1.2.3\"]}'",
        )
    })?;
    if !value.is_object() {
        return Err(UsageError::new(
            "the JSON must be an object, one server's entry",
            "e.g. '{\"type\":\"http\",\"url\":\"https://mcp.example.com/mcp\"}'",
        )
        .into());
    }
    Ok(value)
}

/// Read the entry with the definition-file reader itself, so `add-json`
/// accepts exactly what a file may hold; positions are the JSON argument's.
fn definition(name: &str, raw: &str) -> Result<crate::defs::ServerDef> {
    let key = serde_json::to_string(name)
        .map_err(std::io::Error::from)
        .map_err(UsageError::from)?;
    let prefix = format!("{{\"mcpServers\":{{{key}:");
    let text = format!("{prefix}{raw}}}}}");
    let parsed = format::parse(Path::new("add-json.json"), &text).map_err(|err| -> Error {
        match err {
            DefsError::Malformed {
                line,
                column,
                message,
                ..
            } => {
                let column = if line == 1 {
                    column.saturating_sub(prefix.chars().count()).max(1)
                } else {
                    column
                };
                UsageError::new(
                    format!("the JSON for `{name}` at line {line}, column {column}: {message}"),
                    "fix that field; see `mcpctl add-json --help` for the fields",
                )
                .into()
            }
            DefsError::Invalid { message, hint, .. } => {
                UsageError::new(format!("the JSON for `{name}`: {message}"), hint).into()
            }
            other => other.into(),
        }
    })?;
    parsed.servers.into_iter().next().ok_or_else(|| {
        UsageError::new(
            format!("the JSON for `{name}` holds no server"),
            "give one server's entry, e.g. '{\"command\":\"node\",\"args\":[\"server.js\"]}'",
        )
        .into()
    })
}
