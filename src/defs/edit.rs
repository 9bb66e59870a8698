//! Lossless edits of a definition file's text.
//!
//! Files are read into the typed model with serde, but written by editing a
//! syntax tree that keeps every byte mcpctl does not touch: comments, key
//! order, indentation and unknown fields. JSON goes through `jsonc-parser`'s
//! CST, YAML through `yaml-edit`. After every edit the result is parsed again
//! and compared with what was intended ([`verify`]); a mismatch, or a comment
//! that went missing, stops the write instead of losing data.

use std::path::Path;

use serde_json::Value;

use super::error::DefsError;
use super::format::{self, ParsedFile, Shape, Syntax};
use super::layout::{self, Layout};
use super::model::ServerDef;

/// One change to one entry.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Append a new entry (the name must not exist yet).
    Add {
        /// The entry's name.
        name: String,
        /// The entry's fields, in the file's vocabulary.
        value: Value,
    },
    /// Replace an existing entry's fields wholesale (`add --force`).
    Replace {
        /// The entry's name.
        name: String,
        /// The new fields.
        value: Value,
    },
    /// Delete an entry and the comment lines directly above it.
    Remove {
        /// The entry's name.
        name: String,
    },
    /// Replace one string of an entry's `args`, in place (`mcpctl pin`):
    /// the array keeps its layout and comments.
    SetArg {
        /// The entry's name.
        name: String,
        /// The index in `args`.
        index: usize,
        /// The new argument.
        value: String,
    },
    /// Flip the enabled state, using the key the entry or file already uses.
    SetEnabled {
        /// The entry's name.
        name: String,
        /// The state to set.
        enabled: bool,
    },
    /// Set one field of an existing entry (`None` removes it), leaving the
    /// entry's other fields and their order as they are; `grant` and
    /// `revoke` write `tools` and `profiles` this way.
    SetField {
        /// The entry's name.
        name: String,
        /// The field.
        key: &'static str,
        /// Its new value, or `None` to remove it.
        value: Option<Value>,
    },
}

impl Edit {
    /// The entry this edit touches.
    pub fn name(&self) -> &str {
        match self {
            Edit::Add { name, .. }
            | Edit::Replace { name, .. }
            | Edit::Remove { name }
            | Edit::SetArg { name, .. }
            | Edit::SetEnabled { name, .. }
            | Edit::SetField { name, .. } => name,
        }
    }
}

/// Apply `edits` to `text` (a file of `format`) and return the new text.
///
/// The edit works on the text without its BOM and with `\n` line endings;
/// the result gets the file's [`Layout`] back and ends with a newline. It
/// has been re-parsed and checked: untouched entries are identical, and no
/// comment was lost unless `allow_comment_loss`.
pub fn apply(
    path: &Path,
    text: &str,
    before: &ParsedFile,
    edits: &[Edit],
    allow_comment_loss: bool,
) -> Result<String, DefsError> {
    let format = before.format;
    let (layout, body) = Layout::of(text);
    let appended = match (format.syntax, edits) {
        (Syntax::Json, [Edit::Add { name, value }]) => {
            append::json(&body, format.shape, name, value)
        }
        _ => None,
    };
    let (edited, may_drop_comments) = match appended {
        Some(edited) => (edited, false),
        None => match format.syntax {
            Syntax::Json => (json::apply(path, &body, format.shape, edits)?, true),
            Syntax::Yaml => (yaml::apply(path, &body, format.shape, edits)?, true),
            Syntax::Toml => (super::toml::apply(path, &body, edits)?, true),
        },
    };
    let new_text = layout.restore(&edited);
    let check_comments = may_drop_comments && !allow_comment_loss;
    verify(path, before, text, &new_text, edits, check_comments)?;
    Ok(new_text)
}

