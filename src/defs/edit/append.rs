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

use crate::defs::syntax::{Shape, jsonc_options};

/// `text` with the entry `name: value` appended to its servers, or `None`
/// when the file is anything but the plain case (see the module's note).
pub(super) fn json(text: &str, shape: Shape, name: &str, value: &Value) -> Option<String> {
    let options = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    let parsed = jsonc_parser::parse_to_ast(text, &options, &jsonc_options()).ok()?;
    let ast::Value::Object(top) = parsed.value? else {
        return None;
    };
    let servers = servers_object(&top, shape)?;
    if servers
        .properties
        .iter()
        .any(|p| prop_name(&p.name) == name)
    {
        return None;
    }
    let splice = match (servers.properties.first(), servers.properties.last()) {
        (Some(first), Some(last)) => {
            if !text[servers.start()..servers.end()].contains('\n') {
                let between = &text[last.end()..servers.end() - 1];
                return between
                    .trim()
                    .is_empty()
                    .then(|| one_line(text, first, last, name, value));
            }
            after_last(text, servers, first, last)?
        }
        _ => into_empty(text, servers)?,
    };
    Some(splice.write(text, name, value))
}

/// The object the servers live in: the top level of a flat file, else the
/// shape's key; `None` for a Claude project (left to the CST path).
fn servers_object<'t, 'a>(top: &'t ast::Object<'a>, shape: Shape) -> Option<&'t ast::Object<'a>> {
    match shape.key() {
        None if shape == Shape::ClaudeProject => None,
        None => Some(top),
        Some(key) => match &top.get(key)?.value {
            ast::Value::Object(servers) => Some(servers),
            _ => None,
        },
    }
}

/// Where and how a new entry goes into a multi-line object.
struct Splice {
    /// The byte offset the entry is inserted at.
    at: usize,
    /// The entry's indentation.
    indent: String,
    /// Written before the entry (`,\n` after a sibling, `\n` in an empty object).
    prefix: String,
    /// Written after it (the closing brace's line break and indentation).
    suffix: String,
}

/// After the last entry of a multi-line object, in the first entry's
/// indentation; `None` when anything but whitespace follows the last entry.
fn after_last(
    text: &str,
    servers: &ast::Object,
    first: &ast::ObjectProp,
    last: &ast::ObjectProp,
) -> Option<Splice> {
    if !text[last.end()..servers.end() - 1].trim().is_empty() {
        return None;
    }
    let line_start = text[..first.start()].rfind('\n')? + 1;
    let indent = &text[line_start..first.start()];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    Some(Splice {
        at: last.end(),
        indent: indent.to_string(),
        prefix: ",\n".to_string(),
        suffix: String::new(),
    })
}

/// Into an empty object, one indentation unit in from its line's.
fn into_empty(text: &str, servers: &ast::Object) -> Option<Splice> {
    if !text[servers.start() + 1..servers.end() - 1]
        .trim()
        .is_empty()
    {
        return None;
    }
    let line_start = text[..servers.start()].rfind('\n').map_or(0, |i| i + 1);
    let outer: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let unit = if outer.contains('\t') { "\t" } else { "  " };
    Some(Splice {
        at: servers.start() + 1,
        indent: format!("{outer}{unit}"),
        prefix: "\n".to_string(),
        suffix: format!("\n{outer}"),
    })
}

impl Splice {
    /// `text` with the entry written in at this place.
    fn write(&self, text: &str, name: &str, value: &Value) -> String {
        let unit = if self.indent.contains('\t') {
            "\t"
        } else {
            "  "
        };
        let key = serde_json::to_string(name).unwrap_or_default();
        let mut out = String::with_capacity(text.len() + 256);
        out.push_str(&text[..self.at]);
        out.push_str(&self.prefix);
        out.push_str(&self.indent);
        out.push_str(&key);
        out.push_str(": ");
        render(value, &self.indent, unit, &mut out);
        out.push_str(&self.suffix);
        let rest = &text[self.at..];
        if self.suffix.is_empty() {
            out.push_str(rest);
        } else {
            out.push_str(rest.trim_start_matches([' ', '\t', '\n', '\r']));
        }
        out
    }
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
