//! Prompts and resources, passed on live: one request to the running
//! server per [`crate::supervisor::protocol::Op::Forward`], with the call
//! timeout, never cached and never retried, its answer redacted as a
//! call's is. A server that does not offer prompts (or resources) lists
//! none and finds none.

use std::time::Duration;

use rmcp::model::{GetPromptRequestParams, PaginatedRequestParams, ReadResourceRequestParams};
use rmcp::{Peer, RoleClient};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::Owner;
use super::call::{CALL_TIMEOUT, redacted};
use super::state::{State, failed};
use crate::lock::canonical::{PROMPT_FIELDS, Pinned, TEMPLATE_FIELDS};
use crate::supervisor::protocol::{Body, ErrorCode, ForwardMethod, ForwardRequest, WireError};

/// How many pages of prompts a `prompts/get` check follows.
const MAX_PAGES: usize = 100;

impl Owner {
    /// Send one prompts or resources request to the running server; what it
    /// answers is redacted with the definition's secrets.
    pub async fn forward(&self, req: ForwardRequest) -> Result<Body, WireError> {
        let live = {
            let st = self.lock();
            match (&st.live, st.state) {
                (Some(live), State::Ready | State::Refreshing) => live.clone(),
                _ => return Err(self.not_ready(st.state)),
            }
        };
        let method = req.method;
        if let Some(answer) = self.not_offered(&live.peer, method) {
            return answer;
        }
        let timeout = req.timeout_ms.map_or(CALL_TIMEOUT, Duration::from_millis);
        if method == ForwardMethod::PromptsGet
            && let Some(name) = req.params.get("name").and_then(Value::as_str)
        {
            self.refuse_held_prompt(name)?;
            self.refuse_unlisted_prompt(&live, name, timeout).await?;
        }
        match tokio::time::timeout(timeout, send(&live.peer, method, req.params)).await {
            // Redacted as a call's result and error are: a prompt or
            // resource quoting a `${VAR}` value reaches no agent.
            Ok(Ok(mut result)) => {
                live.redactor.apply_json(&mut result);
                self.keep_locked(method, &mut result);
                Ok(forwarded(result))
            }
            Ok(Err(failure)) => Err(redacted(
                self.forward_failed(method, failure),
                &live.redactor,
            )),
            Err(_) => Err(WireError::new(
                ErrorCode::Timeout,
                format!(
                    "no answer to {} from `{}` within {} s; it was not retried",
                    method.as_str(),
                    self.name,
                    timeout.as_secs_f64()
                ),
            )
            .hint("check the server's logs")),
        }
    }

    /// Drop from a prompts or resource-templates list every entry the lock
    /// does not pin as it is listed now (new or changed; everything when the
    /// server is not in the lock), compared as `lock` pins it. Without a
    /// lockfile the list is left whole.
    fn keep_locked(&self, method: ForwardMethod, result: &mut Value) {
        let (key, kind, fields) = match method {
            ForwardMethod::PromptsList => ("prompts", "prompt", PROMPT_FIELDS),
            ForwardMethod::ResourceTemplatesList => {
                ("resourceTemplates", "resource_template", TEMPLATE_FIELDS)
            }
            _ => return,
        };
        let verdict = self.lock_verdict();
        let (Some(verdict), Some(Value::Array(items))) = (verdict, result.get_mut(key)) else {
            return;
        };
        let name = |item: &Value| item.get("name").and_then(Value::as_str).map(str::to_string);
        let mut seen = std::collections::HashSet::new();
        let twice: std::collections::HashSet<String> = items
            .iter()
            .filter_map(name)
            .filter(|n| !seen.insert(n.clone()))
            .collect();
        items.retain(|item| {
            let name = name(item).unwrap_or_default();
            !twice.contains(&name) && verdict.admits(kind, &name, &Pinned::of(item, fields))
        });
    }

