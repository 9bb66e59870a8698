//! The entry a save writes: rendered from the definition, or (for
//! `add-json`) the operator's own object, and how `--dry-run` shows it.

use serde_json::{Value, json};

use super::request::Save;
use crate::defs::format::{Format, Shape, Syntax};
use crate::defs::{ServerDef, render};
use crate::output;

/// Fields mcpctl reads from an entry; any other field of the given JSON is
/// carried into the file untouched.
const KNOWN_FIELDS: &[&str] = &[
    "type",
    "transport",
    "command",
    "args",
    "env",
    "cwd",
    "envFile",
    "url",
    "headers",
    "label",
    "enabled",
    "disabled",
    "autostart",
    "connect_timeout",
    "protocol",
    "restart",
];

/// The entry a save writes for `def` into a file of `format`.
pub(super) fn planned(save: &Save, def: &ServerDef, format: Format) -> Value {
    match &save.entry {
        Some(given) => entry_for(given.clone(), def, format),
        None => render::entry_value(def, format),
    }
}

/// The entry to write for `def` into a file of `format`: the operator's
/// object as given in a `mcpServers` JSON file (the clients' own dialect),
/// else mcpctl's rendering with the fields it does not know carried over.
fn entry_for(given: Value, def: &ServerDef, format: Format) -> Value {
    if format.shape == Shape::McpServers && format.syntax == Syntax::Json {
        return given;
    }
    let mut entry = render::entry_value(def, format);
    if let (Some(out), Value::Object(given)) = (entry.as_object_mut(), given) {
        for (key, value) in given {
            if !KNOWN_FIELDS.contains(&key.as_str()) && !out.contains_key(&key) {
                out.insert(key, value);
            }
        }
    }
    entry
}

/// A rendered entry as `--dry-run` may print it: literal `env` and
/// `headers` values redacted and URL userinfo masked, as `list` shows them,
/// unless the operator asked to see secrets.
pub(super) fn shown(mut entry: Value, show_secrets: bool) -> Value {
    if let Some(obj) = entry.as_object_mut() {
        for (key, value) in obj.iter_mut() {
            match (key.as_str(), value) {
                ("env" | "headers", Value::Object(map)) => {
                    for v in map.values_mut() {
                        if let Some(text) = v.as_str() {
                            *v = json!(output::shown_secret(text, show_secrets));
                        }
                    }
                }
                ("url", Value::String(url)) => {
                    *url = output::shown_url(url, show_secrets);
                }
                _ => {}
            }
        }
    }
    entry
}
