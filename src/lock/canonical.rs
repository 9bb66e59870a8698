//! What a catalog entry claims, reduced to one canonical JSON text and its
//! hash, so that any change to what a tool, prompt or resource template
//! tells a model shows up as a different hash.
//!
//! Canonical means: object keys sorted by their UTF-8 bytes at every depth,
//! no whitespace, strings and numbers as `serde_json` writes them. Only the
//! fields that describe behaviour are kept (for a tool: title, description,
//! `inputSchema`, `outputSchema`, annotations); the name is the entry's key.
//!
//! Hashes are over the redacted text. A catalog reaches this module already
//! redacted with its entry's secrets, where the connection lists it
//! ([`crate::mcp::Connection::list_tools`] and `mcp::listing`), for `lock`
//! and for the supervisor alike: both sides of a comparison hold the same
//! text, the lockfile (a file made to be committed) never holds a value,
//! and a new value behind the same `${VAR}` (a rotated key) shows as the
//! same `${VAR}`, so it does not make the lock drift.

use rmcp::model::{Prompt, ResourceTemplate, Tool};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The fields of a tool that the lock pins.
pub const TOOL_FIELDS: &[&str] = &[
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];
/// The fields of a prompt that the lock pins.
pub const PROMPT_FIELDS: &[&str] = &["title", "description", "arguments"];
/// The fields of a resource template that the lock pins.
pub const TEMPLATE_FIELDS: &[&str] = &[
    "uriTemplate",
    "title",
    "description",
    "mimeType",
    "annotations",
];

/// One catalog entry as the lock records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    /// `sha256:<64 hex digits>` of `definition`.
    pub hash: String,
    /// The canonical JSON of the pinned fields.
    pub definition: String,
}

impl Pinned {
    /// Pin the given fields of `entry` (an object; anything else pins as `{}`).
    pub fn of(entry: &Value, fields: &[&str]) -> Pinned {
        let mut kept: Vec<(&str, &Value)> = match entry {
            Value::Object(map) => fields
                .iter()
                .filter_map(|f| map.get(*f).filter(|v| !v.is_null()).map(|v| (*f, v)))
                .collect(),
            _ => Vec::new(),
        };
        kept.sort_unstable_by_key(|(field, _)| *field);
        let mut out = Vec::with_capacity(512);
        out.push(b'{');
        for (i, (field, value)) in kept.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_string(field, &mut out);
            out.push(b':');
            write_canonical(value, &mut out);
        }
        out.push(b'}');
        let definition = String::from_utf8(out).unwrap_or_default();
        Pinned {
            hash: sha256(&definition),
            definition,
        }
    }
}

/// Pin a tool.
pub fn tool(tool: &Tool) -> Pinned {
    Pinned::of(
        &serde_json::to_value(tool).unwrap_or(Value::Null),
        TOOL_FIELDS,
    )
}

/// Pin a prompt.
pub fn prompt(prompt: &Prompt) -> Pinned {
    Pinned::of(
        &serde_json::to_value(prompt).unwrap_or(Value::Null),
        PROMPT_FIELDS,
    )
}

/// Pin a resource template.
pub fn template(template: &ResourceTemplate) -> Pinned {
    Pinned::of(
        &serde_json::to_value(template).unwrap_or(Value::Null),
        TEMPLATE_FIELDS,
    )
}

/// `sha256:` and the lowercase hex digest of `text`.
pub fn sha256(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The canonical JSON text of `value`: sorted keys, no whitespace.
pub fn canonical(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(value, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

fn write_string(text: &str, out: &mut Vec<u8>) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by_key(|(key, _)| key.as_str());
            out.push(b'{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                write_canonical(item, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_change_the_hash_and_content_does() {
        let a = Pinned::of(
            &json!({"description":"d","inputSchema":{"type":"object","properties":{"b":{},"a":{}}}}),
            TOOL_FIELDS,
        );
        let b = Pinned::of(
            &json!({"inputSchema":{"properties":{"a":{},"b":{}},"type":"object"},"description":"d"}),
            TOOL_FIELDS,
        );
        assert_eq!(a, b);
        assert_eq!(
            a.definition,
            r#"{"description":"d","inputSchema":{"properties":{"a":{},"b":{}},"type":"object"}}"#
        );
        let c = Pinned::of(&json!({"description":"d2","inputSchema":{}}), TOOL_FIELDS);
        assert_ne!(a.hash, c.hash);
    }

    #[test]
    fn fields_outside_the_pin_are_ignored() {
        let a = Pinned::of(
            &json!({"name":"x","description":"d","_meta":{"k":1}}),
            TOOL_FIELDS,
        );
        let b = Pinned::of(&json!({"name":"y","description":"d"}), TOOL_FIELDS);
        assert_eq!(a, b);
    }

    #[test]
    fn sha256_matches_a_known_vector() {
        assert_eq!(
            sha256("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
