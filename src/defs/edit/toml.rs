//! Edits of Codex's `config.toml` through `toml_edit`'s document model,
//! which keeps every comment, blank line and key order it is not asked to
//! change, so a file that Codex and mcpctl share survives mcpctl's edits
//! byte for byte outside the entry touched.

use std::path::Path;

use serde_json::Value;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use super::Edit;
use crate::defs::error::DefsError;
use crate::defs::format::toml::{KEY, document};

/// Apply `edits` to a Codex file's text.
pub fn apply(path: &Path, text: &str, edits: &[Edit]) -> Result<String, DefsError> {
    let mut doc = document(path, text)?;
    let not_table = || DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("`{KEY}` is not a table"),
        hint: format!("write each server as a `[{KEY}.NAME]` table"),
    };
    if doc.get(KEY).is_none() {
        let mut servers = Table::new();
        servers.set_implicit(true);
        doc.insert(KEY, Item::Table(servers));
    }
    let servers = doc
        .get_mut(KEY)
        .and_then(Item::as_table_mut)
        .ok_or_else(not_table)?;
    for edit in edits {
        apply_one(servers, edit);
    }
    Ok(doc.to_string())
}

/// Apply one edit to the `mcp_servers` table. A missing entry or argument
/// is left for the edit's verification to catch.
fn apply_one(servers: &mut Table, edit: &Edit) {
    match edit {
        Edit::Add { name, value } => {
            servers.insert(name, Item::Table(table(value)));
        }
        Edit::Replace { name, value } => match servers.get_mut(name) {
            Some(Item::Table(existing)) => replace_keeping_place(existing, value),
            _ => {
                servers.insert(name, Item::Table(table(value)));
            }
        },
        Edit::Remove { name } => {
            servers.remove(name);
        }
        Edit::SetArg { name, index, value } => {
            let arg = servers
                .get_mut(name)
                .and_then(Item::as_table_like_mut)
                .and_then(|entry| entry.get_mut("args"))
                .and_then(Item::as_array_mut)
                .and_then(|args| args.get_mut(*index));
            // A missing argument is caught by the edit's verification.
            if let Some(arg) = arg {
                let decor = arg.decor().clone();
                *arg = toml_edit::Value::from(value.as_str());
                *arg.decor_mut() = decor;
            }
        }
        Edit::SetEnabled { name, enabled } => {
            let Some(entry) = servers.get_mut(name).and_then(Item::as_table_like_mut) else {
                return;
            };
            if *enabled {
                if entry.contains_key("enabled") {
                    entry.insert("enabled", toml_edit::value(true));
                }
            } else {
                entry.insert("enabled", toml_edit::value(false));
            }
        }
        Edit::SetField { name, key, value } => {
            let Some(entry) = servers.get_mut(name).and_then(Item::as_table_like_mut) else {
                return;
            };
            match value.as_ref().and_then(toml_value) {
                Some(converted) => {
                    entry.insert(key, Item::Value(converted));
                }
                None => {
                    entry.remove(key);
                }
            }
        }
    }
}

/// Replace a server's table by `value`'s, keeping the comments above it and
/// its place in the document.
fn replace_keeping_place(existing: &mut Table, value: &Value) {
    let decor = existing.decor().clone();
    let position = existing.position();
    let mut new = table(value);
    *new.decor_mut() = decor;
    if let Some(position) = position {
        new.set_position(position);
    }
    *existing = new;
}

/// The comments in a TOML document (lines that are comments, and comments
/// after a value), so edits can prove none were dropped.
pub fn count_comments(text: &str) -> usize {
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return 0;
    };
    // Every comment lives in some decor; the document's own text with the
    // values' strings emptied is the simplest faithful place to count them.
    let mut count = 0;
    let mut stack: Vec<&Table> = vec![doc.as_table()];
    let mut decor_count = |decor: &toml_edit::Decor| {
        for part in [decor.prefix(), decor.suffix()].into_iter().flatten() {
            if let Some(raw) = part.as_str() {
                count += raw
                    .lines()
                    .filter(|l| l.trim_start().starts_with('#'))
                    .count();
            }
        }
    };
    decor_count(doc.decor());
    if let Some(raw) = doc.trailing().as_str() {
        decor_count(&toml_edit::Decor::new(raw, ""));
    }
    while let Some(table) = stack.pop() {
        decor_count(table.decor());
        for (key, item) in table.iter() {
            if let Some(key) = table.key(key) {
                decor_count(key.leaf_decor());
            }
            match item {
                Item::Table(inner) => stack.push(inner),
                Item::Value(value) => decor_count(value.decor()),
                Item::ArrayOfTables(tables) => stack.extend(tables.iter()),
                Item::None => {}
            }
        }
    }
    count
}

/// A server entry as a `[mcp_servers.NAME]` table: maps such as `env` as
/// inline tables, as Codex's documentation writes them.
fn table(value: &Value) -> Table {
    let mut table = Table::new();
    if let Value::Object(map) = value {
        for (key, item) in map {
            if let Some(converted) = toml_value(item) {
                table.insert(key, Item::Value(converted));
            }
        }
    }
    table
}

fn toml_value(value: &Value) -> Option<toml_edit::Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64()?.into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(items) => {
            let mut array = Array::new();
            for item in items.iter().filter_map(toml_value) {
                array.push(item);
            }
            toml_edit::Value::Array(array)
        }
        Value::Object(map) => {
            let mut inline = InlineTable::new();
            for (key, item) in map {
                if let Some(converted) = toml_value(item) {
                    inline.insert(key, converted);
                }
            }
            toml_edit::Value::InlineTable(inline)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::defs::format::toml::tests::CODEX;

    #[test]
    fn counts_comments() {
        assert_eq!(count_comments(CODEX), 3);
    }

    #[test]
    fn add_then_remove_is_byte_identical() {
        let path = Path::new("config.toml");
        let value = serde_json::json!({"command": "npx", "args": ["-y", "x"], "env": {"A": "b"}});
        let added = apply(
            path,
            CODEX,
            &[Edit::Add {
                name: "new".into(),
                value,
            }],
        )
        .unwrap();
        assert!(
            added.contains("[mcp_servers.new]\ncommand = \"npx\""),
            "{added}"
        );
        assert!(
            added.find("[mcp_servers.new]") < added.find("[profiles.fast]"),
            "{added}"
        );
        let removed = apply(path, &added, &[Edit::Remove { name: "new".into() }]).unwrap();
        assert_eq!(removed, CODEX);
    }
}
