//! mcpctl's side of the MCP handshake: who it says it is, what it offers,
//! and the server requests it answers: `roots/list`, and, on a connection
//! that makes calls (a [`Router`]), `elicitation/create` and sampling,
//! routed to the call they belong to (see [`super::talk`]; progress and
//! log messages are routed in read order by [`super::in_order`]). Sampling
//! is refused unless the caller has a model (an agent host behind
//! `serve`): mcpctl has none.
//!
//! Every connection offers the same capabilities ([`offered_capabilities`]):
//! a server may list tools only to clients that offer elicitation, roots or
//! sampling (server-everything does), so `check`, `lock`, `call --direct`
//! and the supervisor must ask alike, or what is locked is not what runs.
//! A connection that cannot answer (no router: `check`, `lock`) declines
//! an elicitation.

// Roots are deprecated by SEP-2577 but still part of the spec versions
// mcpctl negotiates, and DESIGN §5 asks stdio servers to get one.
#![allow(deprecated)]

use rmcp::ClientHandler;

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    CustomRequest, CustomResult, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, FormElicitationCapability, Implementation, ListRootsResult,
    ProtocolVersion, RootsCapabilities, SamplingCapability, UrlElicitationCapability,
};
use rmcp::service::{RequestContext, RoleClient};

use super::talk::Router;

/// The protocol version mcpctl offers in `initialize`.
///
/// rmcp's default would offer the stateless `2026-07-28`, which servers of
/// the handshake era reject or mishandle; stateless servers are reached via
/// `server/discover` instead (see [`STATELESS_VERSION`]).
pub const OFFERED_VERSION: &str = "2025-11-25";

/// The versions the `initialize` handshake may negotiate (the spec's list).
pub const SUPPORTED_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The stateless protocol, which has no `initialize` and uses `server/discover`.
pub const STATELESS_VERSION: &str = "2026-07-28";

/// The client capabilities every connection mcpctl makes offers: the one
/// place that decides them, so every view of a server's catalog is the
/// same. Elicitation (form and URL), roots, and sampling (refused, as
/// mcpctl has no model, until an agent host behind `serve` answers it).
pub fn offered_capabilities() -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::default();
    // listChanged: a call whose caller offers its own roots (an agent
    // behind `serve`) first tells the server they changed (mcp::given_roots).
    let mut roots = RootsCapabilities::default();
    roots.list_changed = Some(true);
    capabilities.roots = Some(roots);
    capabilities.elicitation = Some(
        ElicitationCapability::new()
            .with_form(FormElicitationCapability::new())
            .with_url(UrlElicitationCapability::new()),
    );
    capabilities.sampling = Some(SamplingCapability::default());
    capabilities
}

/// The names of [`offered_capabilities`] as the lockfile records them
/// (`elicitation.form`, `elicitation.url`, `roots`, `sampling`), read from
/// the capabilities object itself so the record cannot disagree with it.
pub fn offered_capability_names() -> Vec<String> {
    let value = serde_json::to_value(offered_capabilities()).unwrap_or_default();
    let mut names = Vec::new();
    for (key, inner) in value.as_object().into_iter().flatten() {
        match inner
            .as_object()
            .filter(|o| key == "elicitation" && !o.is_empty())
        {
            Some(modes) => names.extend(modes.keys().map(|m| format!("{key}.{m}"))),
            None => names.push(key.clone()),
        }
    }
    names.sort();
    names
}

/// The rmcp client handler: identity, capabilities, and the routing of
/// what a server asks back.
#[derive(Clone)]
pub struct McpClient {
    info: ClientConfig,
    tools_changed: Option<ToolsChanged>,
    router: Option<Router>,
}

/// Called when the server sends `notifications/tools/list_changed`, so the
/// supervisor can refresh its catalog.
pub type ToolsChanged = std::sync::Arc<dyn Fn() + Send + Sync>;

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("info", &self.info)
            .finish()
    }
}

