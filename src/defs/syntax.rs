//! The vocabulary of a definition file's form: its syntax, the shape its
//! servers take inside it and the client dialect its path implies.
//!
//! A leaf: it imports nothing of `defs`, so the reader (`format`), the
//! editors (`edit`), the writer of new entries (`render`) and the helpers
//! that find a key or measure nesting (`locate`, `nesting`) all stand on it
//! without standing on each other.

use std::path::Path;

/// JSON (with JSONC comments tolerated) or YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// JSON or JSONC.
    Json,
    /// YAML 1.2.
    Yaml,
    /// TOML (Codex's `config.toml`).
    Toml,
}

/// Where the servers live inside the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// The top-level object maps names to servers.
    Flat,
    /// Servers live under a top-level `mcpServers` key, beside other settings.
    McpServers,
    /// VS Code: servers under a top-level `servers` key, beside `inputs`.
    Servers,
    /// Codex: `[mcp_servers.NAME]` tables in `config.toml`.
    McpServersTables,
    /// Claude Code's `~/.claude.json`: one project's servers, under
    /// `projects.<PATH>.mcpServers` (see
    /// [`crate::defs::format::select_project`]).
    ClaudeProject,
}

impl Shape {
    /// The top-level key the servers live under; `None` for a flat file.
    pub fn key(self) -> Option<&'static str> {
        match self {
            Shape::Flat => None,
            Shape::McpServers => Some("mcpServers"),
            Shape::Servers => Some("servers"),
            Shape::McpServersTables => Some("mcp_servers"),
            Shape::ClaudeProject => None,
        }
    }
}

/// The shapes mcpctl reads, in words, for the refusal of any other.
pub const SUPPORTED_SHAPES: &str = "`{\"mcpServers\": {…}}` JSON or YAML (Claude Desktop, \
Claude Code, Cursor, Windsurf), `{\"servers\": {…}}` JSON (VS Code), `[mcp_servers.NAME]` \
TOML (Codex) or a flat map of server names to definitions";

/// The detected format of a file: syntax plus shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Format {
    /// JSON or YAML.
    pub syntax: Syntax,
    /// Flat or `mcpServers`.
    pub shape: Shape,
    /// The client whose spellings a new entry takes; only the file's path
    /// tells Cursor's and Windsurf's `mcpServers` files from the others.
    #[serde(skip)]
    pub dialect: Dialect,
}

/// Client spellings beyond the shape, known from the file's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// mcpctl's own, Claude's and VS Code's (whose spellings the `servers`
    /// shape already implies).
    #[default]
    Common,
    /// Cursor (`.cursor/mcp.json`): expands only `${env:VAR}`.
    Cursor,
    /// Windsurf (`windsurf/mcp_config.json`): `serverUrl` for a remote
    /// server, and only `${env:VAR}` expanded.
    Windsurf,
}

impl Dialect {
    /// The dialect of the client that reads `path`.
    pub fn for_path(path: &Path) -> Dialect {
        let name = path.file_name().and_then(|n| n.to_str());
        let parent = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str());
        match (name, parent) {
            (Some("mcp.json"), Some(".cursor")) => Dialect::Cursor,
            (Some("mcp_config.json"), Some("windsurf")) => Dialect::Windsurf,
            _ => Dialect::Common,
        }
    }

    /// True when the client expands `${env:VAR}` and not a plain `${VAR}`.
    pub fn wants_env_prefix(self) -> bool {
        matches!(self, Dialect::Cursor | Dialect::Windsurf)
    }
}

impl Format {
    /// The format a new (missing or empty-object) file gets: the shape its
    /// client reads, known from the file name (`.vscode/mcp.json` and VS
    /// Code's user `mcp.json` take `servers`, a `.toml` file Codex's tables),
    /// else `mcpServers`, the shape most MCP clients read, in the syntax its
    /// extension implies.
    pub fn for_new_file(path: &Path) -> Format {
        let syntax = syntax_from_extension(path).unwrap_or(Syntax::Json);
        let shape = match syntax {
            Syntax::Toml => Shape::McpServersTables,
            _ if is_vscode_file(path) => Shape::Servers,
            _ => Shape::McpServers,
        };
        Format {
            syntax,
            shape,
            dialect: Dialect::for_path(path),
        }
    }
}

/// True for VS Code's files: `.vscode/mcp.json` in a workspace and the
/// user `mcp.json` in VS Code's profile (`Code/User/mcp.json`, or any
/// `mcp.json` under a `User` folder).
pub fn is_vscode_file(path: &Path) -> bool {
    if path.file_name().and_then(|n| n.to_str()) != Some("mcp.json") {
        return false;
    }
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    matches!(parent, Some(".vscode") | Some("User"))
}

/// The largest definition file mcpctl reads; anything bigger is a mistake.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

fn syntax_from_extension(path: &Path) -> Option<Syntax> {
    match path.extension()?.to_str()? {
        "yaml" | "yml" => Some(Syntax::Yaml),
        "json" | "jsonc" => Some(Syntax::Json),
        "toml" => Some(Syntax::Toml),
        _ => None,
    }
}

/// Decide the syntax from the extension, else from the first significant byte.
pub fn detect_syntax(path: &Path, text: &str) -> Syntax {
    syntax_from_extension(path).unwrap_or_else(|| match text.trim_start().chars().next() {
        Some('{') | Some('[') => Syntax::Json,
        _ => Syntax::Yaml,
    })
}

/// The JSON dialect mcpctl reads: JSON plus comments and trailing commas
/// (JSONC, what VS Code and Claude Code accept) and nothing looser.
/// jsonc-parser's defaults also take JSON5-isms (missing commas, single
/// quotes, hex numbers, bare keys); every parse of a definition file, the
/// editing ones included, goes through these options instead.
pub fn jsonc_options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}
