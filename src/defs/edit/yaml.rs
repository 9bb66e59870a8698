//! Edits through yaml-edit's lossless tree.

use std::path::Path;
use std::str::FromStr;

use serde_json::Value;
use yaml_edit::{Document, Mapping, YamlFile};

use super::{Edit, enabled_keys};
use crate::defs::error::DefsError;
use crate::defs::syntax::Shape;

/// Apply `edits` to a YAML file's text, one edit per fresh parse.
pub(super) fn apply(
    path: &Path,
    text: &str,
    shape: Shape,
    edits: &[Edit],
) -> Result<String, DefsError> {
    let cannot = |message: String| DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("cannot edit: {message}"),
        hint: "fix the file by hand first; mcpctl left it untouched".to_string(),
    };
    let mut current = if text.trim().is_empty() {
        "mcpServers: {}\n".to_string()
    } else {
        text.to_string()
    };
    for edit in edits {
        current = apply_to_text(&current, shape, edit).map_err(cannot)?;
    }
    Ok(current)
}

/// Apply one edit to a freshly parsed tree, so that line numbers taken
/// from the tree match the text being edited.
fn apply_to_text(text: &str, shape: Shape, edit: &Edit) -> Result<String, String> {
    let file = YamlFile::from_str(text).map_err(|err| err.to_string())?;
    let doc = file.document().ok_or("no YAML document")?;
    let top = doc.as_mapping().ok_or("the top level is not a mapping")?;
    let servers = match shape.key() {
        None if shape == Shape::ClaudeProject => {
            return Err("a Claude project is only read from JSON".to_string());
        }
        None => top,
        Some(key) => match top.get_mapping(key) {
            Some(servers) => servers,
            // `mcpServers:` with a null value (nothing, `~`, `null`) read
            // as no servers: an added entry becomes its whole mapping.
            None => {
                return match edit {
                    Edit::Add { name, value } | Edit::Replace { name, value } => {
                        let entry = serde_json::json!({ name.as_str(): value });
                        top.set(key, block_mapping(&entry)?);
                        Ok(file.to_string())
                    }
                    _ => Err(format!("`{key}` is not a mapping")),
                };
            }
        },
    };
    let comment_lines = match edit {
        Edit::Remove { name } => servers
            .find_entry_by_key(name.as_str())
            .map(|entry| entry.start_position(text))
            .filter(|at| starts_its_line(text, at))
            .map(|at| leading_comment_lines(text, at.line)),
        _ => None,
    };
    apply_one(&servers, shape, edit)?;
    let edited = file.to_string();
    Ok(match comment_lines {
        Some(range) => strip_lines(&edited, text, range),
        None => edited,
    })
}

/// True when the entry at `at` is the first thing on its line, as a block
/// mapping's key is: only then is the comment block above it its own. An
/// entry of a flow mapping (`mcpServers: {a: …}`) shares its line, and the
/// comment above belongs to what starts that line.
fn starts_its_line(text: &str, at: &yaml_edit::LineColumn) -> bool {
    text.lines()
        .nth(at.line.saturating_sub(1))
        .is_some_and(|line| {
            line.chars()
                .take(at.column.saturating_sub(1))
                .all(char::is_whitespace)
        })
}

/// The 0-based line range of the comment block directly above the line
/// `key_line` (1-based), with no blank line in between.
fn leading_comment_lines(text: &str, key_line: usize) -> std::ops::Range<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let end = key_line.saturating_sub(1).min(lines.len());
    let mut start = end;
    while start > 0 && lines[start - 1].trim_start().starts_with('#') {
        start -= 1;
    }
    start..end
}

/// Remove `range` from `edited` when those lines are exactly the ones the
/// original had there (the edit only changed text below them).
fn strip_lines(edited: &str, original: &str, range: std::ops::Range<usize>) -> String {
    let before: Vec<&str> = original.lines().collect();
    let after: Vec<&str> = edited.split_inclusive('\n').collect();
    let matches = range.end <= after.len()
        && range
            .clone()
            .all(|i| after[i].trim_end_matches(['\n', '\r']) == before[i]);
    if !matches || range.is_empty() {
        return edited.to_string();
    }
    after
        .iter()
        .enumerate()
        .filter(|(i, _)| !range.contains(i))
        .map(|(_, line)| *line)
        .collect()
}

fn apply_one(servers: &Mapping, shape: Shape, edit: &Edit) -> Result<(), String> {
    match edit {
        Edit::Add { name, value } | Edit::Replace { name, value } => {
            servers.set(name.as_str(), block_mapping(value)?);
        }
        Edit::Remove { name } => {
            servers.remove(name.as_str());
        }
        Edit::SetArg { name, index, value } => {
            let args = servers
                .get_mapping(name.as_str())
                .and_then(|entry| entry.get_sequence("args"))
                .ok_or_else(|| format!("entry `{name}` has no `args` sequence"))?;
            if !args.set(*index, value.as_str()) {
                return Err(format!("entry `{name}` has no argument {index}"));
            }
        }
        Edit::SetEnabled { name, enabled } => {
            let entry = servers
                .get_mapping(name.as_str())
                .ok_or_else(|| format!("entry `{name}` is not a mapping"))?;
            let keys = enabled_keys(
                entry.contains_key("enabled"),
                entry.contains_key("disabled"),
                shape,
                *enabled,
            );
            for (key, value) in keys {
                entry.set(key, value);
            }
        }
        Edit::SetField { name, key, value } => {
            let entry = servers
                .get_mapping(name.as_str())
                .ok_or_else(|| format!("entry `{name}` is not a mapping"))?;
            match value {
                Some(value) => {
                    entry.set(*key, block_mapping(value)?);
                }
                None => {
                    entry.remove(*key);
                }
            }
        }
    }
    Ok(())
}

/// Render a JSON value as a block-style YAML mapping node.
fn block_mapping(value: &Value) -> Result<Mapping, String> {
    let rendered = yaml_serde::to_string(value).map_err(|err| err.to_string())?;
    let doc = Document::from_str(&rendered).map_err(|err| err.to_string())?;
    doc.as_mapping()
        .ok_or_else(|| "an entry must be a mapping".to_string())
}
