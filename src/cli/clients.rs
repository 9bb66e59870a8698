//! `mcpctl clients`: the agent hosts' MCP configuration files found for
//! this user and in the current project, with their shape and how many
//! servers each holds. Any of them can be given to `--file`, since mcpctl
//! reads and edits each client's own format in place.

use serde_json::json;

use super::Context;
use crate::defs::clients::{self, ClientFile};
use crate::defs::format::{Format, Shape, Syntax};
use crate::defs::{Catalog, Sources};
use crate::error::{ExitCode, Result};
use crate::output::{self, Table, sanitize};

const EXAMPLES: &str = "\
Looks in the places each client documents: Claude Code (~/.claude.json and
.mcp.json), Claude Desktop, Cursor (~/.cursor/mcp.json and .cursor/mcp.json),
VS Code (the user mcp.json and .vscode/mcp.json), Windsurf, Codex
(~/.codex/config.toml, or $CODEX_HOME) and mcpctl's own file. Project files
are looked for in the current directory. Files that do not exist are not
listed; a file that cannot be read is listed with why.

Examples:
  mcpctl clients
  mcpctl --file .vscode/mcp.json list
  mcpctl clients --json | jq -r '.clients[] | select(.servers > 0) | .path'";

/// Arguments of `mcpctl clients`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {}

/// One found file, read.
struct Found {
    file: ClientFile,
    /// The shape and the number of servers, or why the file cannot be read.
    read: std::result::Result<(Format, usize), String>,
}

/// List the client files that exist here.
pub fn run(ctx: &Context, _args: Args) -> Result<ExitCode> {
    let found: Vec<Found> = clients::known_here()
        .into_iter()
        .filter(|f| f.path.exists())
        .map(|file| {
            let read = Catalog::load(&Sources::resolve(std::slice::from_ref(&file.path)))
                .map_err(|e| e.to_string())
                .and_then(|catalog| {
                    let format = catalog
                        .files
                        .first()
                        .and_then(|f| f.format)
                        .ok_or_else(|| "no servers section".to_string())?;
                    Ok((format, catalog.servers().len() + catalog.refused().len()))
                });
            Found { file, read }
        })
        .collect();
    if ctx.json {
        let clients: Vec<_> = found
            .iter()
            .map(|f| {
                let (shape, servers, error) = match &f.read {
                    Ok((format, n)) => (Some(shape_name(*format)), Some(*n), None),
                    Err(why) => (None, None, Some(why.clone())),
                };
                json!({
                    "client": f.file.client,
                    "scope": f.file.scope,
                    "path": f.file.path,
                    "shape": shape,
                    "servers": servers,
                    "error": error,
                })
            })
            .collect();
        output::print_json(&json!({"schema_version": 1, "clients": clients}))?;
        return Ok(ExitCode::Success);
    }
    if found.is_empty() {
        output::note("no client configuration files found here; `mcpctl add` starts mcpctl's own");
        return Ok(ExitCode::Success);
    }
    let mut table = Table::new(&["CLIENT", "SCOPE", "SERVERS", "SHAPE", "PATH"]);
    for f in &found {
        let (servers, shape) = match &f.read {
            Ok((format, n)) => (n.to_string(), shape_name(*format).to_string()),
            Err(_) => ("-".to_string(), "unreadable".to_string()),
        };
        table.row(vec![
            f.file.client.to_string(),
            f.file.scope.as_str().to_string(),
            servers,
            shape,
            sanitize(&f.file.path.display().to_string()).into_owned(),
        ]);
    }
    table.print()?;
    for f in &found {
        if let Err(why) = &f.read {
            output::warn(
                &why.to_string(),
                Some("fix the file, or leave it to its client"),
            );
        }
    }
    Ok(ExitCode::Success)
}

/// How a shape is named in the table and the JSON document.
fn shape_name(format: Format) -> &'static str {
    match (format.shape, format.syntax) {
        (Shape::Flat, Syntax::Yaml) => "flat YAML",
        (Shape::Flat, _) => "flat JSON",
        (Shape::McpServers, Syntax::Yaml) => "mcpServers YAML",
        (Shape::McpServers, _) => "mcpServers JSON",
        (Shape::Servers, _) => "servers JSON (VS Code)",
        (Shape::McpServersTables, _) => "mcp_servers TOML (Codex)",
        (Shape::ClaudeProject, _) => "projects JSON (Claude Code)",
    }
}
