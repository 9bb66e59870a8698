//! mcpctl's side of the MCP handshake: who it says it is, what it offers,
//! and the one server request it answers (`roots/list`).

// Roots are deprecated by SEP-2577 but still part of the spec versions
// mcpctl negotiates, and DESIGN §5 asks stdio servers to get one.
#![allow(deprecated)]

use rmcp::ClientHandler;

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ListRootsResult, ProtocolVersion, Root,
    RootsCapabilities,
};
use rmcp::service::{RequestContext, RoleClient};

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
        }
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
        Ok(ListRootsResult::new(self.roots.clone()))
    }

    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        if let Some(hook) = &self.tools_changed {
            hook();
        }
    }
}