impl McpClient {
    /// A client offering `version` and [`offered_capabilities`].
    pub fn new(version: &str) -> Self {
        let info = ClientConfig::new(
            offered_capabilities(),
            Implementation::new("mcpctl", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(parse_version(version));
        McpClient {
            info,
            tools_changed: None,
            router: None,
        }
    }

    /// Route elicitation to the calls made on this connection; without a
    /// router (`check`, discovery) an elicitation is declined.
    pub fn with_router(mut self, router: Option<Router>) -> Self {
        self.router = router;
        self
    }

    /// Call `hook` on every `notifications/tools/list_changed`.
    pub fn with_tools_changed(mut self, hook: Option<ToolsChanged>) -> Self {
        self.tools_changed = hook;
        self
    }

    /// Where this connection's calls are routed, if it makes calls.
    pub fn router(&self) -> Option<Router> {
        self.router.clone()
    }

    /// The parameters sent in `initialize` (and as `_meta` when stateless).
    pub fn config(&self) -> &ClientConfig {
        &self.info
    }
}

/// A [`ProtocolVersion`] from its string, known or not.
pub fn parse_version(version: &str) -> ProtocolVersion {
    serde_json::from_value(serde_json::Value::String(version.to_string())).unwrap_or_default()
}

impl ClientHandler for McpClient {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, rmcp::ErrorData> {
        // The calling agent's roots (behind `serve`), else none: mcpctl has
        // no workspace of its own, and a server told of a directory it was
        // not started with (a filesystem server replaces its allowed
        // directories with the roots) would be widened behind the
        // operator's back. An empty list leaves the server as configured.
        let Some(router) = &self.router else {
            return Ok(ListRootsResult::new(Vec::new()));
        };
        let roots = router.roots().unwrap_or_default();
        router.gave_roots(&roots);
        Ok(ListRootsResult::new(roots))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        // No call is made on this connection (`check`, `lock`): nobody
        // to ask, so the answer is no.
        let Some(router) = &self.router else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let params = serde_json::to_value(&request)
            .map_err(|e| rmcp::ErrorData::internal_error(e.to_string(), None))?;
        let answer = router
            .elicit(params)
            .await
            .map_err(|why| rmcp::ErrorData::invalid_params(why, None))?;
        serde_json::from_value(answer)
            .map_err(|e| rmcp::ErrorData::internal_error(format!("mcpctl's answer: {e}"), None))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, rmcp::ErrorData> {
        let Some(router) = &self.router else {
            return Err(rmcp::ErrorData::invalid_request(
                super::talk::NO_MODEL,
                None,
            ));
        };
        let params = serde_json::to_value(&params)
            .map_err(|e| rmcp::ErrorData::internal_error(e.to_string(), None))?;
        let answer = router
            .sample(params)
            .await
            .map_err(|why| rmcp::ErrorData::invalid_request(why, None))?;
        serde_json::from_value(answer).map_err(|e| {
            rmcp::ErrorData::internal_error(format!("the caller's completion: {e}"), None)
        })
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, rmcp::ErrorData> {
        // An `elicitation/create` lands here only when its params did not
        // parse: a malformed question ends the call it came with.
        if request.method == "elicitation/create" {
            let why = "the server sent a malformed elicitation/create request (its params are not a valid form or URL elicitation)";
            if let Some(router) = &self.router {
                router.refuse(why);
            }
            return Err(rmcp::ErrorData::invalid_params(why, None));
        }
        Err(rmcp::ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("mcpctl does not answer `{}`", request.method),
            None,
        ))
    }

    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        if let Some(hook) = &self.tools_changed {
            hook();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_connection_offers_the_same_capabilities() {
        let names = offered_capability_names();
        assert_eq!(
            names,
            ["elicitation.form", "elicitation.url", "roots", "sampling"]
        );
        // With or without a router: one set.
        let bare = McpClient::new(OFFERED_VERSION);
        let routed = McpClient::new(OFFERED_VERSION).with_router(Some(Router::default()));
        assert_eq!(bare.config().capabilities, offered_capabilities());
        assert_eq!(routed.config().capabilities, offered_capabilities());
    }
}
