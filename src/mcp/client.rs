//! mcpctl's side of the MCP handshake: who it says it is, what it offers,
//! and the server requests it answers: `roots/list`, and, on a connection
//! that makes calls (a [`Router`]), `elicitation/create`, sampling, log
//! messages and progress, routed to the call they belong to (see
//! [`super::talk`]). Sampling is refused unless the caller has a model
//! (an agent host behind `serve`): mcpctl has none.

// Roots are deprecated by SEP-2577 but still part of the spec versions
// mcpctl negotiates, and DESIGN §5 asks stdio servers to get one.
#![allow(deprecated)]

use rmcp::ClientHandler;

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    CustomRequest, CustomResult, ElicitRequestParams, ElicitResult, ElicitationCapability,
    FormElicitationCapability, Implementation, ListRootsResult, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProtocolVersion, Root, RootsCapabilities, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};

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

/// The rmcp client handler: identity, capabilities, and roots.
#[derive(Clone)]
pub struct McpClient {
    info: ClientConfig,
    roots: Vec<Root>,
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
    /// A client offering `version`; `roots` non-empty advertises the
    /// `roots` capability (stdio servers get their cwd, HTTP servers none).
    pub fn new(version: &str, roots: Vec<Root>) -> Self {
        let mut capabilities = ClientCapabilities::default();
        if !roots.is_empty() {
            capabilities.roots = Some(RootsCapabilities::default());
        }
        let info = ClientConfig::new(
            capabilities,
            Implementation::new("mcpctl", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(parse_version(version));
        McpClient {
            info,
            roots,
            tools_changed: None,
            router: None,
        }
    }

    /// Route elicitation, sampling and progress to the calls made on this
    /// connection, and advertise elicitation (form and URL) and sampling
    /// for it; a connection without a router (`check`, discovery)
    /// advertises neither.
    pub fn with_router(mut self, router: Option<Router>) -> Self {
        let mut capabilities = self.info.capabilities.clone();
        capabilities.elicitation = router.as_ref().map(|_| {
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::new())
                .with_url(UrlElicitationCapability::new())
        });
        // Sampling goes to the caller's model when it has one (an agent
        // host behind `serve`), and is refused otherwise.
        capabilities.sampling = router.as_ref().map(|_| Default::default());
        self.info.capabilities = capabilities;
        self.router = router;
        self
    }

    /// Call `hook` on every `notifications/tools/list_changed`.
    pub fn with_tools_changed(mut self, hook: Option<ToolsChanged>) -> Self {
        self.tools_changed = hook;
        self
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

/// The `file://` root for a directory.
pub fn root_for(dir: &std::path::Path) -> Option<Root> {
    url::Url::from_directory_path(dir)
        .ok()
        .map(|u| Root::new(u.to_string()))
}

impl ClientHandler for McpClient {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, rmcp::ErrorData> {
        let Some(router) = &self.router else {
            return Ok(ListRootsResult::new(self.roots.clone()));
        };
        // The calling agent's roots (behind `serve`), else the connection's.
        let roots = router.roots().unwrap_or_else(|| self.roots.clone());
        router.gave_roots(&roots);
        Ok(ListRootsResult::new(roots))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let Some(router) = &self.router else {
            return Err(rmcp::ErrorData::invalid_request(
                "mcpctl did not advertise the elicitation capability on this connection",
                None,
            ));
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

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(router) = &self.router
            && let Ok(params) = serde_json::to_value(&params)
        {
            router.log(&params);
        }
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

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(router) = &self.router {
            router.progress(params);
        }
    }

    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        if let Some(hook) = &self.tools_changed {
            hook();
        }
    }
}