    /// With a lockfile, refuse a `prompts/get` of a prompt the server does
    /// not list now exactly once and as locked: a prompt changed since the
    /// last start or refresh (no `list_changed` sent) is held too.
    async fn refuse_unlisted_prompt(
        &self,
        live: &super::Live,
        name: &str,
        timeout: Duration,
    ) -> Result<(), WireError> {
        if self.lock_verdict().is_none() {
            return Ok(());
        }
        let mut prompts = Vec::new();
        let mut params = Value::Null;
        for _ in 0..MAX_PAGES {
            let sent = send(&live.peer, ForwardMethod::PromptsList, params);
            let Ok(Ok(page)) = tokio::time::timeout(timeout, sent).await else {
                break;
            };
            if let Some(Value::Array(items)) = page.get("prompts") {
                prompts.extend(items.iter().cloned());
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(cursor) if !cursor.is_empty() => params = json!({ "cursor": cursor }),
                _ => break,
            }
        }
        let mut listed = json!({ "prompts": prompts });
        live.redactor.apply_json(&mut listed);
        self.keep_locked(ForwardMethod::PromptsList, &mut listed);
        let named = |p: &&Value| p.get("name").and_then(Value::as_str) == Some(name);
        match listed["prompts"].as_array().map(|a| a.iter().filter(named).count()) {
            Some(1) => Ok(()),
            _ => Err(WireError::new(
                ErrorCode::Conflict,
                format!(
                    "`{}`'s prompt `{}` is not listed now as {} pins it (new, changed or listed twice); it is held back until approved",
                    self.name,
                    crate::output::sanitize(name),
                    self.lock_verdict().map_or_else(String::new, |v| v.lockfile.display().to_string())
                ),
            )
            .hint(format!(
                "review with `mcpctl approve {} --dry-run`, then `mcpctl approve {}`",
                self.name, self.name
            ))),
        }
    }

    /// The lockfile verdict now (`None`: no lockfile).
    fn lock_verdict(&self) -> Option<std::sync::Arc<crate::lock::guard::Verdict>> {
        let mut st = self.lock();
        self.verdict(&mut st)
    }

    /// The answer for a server that does not offer the method's family
    /// (an empty list, or not found); `None` when it does, or may.
    fn not_offered(
        &self,
        peer: &Peer<RoleClient>,
        method: ForwardMethod,
    ) -> Option<Result<Body, WireError>> {
        let offered = peer.peer_info().map(|info| match method {
            ForwardMethod::PromptsList | ForwardMethod::PromptsGet => {
                info.capabilities.prompts.is_some()
            }
            _ => info.capabilities.resources.is_some(),
        });
        if offered != Some(false) {
            return None;
        }
        Some(match method {
            ForwardMethod::PromptsList => Ok(forwarded(json!({"prompts": []}))),
            ForwardMethod::ResourcesList => Ok(forwarded(json!({"resources": []}))),
            ForwardMethod::ResourceTemplatesList => Ok(forwarded(json!({"resourceTemplates": []}))),
            _ => Err(WireError::new(
                ErrorCode::NotFound,
                format!("`{}` offers no {}", self.name, family(method)),
            )),
        })
    }

    /// A forwarded request that failed, as the caller's error.
    fn forward_failed(&self, method: ForwardMethod, failure: Failure) -> WireError {
        match failure {
            Failure::Params(e) => WireError::new(
                ErrorCode::Invalid,
                format!("bad {} params: {e}", method.as_str()),
            ),
            Failure::Service(rmcp::ServiceError::McpError(data)) => failed(format!(
                "`{}` answered {} with error {}: {}",
                self.name,
                method.as_str(),
                data.code.0,
                data.message
            )),
            Failure::Service(e) => failed(format!(
                "{} to `{}` failed: {e}; it was not retried",
                method.as_str(),
                self.name
            )),
        }
    }
}

/// Send `method` with `params` to the server; its result as JSON.
async fn send(
    peer: &Peer<RoleClient>,
    method: ForwardMethod,
    params: Value,
) -> Result<Value, Failure> {
    match method {
        ForwardMethod::PromptsList => {
            let p: Option<PaginatedRequestParams> = parse(params)?;
            to_value(peer.list_prompts(p).await)
        }
        ForwardMethod::PromptsGet => {
            let p: GetPromptRequestParams = parse(params)?;
            to_value(peer.get_prompt(p).await)
        }
        ForwardMethod::ResourcesList => {
            let p: Option<PaginatedRequestParams> = parse(params)?;
            to_value(peer.list_resources(p).await)
        }
        ForwardMethod::ResourceTemplatesList => {
            let p: Option<PaginatedRequestParams> = parse(params)?;
            to_value(peer.list_resource_templates(p).await)
        }
        ForwardMethod::ResourcesRead => {
            let p: ReadResourceRequestParams = parse(params)?;
            to_value(peer.read_resource(p).await)
        }
    }
}

/// Why a forwarded request got no result.
enum Failure {
    Params(serde_json::Error),
    Service(rmcp::ServiceError),
}

fn parse<T: DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(Failure::Params)
}

fn to_value<T: serde::Serialize>(result: Result<T, rmcp::ServiceError>) -> Result<Value, Failure> {
    result
        .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
        .map_err(Failure::Service)
}

fn forwarded(result: Value) -> Body {
    Body::Forwarded { result }
}

fn family(method: ForwardMethod) -> &'static str {
    match method {
        ForwardMethod::PromptsList | ForwardMethod::PromptsGet => "prompts",
        _ => "resources",
    }
}
