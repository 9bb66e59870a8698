//! Codex's `config.toml`: servers as `[mcp_servers.NAME]` tables among the
//! rest of Codex's settings, read into the same raw entries as the JSON
//! and YAML shapes and typed by the same code.
//!
//! Editing the file is `edit::toml`'s (through the same `toml_edit`
//! document model, which keeps every comment and key order).

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Number, Value};
use toml_edit::{DocumentMut, Item};

use super::ParsedFile;
use super::convert::entries_into_defs;
use super::raw::RawEntry;
use crate::defs::error::DefsError;
use crate::defs::syntax::{Dialect, Format, Shape, Syntax};

/// The table Codex keeps its servers in.
pub(in crate::defs) const KEY: &str = "mcp_servers";

/// Parse a Codex `config.toml` (any TOML document: one without
/// `mcp_servers` simply has no servers yet).
pub fn parse(path: &Path, text: &str) -> Result<ParsedFile, DefsError> {
    let doc = document(path, text)?;
    let mut entries = Vec::new();
    if let Some(servers) = doc.get(KEY) {
        let servers = servers.as_table_like().ok_or_else(|| DefsError::Invalid {
            path: path.to_path_buf(),
            message: format!("`{KEY}` is not a table"),
            hint: format!("write each server as a `[{KEY}.NAME]` table"),
        })?;
        for (name, item) in servers.iter() {
            let value = item_value(item);
            let raw = RawEntry::deserialize(&value).map_err(|err| {
                let (line, column) =
                    crate::defs::locate::key(text, name, Syntax::Toml).unwrap_or((1, 1));
                DefsError::Malformed {
                    path: path.to_path_buf(),
                    line,
                    column,
                    message: format!("server `{name}`: {err}"),
                }
            })?;
            entries.push((name.to_string(), raw));
        }
    }
    let servers = entries_into_defs(path, text, Syntax::Toml, entries)?;
    Ok(ParsedFile {
        format: Format {
            syntax: Syntax::Toml,
            shape: Shape::McpServersTables,
            dialect: Dialect::Common,
        },
        servers,
    })
}

/// The document model of a TOML text (shared with `edit::toml`), a syntax
/// error reported with its line and column.
pub(in crate::defs) fn document(path: &Path, text: &str) -> Result<DocumentMut, DefsError> {
    text.parse::<DocumentMut>().map_err(|err| {
        let offset = err.span().map_or(0, |span| span.start).min(text.len());
        let prefix = &text[..offset];
        let line = prefix.matches('\n').count() + 1;
        let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        DefsError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: err.message().trim().to_string(),
        }
    })
}

/// A TOML item as a JSON value (dates as their text).
fn item_value(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(value) => value_json(value),
        Item::Table(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_string(), item_value(v)))
                .collect(),
        ),
        Item::ArrayOfTables(tables) => Value::Array(
            tables
                .iter()
                .map(|t| item_value(&Item::Table(t.clone())))
                .collect(),
        ),
    }
}

fn value_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::Number((*i.value()).into()),
        T::Float(f) => Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(items) => Value::Array(items.iter().map(value_json).collect()),
        T::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_string(), value_json(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}

#[cfg(test)]
pub(in crate::defs) mod tests {
    use super::*;

    /// A Codex file with comments, a local and a remote server, and other
    /// settings around them (shared with `edit::toml`'s tests).
    pub(in crate::defs) const CODEX: &str = r#"# Codex settings
model = "o3"

# The docs server.
[mcp_servers.docs]
command = "docs-server"
args = ["--port", "4000"]
env = { "API_KEY" = "value" }

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "X-Figma-Region" = "us-east-1" }

[profiles.fast]
model = "gpt-4o-mini" # cheap
"#;

    #[test]
    fn reads_codex_tables() {
        let parsed = parse(Path::new("config.toml"), CODEX).unwrap();
        assert_eq!(parsed.format.shape, Shape::McpServersTables);
        let names: Vec<&str> = parsed.servers.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["docs", "figma"]);
        let crate::defs::Launch::Remote { headers, .. } = &parsed.servers[1].launch else {
            panic!("figma is remote");
        };
        assert_eq!(headers["Authorization"], "Bearer ${FIGMA_OAUTH_TOKEN}");
        assert_eq!(headers["X-Figma-Region"], "us-east-1");
    }
}