/// The keys to write so an entry reads as `enabled`, in its own vocabulary:
/// whichever of `enabled`/`disabled` it already has (both, if both), else
/// the file shape's usual key, and nothing at all to enable an entry that
/// has neither (it is enabled already).
fn enabled_keys(
    has_enabled: bool,
    has_disabled: bool,
    shape: Shape,
    enabled: bool,
) -> Vec<(&'static str, bool)> {
    let mut keys = Vec::new();
    if has_enabled {
        keys.push(("enabled", enabled));
    }
    if has_disabled {
        keys.push(("disabled", !enabled));
    }
    if keys.is_empty() && !enabled {
        keys.push(match shape {
            Shape::Flat | Shape::McpServersTables => ("enabled", false),
            Shape::McpServers | Shape::Servers | Shape::ClaudeProject => ("disabled", true),
        });
    }
    keys
}

/// Re-parse the edited text and prove the edit did only what it meant to.
fn verify(
    path: &Path,
    before: &ParsedFile,
    old_text: &str,
    new_text: &str,
    edits: &[Edit],
    check_comments: bool,
) -> Result<(), DefsError> {
    let format = before.format;
    let broken = |message: String| DefsError::Invalid {
        path: path.to_path_buf(),
        message: format!(
            "internal error: the edited file would be wrong ({message}); nothing was written"
        ),
        hint: "please report this with the file; edit the file by hand meanwhile".to_string(),
    };
    let after = format::parse(path, new_text).map_err(|err| broken(err.to_string()))?;
    let touched: Vec<&str> = edits.iter().map(Edit::name).collect();
    let untouched = |servers: &[ServerDef]| -> Vec<ServerDef> {
        servers
            .iter()
            .filter(|def| !touched.contains(&def.name.as_str()))
            .cloned()
            .collect()
    };
    if untouched(&before.servers) != untouched(&after.servers) {
        return Err(broken(
            "an entry the edit did not touch changed".to_string(),
        ));
    }
    for edit in edits {
        let found = after.servers.iter().find(|def| def.name == edit.name());
        let ok = match edit {
            Edit::Remove { .. } => found.is_none(),
            Edit::SetEnabled { enabled, .. } => found.is_some_and(|def| def.enabled == *enabled),
            Edit::SetArg { index, value, .. } => found
                .and_then(ServerDef::process)
                .is_some_and(|p| p.args.get(*index) == Some(value)),
            Edit::Add { .. } | Edit::Replace { .. } | Edit::SetField { .. } => found.is_some(),
        };
        if !ok {
            return Err(broken(format!(
                "entry `{}` was not edited as asked",
                edit.name()
            )));
        }
    }
    if check_comments {
        let expected_loss = edits
            .iter()
            .filter(|edit| matches!(edit, Edit::Remove { .. } | Edit::Replace { .. }))
            .count();
        let lost = count_comments(old_text, format.syntax)
            .saturating_sub(count_comments(new_text, format.syntax));
        if lost > 0 && expected_loss == 0 {
            return Err(DefsError::WouldLoseComments {
                path: path.to_path_buf(),
                lost,
            });
        }
    }
    Ok(())
}

/// Count the comments in a document, so edits can prove none were dropped.
fn count_comments(text: &str, syntax: Syntax) -> usize {
    let text = layout::without_bom(text);
    match syntax {
        Syntax::Json => {
            let options = jsonc_parser::CollectOptions {
                comments: jsonc_parser::CommentCollectionStrategy::AsTokens,
                tokens: false,
            };
            jsonc_parser::parse_to_ast(text, &options, &format::jsonc_options())
                .ok()
                .and_then(|result| result.comments)
                .map_or(0, |comments| comments.values().map(|list| list.len()).sum())
        }
        Syntax::Yaml => yaml_edit::YamlFile::parse(text).tree().comments().count(),
        Syntax::Toml => super::toml::count_comments(text),
    }
}

mod append {
    //! The common case, one new entry in a JSON file, done by splicing text
    //! at the position the AST gives: an order of magnitude faster than a
    //! full CST round trip on large files, and it cannot touch other bytes.
    //! An object on one line gets the entry on that line. Anything unusual
    //! (trailing commas, a comment after the last entry) returns `None` and
    //! takes the CST path instead.

    use jsonc_parser::ast::{self, ObjectPropName};
    use jsonc_parser::common::Ranged;
    use jsonc_parser::{CollectOptions, CommentCollectionStrategy};
    use serde_json::Value;

    use crate::defs::format::{self, Shape};

