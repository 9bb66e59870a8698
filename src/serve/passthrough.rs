//! Prompts and resources of granted servers, passed through live (one
//! supervisor [`Op::Forward`] per server and page, nothing cached). A
//! server counts as granted here when at least one of its tools is listed
//! to the agent. Prompts are named `<server><separator><prompt>`, like
//! tools; resources keep their name under the same prefix, and their URI
//! becomes `mcpctl://<server>/<original URI>` (templates alike), which
//! `resources/read` maps back.

use serde_json::{Value, json};

use rmcp::ErrorData;

use super::error::rpc_error;
use super::shared::Shared;
use crate::supervisor::protocol::{Body, ForwardMethod, ForwardRequest, Op};

/// The URI scheme resources are exposed under.
pub const SCHEME: &str = "mcpctl://";

/// How many pages of one server's list are followed.
const MAX_PAGES: usize = 100;

/// The servers whose prompts and resources pass through: those with at
/// least one listed (granted) tool, in catalog order.
fn granted_servers(shared: &Shared) -> Vec<String> {
    shared
        .view()
        .passed_through()
        .into_iter()
        .map(|(server, _)| server.to_string())
        .collect()
}

/// One forwarded request to `server`.
async fn forward(
    shared: &Shared,
    server: &str,
    method: ForwardMethod,
    params: Value,
) -> Result<Value, ErrorData> {
    match shared
        .upstream
        .request(Op::Forward(ForwardRequest {
            name: server.to_string(),
            method,
            params,
            timeout_ms: Some(shared.settings.timeout_ms),
        }))
        .await
        .map_err(rpc_error)?
    {
        Body::Forwarded { result } => Ok(result),
        _ => Err(ErrorData::internal_error(
            "unexpected answer from the supervisor",
            None,
        )),
    }
}

/// Every item of `key` in `server`'s list, following its cursors.
async fn list_all(
    shared: &Shared,
    server: &str,
    method: ForwardMethod,
    key: &str,
) -> Result<Vec<Value>, ErrorData> {
    let mut items = Vec::new();
    let mut params = Value::Null;
    for _ in 0..MAX_PAGES {
        let page = forward(shared, server, method, params).await?;
        if let Some(list) = page.get(key).and_then(Value::as_array) {
            items.extend(list.iter().cloned());
        }
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(cursor) if !cursor.is_empty() => params = json!({ "cursor": cursor }),
            _ => break,
        }
    }
    Ok(items)
}

/// The merged list of `key` items over the granted servers, each renamed
/// by `rename(server, item)`. A server that cannot answer (stopped, no
/// such capability) contributes nothing rather than failing the list.
pub async fn list(
    shared: &Shared,
    method: ForwardMethod,
    key: &str,
    rename: impl Fn(&str, &mut Value),
) -> Value {
    let mut merged = Vec::new();
    for server in granted_servers(shared) {
        let Ok(items) = list_all(shared, &server, method, key).await else {
            continue;
        };
        for mut item in items {
            rename(&server, &mut item);
            merged.push(item);
        }
    }
    json!({ key: merged })
}

/// Prefix the string field `field` of `item` with `prefix`.
pub fn prefix_field(item: &mut Value, field: &str, prefix: &str) {
    if let Some(Value::String(s)) = item.get_mut(field) {
        *s = format!("{prefix}{s}");
    }
}

/// The exposed URI of a server's resource URI.
pub fn exposed_uri(server: &str) -> String {
    format!("{SCHEME}{server}/")
}

/// The granted server and its own name behind an exposed prompt name.
pub fn prompt_target(shared: &Shared, exposed: &str) -> Option<(String, String)> {
    let separator = &shared.settings.separator;
    granted_servers(shared).into_iter().find_map(|server| {
        exposed
            .strip_prefix(&server)
            .and_then(|rest| rest.strip_prefix(separator.as_str()))
            .map(|name| (server.clone(), name.to_string()))
    })
}

/// The granted server and its own URI behind an exposed resource URI.
pub fn resource_target(shared: &Shared, uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (server, original) = rest.split_once('/')?;
    granted_servers(shared)
        .contains(&server.to_string())
        .then(|| (server.to_string(), original.to_string()))
}

/// Send a get or read to `server`.
pub async fn get(
    shared: &Shared,
    server: &str,
    method: ForwardMethod,
    params: Value,
) -> Result<Value, ErrorData> {
    forward(shared, server, method, params).await
}
