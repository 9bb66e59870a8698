//! Edits through jsonc-parser's concrete syntax tree.

use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::Value;

use super::{Edit, enabled_keys};
use crate::defs::error::DefsError;
use crate::defs::format;
use crate::defs::syntax::{Shape, jsonc_options};
use std::path::Path;

/// Apply `edits` to a JSON(C) file's text through the CST, creating the
/// servers' object (or Claude Code's project entry) when missing.
pub(super) fn apply(
    path: &Path,
    text: &str,
    shape: Shape,
    edits: &[Edit],
) -> Result<String, DefsError> {
    let source = if text.trim().is_empty() { "{}\n" } else { text };
    let root = CstRootNode::parse(source, &jsonc_options()).map_err(|err| DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("cannot edit: {err}"),
        hint: "fix the file by hand first; mcpctl left it untouched".to_string(),
    })?;
    let top = root.object_value_or_set();
    let servers = match shape.key() {
        None if shape == Shape::ClaudeProject => claude_project(path, source, &top)?,
        None => top,
        Some(key) => {
            // `"mcpServers": null` reads as no servers; make it an object.
            if let Some(prop) = top.get(key)
                && prop
                    .value()
                    .is_some_and(|value| value.as_null_keyword().is_some())
            {
                prop.set_value(CstInputValue::Object(Vec::new()));
            }
            top.object_value_or_create(key)
                .ok_or_else(|| DefsError::Invalid {
                    path: path.to_path_buf(),
                    message: format!("`{key}` is not an object"),
                    hint: format!("make `{key}` an object of servers"),
                })?
        }
    };
    for edit in edits {
        apply_one(&servers, shape, edit);
    }
    Ok(root.to_string())
}

/// `projects.<PATH>.mcpServers` of `~/.claude.json`, created as needed.
fn claude_project(path: &Path, text: &str, top: &CstObject) -> Result<CstObject, DefsError> {
    let not_object = |what: &str| DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!("{what} is not an object"),
        hint: format!("make {what} an object"),
    };
    let projects = top
        .object_value_or_create("projects")
        .ok_or_else(|| not_object("`projects`"))?;
    let value: serde_json::Value =
        jsonc_parser::parse_to_serde_value(text, &jsonc_options()).unwrap_or_default();
    let empty = serde_json::Map::new();
    let known = value
        .get("projects")
        .and_then(|p| p.as_object())
        .unwrap_or(&empty);
    let name = format::claude_project(known).ok_or_else(|| DefsError::Invalid {
        path: path.to_path_buf(),
        message: "no project selected".to_string(),
        hint: "pass --project PATH".to_string(),
    })?;
    let project = projects
        .object_value_or_create(&name)
        .ok_or_else(|| not_object(&format!("project `{name}`")))?;
    project
        .object_value_or_create("mcpServers")
        .ok_or_else(|| not_object(&format!("`mcpServers` of project `{name}`")))
}

fn apply_one(servers: &CstObject, shape: Shape, edit: &Edit) {
    match edit {
        Edit::Add { name, value } => {
            servers.ensure_multiline();
            servers.append(name, input(value));
        }
        Edit::Replace { name, value } => match servers.get(name) {
            Some(prop) => prop.set_value(input(value)),
            None => {
                servers.append(name, input(value));
            }
        },
        Edit::Remove { name } => {
            if let Some(prop) = servers.get(name) {
                remove_leading_comments(&CstNode::from(prop.clone()));
                prop.remove();
            }
        }
        Edit::SetArg { name, index, value } => {
            let element = servers
                .get(name)
                .and_then(|prop| prop.object_value())
                .and_then(|entry| entry.get("args"))
                .and_then(|args| args.array_value())
                .and_then(|args| args.elements().into_iter().nth(*index))
                .and_then(|element| element.as_string_lit());
            // A missing element is caught by `verify`.
            if let (Some(element), Ok(raw)) = (element, serde_json::to_string(value)) {
                element.set_raw_value(raw);
            }
        }
        Edit::SetEnabled { name, enabled } => {
            let Some(entry) = servers.get(name).and_then(|prop| prop.object_value()) else {
                return;
            };
            let has = |key| entry.get(key).is_some();
            for (key, value) in enabled_keys(has("enabled"), has("disabled"), shape, *enabled) {
                match entry.get(key) {
                    Some(prop) => prop.set_value(CstInputValue::Bool(value)),
                    None => {
                        entry.append(key, CstInputValue::Bool(value));
                    }
                }
            }
        }
        Edit::SetField { name, key, value } => {
            let Some(entry) = servers.get(name).and_then(|prop| prop.object_value()) else {
                return;
            };
            match (entry.get(key), value) {
                (Some(prop), Some(value)) => prop.set_value(input(value)),
                (None, Some(value)) => {
                    entry.append(key, input(value));
                }
                (Some(prop), None) => prop.remove(),
                (None, None) => {}
            }
        }
    }
}

/// Remove the comment lines that sit directly above a property (with no
/// blank line between), since they describe the entry being removed. A
/// comment that ends the previous entry's line belongs to that entry and
/// stays. Each comment goes with the line break *before* it, so the
/// break after it still separates the neighbours once the entry goes.
fn remove_leading_comments(node: &CstNode) {
    let mut doomed = Vec::new();
    let mut newlines = 0;
    let mut sibling = node.previous_sibling();
    while let Some(current) = sibling {
        if current.is_newline() {
            newlines += 1;
            if newlines > 1 {
                break;
            }
        } else if current.is_comment() {
            if !starts_line(&current) {
                break;
            }
            newlines = 0;
            doomed.push(current.clone());
        } else if !current.is_whitespace() {
            break;
        }
        sibling = current.previous_sibling();
    }
    for comment in doomed {
        while let Some(prev) = comment.previous_sibling().filter(CstNode::is_whitespace) {
            prev.remove();
        }
        if let Some(prev) = comment.previous_sibling().filter(CstNode::is_newline) {
            prev.remove();
        }
        comment.remove();
    }
}

/// True when only whitespace stands between `node` and the line break
/// before it.
fn starts_line(node: &CstNode) -> bool {
    node.previous_siblings()
        .find(|sibling| !sibling.is_whitespace())
        .is_some_and(|sibling| sibling.is_newline())
}

/// Convert a serde value into the CST's input type, keeping key order.
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}
