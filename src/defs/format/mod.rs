//! The on-disk shapes of a definition file and how to read them.
//!
//! Every client's own file shares one model: a flat JSON map of servers,
//! `{"mcpServers": {…}}` JSON (Claude Desktop, Claude Code, Cursor, Windsurf;
//! JSONC comments allowed), `{"servers": {…}}` JSON (VS Code, with `inputs`),
//! `mcpServers:` YAML, and Codex's `[mcp_servers.NAME]` TOML tables. The
//! shape is detected from the content (from the file name for a new or empty
//! file) and remembered so that edits write back in the same shape and
//! vocabulary; a document of no known shape is refused with the list of the
//! shapes there are, never read as servers. Reading is strict:
//! a duplicate key, a wrong type or an unknown transport is an error with the
//! file's path, line and column, never a silent guess.
//!
//! The way through: text in one syntax (`json`, `yaml`, `toml`) becomes the
//! raw serde model (`raw`), whose entries `convert` checks against each
//! other (`oauth` for the OAuth fields) into [`ServerDef`]s; `claude` picks
//! the project of Claude Code's user file, `vscode` fills in
//! `${workspaceFolder}`. The vocabulary (syntax, shape, dialect) is
//! `defs::syntax`'s, below this module, so the editors share it without
//! depending on the reader's insides.

mod claude;
mod convert;
mod json;
mod oauth;
mod raw;
pub(super) mod toml;
mod vscode;
mod yaml;

use std::path::Path;

use super::error::DefsError;
use super::model::ServerDef;
use super::nesting;

/// The vocabulary of a file's form, named here too: a reader of the
/// format's functions needs its types.
pub use super::syntax::{
    Dialect, Format, MAX_FILE_BYTES, SUPPORTED_SHAPES, Shape, Syntax, detect_syntax, jsonc_options,
};
pub use claude::{claude_project, is_claude_user_file, select_project};
pub use oauth::oauth_problem;
pub use vscode::workspace_folder;

/// A parsed definition file: its format and its servers in file order.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The detected format.
    pub format: Format,
    /// The servers, in the order the file lists them.
    pub servers: Vec<ServerDef>,
}

/// Decode a file's bytes, reporting invalid UTF-8 with its position.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, DefsError> {
    String::from_utf8(bytes).map_err(|err| {
        let valid = err.utf8_error().valid_up_to();
        let (line, column) = line_col(&err.as_bytes()[..valid]);
        DefsError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: "the file is not valid UTF-8 text".to_string(),
        }
    })
}

