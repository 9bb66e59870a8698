//! A [`ServerDef`] as the fields of a new file entry, in the file's vocabulary.
//!
//! `{"mcpServers": …}` JSON files speak the clients' dialect (`type`,
//! `disabled`, stdio implied by `command`); flat and YAML files use
//! `transport` and `enabled`, as operator files do.

use serde_json::{Map, Value, json};

use super::model::{Grant, Launch, RestartPolicy, ServerDef, Transport};
use super::syntax::{Dialect, Format, Shape, Syntax};

/// The JSON value to store for `def` in a file of `format`.
pub fn entry_value(def: &ServerDef, format: Format) -> Value {
    if format.shape == Shape::McpServersTables {
        return codex_entry(def);
    }
    let mut entry = mcp_entry(def, format);
    if format.shape == Shape::Servers || format.dialect.wants_env_prefix() {
        in_env_dialect(&mut entry);
    }
    entry
}

/// VS Code, Cursor and Windsurf expand only `${env:VAR}`: every launch
/// value is written so.
fn in_env_dialect(entry: &mut Value) {
    if let Value::Object(map) = entry {
        for key in [
            "command",
            "args",
            "env",
            "cwd",
            "url",
            "serverUrl",
            "headers",
            "client_secret",
            "client_key",
        ] {
            if let Some(value) = map.get_mut(key) {
                strings_in_env_dialect(value);
            }
        }
    }
}

/// Every string in `value` with its plain `${VAR}`s written `${env:VAR}`
/// (see [`super::vars::in_env_dialect`]).
pub fn strings_in_env_dialect(value: &mut Value) {
    match value {
        Value::String(s) => *s = super::vars::in_env_dialect(s),
        Value::Array(items) => items.iter_mut().for_each(strings_in_env_dialect),
        Value::Object(map) => map.values_mut().for_each(strings_in_env_dialect),
        _ => {}
    }
}

/// An entry in the JSON or YAML shapes.
fn mcp_entry(def: &ServerDef, format: Format) -> Value {
    let clients_dialect = format.syntax == Syntax::Json
        && matches!(
            format.shape,
            Shape::McpServers | Shape::Servers | Shape::ClaudeProject
        );
    let mut entry = Map::new();
    let transport_key = if clients_dialect { "type" } else { "transport" };
    match (&def.launch, clients_dialect) {
        // VS Code wants `type` on every entry; the others imply stdio.
        (Launch::Stdio { .. }, true) if format.shape == Shape::Servers => {
            entry.insert(transport_key.into(), json!("stdio"));
        }
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
    insert_process(&mut entry, def);
    if let Launch::Remote { url, headers, .. } = &def.launch {
        let url_key = if format.dialect == Dialect::Windsurf {
            "serverUrl"
        } else {
            "url"
        };
        entry.insert(url_key.into(), json!(url));
        if !headers.is_empty() {
            entry.insert("headers".into(), json!(headers));
        }
    }
    if let Some(env_file) = &def.env_file {
        entry.insert("envFile".into(), json!(env_file));
    }
    if let Some(label) = &def.label {
        entry.insert("label".into(), json!(label));
    }
    if !def.enabled {
        match format.shape {
            Shape::Flat | Shape::McpServersTables => entry.insert("enabled".into(), json!(false)),
            Shape::McpServers | Shape::Servers | Shape::ClaudeProject => {
                entry.insert("disabled".into(), json!(true))
            }
        };
    }
    extras(def, &mut entry);
    Value::Object(entry)
}

/// The fields of mcpctl's own that no client has a spelling for.
fn extras(def: &ServerDef, entry: &mut Map<String, Value>) {
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
    if let Some(sandbox) = &def.sandbox {
        entry.insert("sandbox".into(), sandbox.to_value());
    }
    if let Some(auth) = &def.auth {
        entry.insert("auth".into(), json!("oauth"));
        if auth.grant != Grant::AuthorizationCode {
            entry.insert("grant".into(), json!(auth.grant.as_str()));
        }
        let optional = [
            ("client_id", auth.client_id.as_deref()),
            ("client_secret", auth.client_secret.as_deref()),
            (
                "token_endpoint_auth",
                auth.token_endpoint_auth.map(|m| m.as_str()),
            ),
            ("client_key", auth.client_key.as_deref()),
            ("scope", auth.scope.as_deref()),
            ("client_metadata_url", auth.client_metadata_url.as_deref()),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                entry.insert(key.into(), json!(value));
            }
        }
    }
}

/// A Codex `[mcp_servers.NAME]` table: `command`/`args`/`env`/`cwd`, or
/// `url` with `bearer_token_env_var` for an `Authorization: Bearer ${VAR}`
/// header, `env_http_headers` for headers that are one `${VAR}`, and
/// `http_headers` for the rest. Codex speaks only Streamable HTTP, so an
/// SSE server keeps mcpctl's `transport = "sse"`.
fn codex_entry(def: &ServerDef) -> Value {
    let mut entry = Map::new();
    if def.transport == Transport::Sse {
        entry.insert("transport".into(), json!("sse"));
    }
    insert_process(&mut entry, def);
    if let Launch::Remote { url, headers, .. } = &def.launch {
        entry.insert("url".into(), json!(url));
        let mut literal = Map::new();
        let mut from_env = Map::new();
        for (key, value) in headers {
            let bearer = value.strip_prefix("Bearer ").and_then(single_reference);
            match (bearer, single_reference(value)) {
                (Some(var), _)
                    if key.eq_ignore_ascii_case("authorization")
                        && !entry.contains_key("bearer_token_env_var") =>
                {
                    entry.insert("bearer_token_env_var".into(), json!(var));
                }
                (_, Some(var)) => {
                    from_env.insert(key.clone(), json!(var));
                }
                _ => {
                    literal.insert(key.clone(), json!(value));
                }
            }
        }
        if !literal.is_empty() {
            entry.insert("http_headers".into(), Value::Object(literal));
        }
        if !from_env.is_empty() {
            entry.insert("env_http_headers".into(), Value::Object(from_env));
        }
    }
    if !def.enabled {
        entry.insert("enabled".into(), json!(false));
    }
    extras(def, &mut entry);
    Value::Object(entry)
}

/// `VAR` when `value` is exactly `${VAR}` (no default, nothing around it).
fn single_reference(value: &str) -> Option<&str> {
    let name = value.strip_prefix("${")?.strip_suffix('}')?;
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some(name)
}

/// `command`, `args`, `env` and `cwd`, when `def` launches a process: the
/// same keys in every file's vocabulary.
fn insert_process(entry: &mut Map<String, Value>, def: &ServerDef) {
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
}