    pub(super) fn json(text: &str, shape: Shape, name: &str, value: &Value) -> Option<String> {
        let options = CollectOptions {
            comments: CommentCollectionStrategy::Off,
            tokens: false,
        };
        let parsed = jsonc_parser::parse_to_ast(text, &options, &format::jsonc_options()).ok()?;
        let ast::Value::Object(top) = parsed.value? else {
            return None;
        };
        let servers = match shape.key() {
            None if shape == Shape::ClaudeProject => return None,
            None => &top,
            Some(key) => match &top.get(key)?.value {
                ast::Value::Object(servers) => servers,
                _ => return None,
            },
        };
        if servers
            .properties
            .iter()
            .any(|p| prop_name(&p.name) == name)
        {
            return None;
        }
        let close = servers.end() - 1;
        let (insert_at, indent, prefix, suffix) = match servers.properties.last() {
            Some(last) => {
                let between = &text[last.end()..close];
                if !between.trim().is_empty() {
                    return None;
                }
                let first = &servers.properties[0];
                if !text[servers.start()..servers.end()].contains('\n') {
                    return Some(one_line(text, first, last, name, value));
                }
                let line_start = text[..first.start()].rfind('\n')? + 1;
                let indent = &text[line_start..first.start()];
                if !indent.chars().all(|c| c == ' ' || c == '\t') {
                    return None;
                }
                (
                    last.end(),
                    indent.to_string(),
                    ",\n".to_string(),
                    String::new(),
                )
            }
            None => {
                if !text[servers.start() + 1..close].trim().is_empty() {
                    return None;
                }
                let line_start = text[..servers.start()].rfind('\n').map_or(0, |i| i + 1);
                let outer: String = text[line_start..]
                    .chars()
                    .take_while(|c| *c == ' ' || *c == '\t')
                    .collect();
                let unit = if outer.contains('\t') { "\t" } else { "  " };
                let indent = format!("{outer}{unit}");
                (
                    servers.start() + 1,
                    indent,
                    "\n".to_string(),
                    format!("\n{outer}"),
                )
            }
        };
        let unit = if indent.contains('\t') { "\t" } else { "  " };
        let key = serde_json::to_string(name).ok()?;
        let mut out = String::with_capacity(text.len() + 256);
        out.push_str(&text[..insert_at]);
        out.push_str(&prefix);
        out.push_str(&indent);
        out.push_str(&key);
        out.push_str(": ");
        render(value, &indent, unit, &mut out);
        out.push_str(&suffix);
        let rest = &text[insert_at..];
        if suffix.is_empty() {
            out.push_str(rest);
        } else {
            out.push_str(rest.trim_start_matches([' ', '\t', '\n', '\r']));
        }
        Some(out)
    }

    /// Append to an object written on one line (a minified file, say) on
    /// that line, in its spacing: `, "k": v` or `,"k":v`. Laying the object
    /// out on many lines first (the CST's `ensure_multiline`) takes time
    /// quadratic in its entries: minutes for a 5 MB one-line file.
    fn one_line(
        text: &str,
        first: &ast::ObjectProp,
        last: &ast::ObjectProp,
        name: &str,
        value: &Value,
    ) -> String {
        let after_colon = text[first.name.end()..first.value.start()]
            .split_once(':')
            .map_or("", |(_, rest)| rest);
        let spaced = after_colon.starts_with([' ', '\t']);
        let (comma, colon) = if spaced { (", ", ": ") } else { (",", ":") };
        let mut out = String::with_capacity(text.len() + 256);
        out.push_str(&text[..last.end()]);
        out.push_str(comma);
        inline(&Value::String(name.to_string()), comma, colon, &mut out);
        out.push_str(colon);
        inline(value, comma, colon, &mut out);
        out.push_str(&text[last.end()..]);
        out
    }