/// The 1-based line and column just after `prefix`, counted in characters.
pub(super) fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&prefix[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// Parse a definition file's text.
pub fn parse(path: &Path, text: &str) -> Result<ParsedFile, DefsError> {
    let text = super::layout::without_bom(text);
    let syntax = detect_syntax(path, text);
    // An empty `config.toml` is a Codex configuration with no servers yet
    // (what removing the last one leaves); an empty JSON or YAML file is
    // not a definitions file of any shape.
    if syntax == Syntax::Toml {
        return toml::parse(path, text);
    }
    if text.trim().is_empty() {
        return Err(DefsError::Invalid {
            path: path.to_path_buf(),
            message: "the file is empty".to_string(),
            hint:
                "write `{\"mcpServers\": {}}` into it, or delete it and let `mcpctl add` create it"
                    .to_string(),
        });
    }
    if let Some(offset) = nesting::too_deep(text, syntax) {
        let (line, column) = line_col(&text.as_bytes()[..offset]);
        return Err(DefsError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "nested deeper than {} levels; a definition file needs only a few",
                nesting::MAX_DEPTH
            ),
        });
    }
    let project = match syntax {
        Syntax::Json if is_claude_user_file(path) => claude::parse_project(path, text)?,
        _ => None,
    };
    let (shape, entries) = match (syntax, project) {
        (_, Some(entries)) => (Shape::ClaudeProject, entries),
        (Syntax::Json, None) => json::parse(path, text)?,
        (Syntax::Yaml, None) => yaml::parse(path, text)?,
        (Syntax::Toml, None) => unreachable!("TOML is read above"),
    };
    let servers = convert::entries_into_defs(path, text, syntax, entries)?;
    Ok(ParsedFile {
        format: Format {
            syntax,
            shape,
            dialect: Dialect::for_path(path),
        },
        servers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::Transport;

    fn parse_str(name: &str, text: &str) -> Result<ParsedFile, DefsError> {
        parse(Path::new(name), text)
    }

    #[test]
    fn reads_the_three_shapes() {
        let flat = parse_str(
            "a.json",
            r#"{"billing": {"transport": "stdio", "command": "npx", "args": ["-y", "x@1.0.0"], "enabled": false}}"#,
        )
        .unwrap();
        assert_eq!(flat.format.shape, Shape::Flat);
        assert!(!flat.servers[0].enabled);

        let mcp = parse_str(
            "a.json",
            r#"{"other": 1, "mcpServers": {"r": {"type": "http", "url": "https://x.test/mcp", "headers": {"A": "b"}}}}"#,
        )
        .unwrap();
        assert_eq!(mcp.format.shape, Shape::McpServers);
        assert_eq!(mcp.servers[0].transport, Transport::StreamableHttp);

        let yaml = parse_str(
            "a.yaml",
            "# top\nmcpServers:\n  browser:\n    transport: stdio\n    command: npx\n    args: [a]\n    disabled: true\n",
        )
        .unwrap();
        assert_eq!(yaml.format.syntax, Syntax::Yaml);
        assert!(!yaml.servers[0].enabled);
    }

    #[test]
    fn a_remote_with_a_command_is_a_local_http_server() {
        let parsed = parse_str(
            "a.json",
            r#"{"mcpServers": {"e": {"type": "http", "url": "http://localhost:3001/mcp", "command": "npx", "args": ["-y", "x@1.0.0", "streamableHttp"], "env": {"PORT": "3001"}}}}"#,
        )
        .unwrap();
        let def = &parsed.servers[0];
        assert_eq!(def.transport, Transport::StreamableHttp);
        let process = def.process().expect("a process to launch");
        assert_eq!(process.command, "npx");
        assert_eq!(process.env["PORT"], "3001");
        assert_eq!(
            def.target(),
            "http://localhost:3001/mcp (launches npx -y x@1.0.0 streamableHttp)"
        );
        let rendered = crate::defs::render::entry_value(def, parsed.format);
        let text = serde_json::json!({"mcpServers": {"e": rendered}}).to_string();
        assert_eq!(parse_str("a.json", &text).unwrap().servers[0], *def);

        let err = parse_str(
            "a.json",
            r#"{"e": {"type": "sse", "url": "http://localhost:1/sse", "args": ["x"]}}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("but no `command` to launch"),
            "{err}"
        );
    }

    #[test]
    fn jsonc_comments_are_accepted() {
        let parsed = parse_str(
            "mcp.json",
            "{\n  // servers\n  \"mcpServers\": {\"a\": {\"command\": \"x\",},},\n}\n",
        )
        .unwrap();
        assert_eq!(parsed.servers.len(), 1);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse_str("a.json", "{\n  \"a\": {\"command\": 5}\n}").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("a.json:2:"), "{text}");
        let err = parse_str("a.json", "{\"a\": {\"command\": \"x\"}, \"a\": {}}").unwrap_err();
        assert!(err.to_string().contains("duplicate key `a`"), "{err}");
        let err = parse_str("a.yaml", "mcpServers:\n  a:\n    command: [1\n").unwrap_err();
        assert!(matches!(err, DefsError::Malformed { .. }), "{err}");
        let err = parse_str("a.json", "[1, 2]").unwrap_err();
        assert!(err.to_string().contains("mcpServers"), "{err}");
    }

    #[test]
    fn semantic_errors_point_at_the_entry() {
        let err = parse_str(
            "a.json",
            "{\n  \"x\": {\"transport\": \"carrier-pigeon\", \"command\": \"a\"}\n}",
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "a.json:2:3: server `x`: unknown transport `carrier-pigeon`; use stdio, streamable-http (or http) or sse"
        );
    }
}
