//! A [`ServerDef`] as the fields of a new file entry, in the file's vocabulary.
//!
//! `{"mcpServers": …}` JSON files speak the clients' dialect (`type`,
//! `disabled`, stdio implied by `command`); flat and YAML files use
//! `transport` and `enabled`, as operator files do.

use serde_json::{Map, Value, json};

use super::format::{Format, Shape, Syntax};
use super::model::{Launch, RestartPolicy, ServerDef, Transport};

/// The JSON value to store for `def` in a file of `format`.
pub fn entry_value(def: &ServerDef, format: Format) -> Value {
    let clients_dialect = format.shape == Shape::McpServers && format.syntax == Syntax::Json;
    let mut entry = Map::new();
    let transport_key = if clients_dialect { "type" } else { "transport" };
    match (&def.launch, clients_dialect) {
        (Launch::Stdio { .. }, true) => {}
        (
            Launch::Remote {
                transport: Transport::StreamableHttp,
                ..
            },
            true,
        ) => {
            entry.insert(transport_key.into(), json!("http"));
        }
        _ => {
            entry.insert(transport_key.into(), json!(def.transport.as_str()));
        }
    }
    if let Some(process) = def.process() {
        entry.insert("command".into(), json!(process.command));
        entry.insert("args".into(), json!(process.args));
        if !process.env.is_empty() {
            entry.insert("env".into(), json!(process.env));
        }
        if let Some(cwd) = process.cwd {
            entry.insert("cwd".into(), json!(cwd));
        }
    }
    if let Launch::Remote { url, headers, .. } = &def.launch {
        entry.insert("url".into(), json!(url));
        if !headers.is_empty() {
            entry.insert("headers".into(), json!(headers));
        }
    }
    if let Some(label) = &def.label {
        entry.insert("label".into(), json!(label));
    }
    if !def.enabled {
        match format.shape {
            Shape::Flat => entry.insert("enabled".into(), json!(false)),
            Shape::McpServers => entry.insert("disabled".into(), json!(true)),
        };
    }
    if def.autostart {
        entry.insert("autostart".into(), json!(true));
    }
    if let Some(timeout) = def.connect_timeout {
        entry.insert("connect_timeout".into(), json!(timeout.as_secs_f64()));
    }
    if let Some(protocol) = &def.protocol {
        entry.insert("protocol".into(), json!(protocol));
    }
    if def.restart == RestartPolicy::OnFailure {
        entry.insert("restart".into(), json!("on-failure"));
    }
    Value::Object(entry)
}