    /// A value on one line with the given separators.
    fn inline(value: &Value, comma: &str, colon: &str, out: &mut String) {
        match value {
            Value::Object(map) => {
                out.push('{');
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push_str(comma);
                    }
                    out.push_str(&serde_json::to_string(key).unwrap_or_default());
                    out.push_str(colon);
                    inline(item, comma, colon, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(comma);
                    }
                    inline(item, comma, colon, out);
                }
                out.push(']');
            }
            other => out.push_str(&serde_json::to_string(other).unwrap_or_default()),
        }
    }

    fn prop_name(name: &ObjectPropName) -> String {
        match name {
            ObjectPropName::String(lit) => lit.value.to_string(),
            ObjectPropName::Word(word) => word.value.to_string(),
        }
    }

    /// Objects one key per line, arrays of scalars on one line, as the CST
    /// writer lays out new values.
    fn render(value: &Value, indent: &str, unit: &str, out: &mut String) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                out.push_str("{\n");
                let inner = format!("{indent}{unit}");
                for (i, (key, item)) in map.iter().enumerate() {
                    out.push_str(&inner);
                    out.push_str(&serde_json::to_string(key).unwrap_or_default());
                    out.push_str(": ");
                    render(item, &inner, unit, out);
                    if i + 1 < map.len() {
                        out.push(',');
                    }
                    out.push('\n');
                }
                out.push_str(indent);
                out.push('}');
            }
            other => out.push_str(&serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

mod json {
    //! Edits through jsonc-parser's concrete syntax tree.

    use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstRootNode};
    use serde_json::Value;

    use super::{Edit, enabled_keys};
    use crate::defs::error::DefsError;
    use crate::defs::format::{self, Shape};
    use std::path::Path;

    pub(super) fn apply(
        path: &Path,
        text: &str,
        shape: Shape,
        edits: &[Edit],
    ) -> Result<String, DefsError> {
        let source = if text.trim().is_empty() { "{}\n" } else { text };
        let root = CstRootNode::parse(source, &format::jsonc_options()).map_err(|err| {
            DefsError::Invalid {
                path: path.to_path_buf(),
                message: format!("cannot edit: {err}"),
                hint: "fix the file by hand first; mcpctl left it untouched".to_string(),
            }
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
            jsonc_parser::parse_to_serde_value(text, &format::jsonc_options()).unwrap_or_default();
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
}

mod yaml {
    //! Edits through yaml-edit's lossless tree.

    use std::path::Path;
    use std::str::FromStr;

    use serde_json::Value;
    use yaml_edit::{Document, Mapping, YamlFile};

    use super::{Edit, enabled_keys};
    use crate::defs::error::DefsError;
    use crate::defs::format::Shape;

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
                .map(|entry| leading_comment_lines(text, entry.start_position(text).line)),
            _ => None,
        };
        apply_one(&servers, shape, edit)?;
        let edited = file.to_string();
        Ok(match comment_lines {
            Some(range) => strip_lines(&edited, text, range),
            None => edited,
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Diagnostic;

    #[test]
    fn an_edit_that_drops_a_comment_is_refused() {
        let path = Path::new("c.yaml");
        let old = "# keep me\nmcpServers:\n  a:\n    command: sh\n";
        let new = "mcpServers:\n  a:\n    command: sh\n    disabled: true\n";
        let before = format::parse(path, old).unwrap();
        let edits = [Edit::SetEnabled {
            name: "a".into(),
            enabled: false,
        }];
        let err = verify(path, &before, old, new, &edits, true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.yaml: editing this file would lose 1 comment line(s)"
        );
        assert_eq!(
            err.hint().unwrap(),
            "edit the file by hand, or pass --force to write it without those comments"
        );
        assert!(verify(path, &before, old, new, &edits, false).is_ok());
    }

    #[test]
    fn an_edit_that_changes_another_entry_is_refused() {
        let path = Path::new("c.json");
        let old = r#"{"mcpServers": {"a": {"command": "sh"}, "b": {"command": "sh"}}}"#;
        let new = r#"{"mcpServers": {"a": {"command": "sh", "disabled": true}, "b": {"command": "cat"}}}"#;
        let before = format::parse(path, old).unwrap();
        let edits = [Edit::SetEnabled {
            name: "a".into(),
            enabled: false,
        }];
        let err = verify(path, &before, old, new, &edits, true).unwrap_err();
        assert!(
            err.to_string()
                .contains("an entry the edit did not touch changed"),
            "{err}"
        );
    }
}
