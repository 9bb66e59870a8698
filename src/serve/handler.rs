//! The MCP server agents talk to: `tools/list` answers from the granted
//! catalog, `tools/call` becomes one supervisor `talk` naming the catalog
//! id the tool was listed from, so schema validation, stale-catalog
//! refusal and no-retry are the supervisor's, unchanged, and what the
//! server says during the call reaches the agent ([`super::relay`]).

// Logging and roots are deprecated by SEP-2577 but part of the protocol
// versions agents speak; serve passes them on.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, LoggingLevel, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Value, json};

use super::audit::{Audit, Record};
use super::catalog::{Exposed, Granted, View};
use super::passthrough::{self as pass, exposed_uri, prefix_field};
use super::relay::{self, Agent, Ended};
use super::upstream::Upstream;
use crate::defs::Sources;
use crate::supervisor::SupervisorError;
use crate::supervisor::protocol::{Body, CallRequest, ErrorCode, ForwardMethod};

/// Settings of one `serve` run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The definition files.
    pub sources: Sources,
    /// The profile served (`None`: the default grants, `tools`).
    pub profile: Option<String>,
    /// Between server and tool in exposed names.
    pub separator: String,
    /// Start granted servers that are not running (unless `--no-start`).
    pub start_all: bool,
    /// Per-call timeout in milliseconds.
    pub timeout_ms: u64,
}

/// What every session shares: the supervisor line, the grants and the
/// current catalog, and the connected agents to notify.
pub struct Shared {
    /// The supervisor.
    pub upstream: Upstream,
    /// The run's settings.
    pub settings: Settings,
    state: Mutex<(Granted, Arc<View>)>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// The audit log, if one is kept.
    pub audit: Option<Audit>,
}

impl Shared {
    /// Read the grants and build the first catalog.
    pub fn new(
        upstream: Upstream,
        settings: Settings,
        audit: Option<Audit>,
    ) -> crate::error::Result<Shared> {
        let granted = Granted::load(
            &settings.sources,
            settings.profile.as_deref(),
            settings.start_all,
        )?;
        let view = View::build(&upstream, &granted, &settings.separator);
        Ok(Shared {
            upstream,
            settings,
            state: Mutex::new((granted, Arc::new(view))),
            peers: Mutex::new(Vec::new()),
            audit,
        })
    }

    /// The grants currently in force.
    pub fn granted(&self) -> Granted {
        self.state.lock().map(|s| s.0.clone()).unwrap_or_default()
    }

    /// True when a definition file changed since the grants were read.
    fn granted_outdated(&self) -> bool {
        self.state
            .lock()
            .map(|s| s.0.outdated(&self.settings.sources))
            .unwrap_or(true)
    }

    /// The current catalog.
    pub fn view(&self) -> Arc<View> {
        self.state.lock().map(|s| s.1.clone()).unwrap_or_default()
    }

    /// Re-read the grants when a definition file changed (always when
    /// `force`), rebuild the catalog, and say what agents would see
    /// differently. Blocking: call it from a blocking thread.
    pub fn rebuild_blocking(&self, force: bool) -> Changed {
        let old = self.view();
        let mut granted = self.granted();
        if granted.outdated(&self.settings.sources) {
            // A file that cannot be read right now (mid-edit by hand)
            // keeps the last good grants.
            if let Ok(fresh) = Granted::load(
                &self.settings.sources,
                self.settings.profile.as_deref(),
                self.settings.start_all,
            ) {
                granted = fresh;
            }
        } else if !force {
            return Changed::default();
        }
        let view = View::build(&self.upstream, &granted, &self.settings.separator);
        let changed = Changed {
            tools: view.fingerprint() != old.fingerprint(),
            passed_through: view.passed_through() != old.passed_through(),
        };
        if let Ok(mut state) = self.state.lock() {
            *state = (granted, Arc::new(view));
        }
        changed
    }

    /// [`Self::rebuild_blocking`] from async code, telling every agent what
    /// changed. Whichever session's request finds the change, all agents
    /// hear of it.
    pub async fn rebuild(self: &Arc<Self>, force: bool) {
        // The common case, nothing changed, costs a few `stat`s and no
        // thread hop: it runs before every agent call.
        if !force && !self.granted_outdated() {
            return;
        }
        let this = self.clone();
        let changed = tokio::task::spawn_blocking(move || this.rebuild_blocking(force))
            .await
            .unwrap_or_default();
        self.notify_all(changed).await;
    }

    /// Send every connected agent the `list_changed` notifications that
    /// `changed` calls for, forgetting agents that went away.
    pub async fn notify_all(&self, changed: Changed) {
        if !changed.tools && !changed.passed_through {
            return;
        }
        let peers: Vec<_> = self.peers.lock().map(|p| p.clone()).unwrap_or_default();
        for peer in &peers {
            // One agent that went away must not keep the others uninformed.
            if changed.tools {
                let _ = peer.notify_tool_list_changed().await;
            }
            if changed.passed_through {
                let _ = peer.notify_prompt_list_changed().await;
                let _ = peer.notify_resource_list_changed().await;
            }
        }
        if let Ok(mut list) = self.peers.lock() {
            list.retain(|p| !p.is_transport_closed());
        }
    }
}

/// What a rebuild changed for agents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changed {
    /// The exposed tools (names, hashes or catalogs).
    pub tools: bool,
    /// The servers whose prompts and resources pass through, or their
    /// catalogs (a restart or refresh may bring other prompts too).
    pub passed_through: bool,
}

/// One session's handler; sessions share [`Shared`].
#[derive(Clone)]
pub struct Gateway {
    shared: Arc<Shared>,
    session: String,
    /// The level the agent set with `logging/setLevel`.
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
    /// The agent's roots as last listed (`None`: to be asked), forgotten
    /// when it says they changed.
    roots: Arc<tokio::sync::Mutex<Option<Vec<Value>>>>,
}

/// How long an agent is given to list its roots before a call.
const ROOTS_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl Gateway {
    /// A handler for one session (`session` names it in the audit log).
    pub fn new(shared: Arc<Shared>, session: impl Into<String>) -> Gateway {
        Gateway {
            shared,
            session: session.into(),
            log_level: Arc::default(),
            roots: Arc::default(),
        }
    }

    /// The agent's roots, when it offers roots (asked once, then kept
    /// until it sends `notifications/roots/list_changed`).
    #[allow(deprecated)]
    async fn agent_roots(&self, peer: &Peer<RoleServer>) -> Option<Vec<Value>> {
        peer.peer_info()?.capabilities.roots.as_ref()?;
        let mut cached = self.roots.lock().await;
        if cached.is_none() {
            let listed = tokio::time::timeout(ROOTS_WAIT, peer.list_roots()).await;
            if let Ok(Ok(listed)) = listed {
                *cached = serde_json::to_value(listed.roots)
                    .ok()
                    .and_then(|v| v.as_array().cloned());
            }
        }
        cached.clone()
    }

    /// The agent behind a `tools/call` request.
    fn agent(&self, context: &RequestContext<RoleServer>) -> Agent {
        Agent {
            peer: context.peer.clone(),
            progress_token: context.meta.get_progress_token(),
            log_level: self.log_level.lock().ok().and_then(|l| *l),
            cancelled: context.ct.clone(),
        }
    }

    /// The outcome of a relayed call as the agent's result: arguments that
    /// fail the schema are a tool result with `isError`, not a JSON-RPC
    /// error, so the model can correct itself.
    fn call_result(&self, outcome: Result<Body, Ended>) -> Result<CallToolResult, ErrorData> {
        match outcome {
            Ok(Body::Call { result, .. }) => typed(result),
            Ok(_) => Err(ErrorData::internal_error(
                "unexpected answer from the supervisor",
                None,
            )),
            Err(Ended::Cancelled) => Err(ErrorData::internal_error(
                "the call was cancelled by the agent",
                None,
            )),
            Err(Ended::Supervisor(SupervisorError::Remote(w)))
                if let Some(refusal) = relay::schema_refusal(&w) =>
            {
                typed(refusal)
            }
            Err(Ended::Supervisor(err)) => {
                if matches!(&err, SupervisorError::Remote(w) if w.code == ErrorCode::Stale) {
                    // The catalog moved under the agent: tell it to list again.
                    let shared = self.shared.clone();
                    tokio::spawn(async move { shared.rebuild(true).await });
                }
                Err(rpc_error(err))
            }
        }
    }
}

/// An agent-facing tool: the exposed name, with the server's title,
/// description, exact schemas and annotations.
fn agent_tool(name: &str, exposed: &Exposed) -> Option<Tool> {
    let mut value = serde_json::to_value(&exposed.info).ok()?;
    value["name"] = Value::String(name.to_string());
    if value["description"].is_null() {
        value.as_object_mut()?.remove("description");
    }
    serde_json::from_value(value).ok()
}

/// A supervisor error as the JSON-RPC error the agent gets.
pub(super) fn rpc_error(err: SupervisorError) -> ErrorData {
    match err {
        SupervisorError::Remote(wire) => {
            let mut message = wire.message.clone();
            if let Some(hint) = &wire.hint {
                message = format!("{message} ({hint})");
            }
            let data = Some(json!({ "code": wire.code.as_str() }));
            match wire.code {
                ErrorCode::Invalid | ErrorCode::NotFound => {
                    ErrorData::invalid_params(message, data)
                }
                _ => ErrorData::internal_error(message, data),
            }
        }
        other => ErrorData::internal_error(
            format!("the supervisor cannot be reached: {other}"),
            Some(json!({ "code": "unreachable" })),
        ),
    }
}

impl ServerHandler for Gateway {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mcpctl", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Tools of the MCP servers supervised by mcpctl, named SERVER__TOOL; only tools an operator granted are listed. Prompts of those servers are named SERVER__PROMPT, and their resources have URIs mcpctl://SERVER/ORIGINAL-URI.",
            )
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if let Ok(mut peers) = self.shared.peers.lock() {
            // Sessions that ended are forgotten here too, so a long-lived
            // `serve --http` does not collect them.
            peers.retain(|p| !p.is_transport_closed());
            peers.push(context.peer);
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut level) = self.log_level.lock() {
            *level = Some(request.level);
        }
        Ok(())
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        *self.roots.lock().await = None;
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.shared.rebuild(false).await;
        let view = self.shared.view();
        let tools = view
            .tools
            .iter()
            .filter_map(|(name, exposed)| agent_tool(name, exposed))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        // A grant revoked a moment ago must already be refused.
        self.shared.rebuild(false).await;
        let view = self.shared.view();
        let name = request.name.to_string();
        let Some(exposed) = view.tools.get(&name).cloned() else {
            if let Some(audit) = &self.shared.audit {
                audit.write(&Record::refused(
                    &self.shared.settings,
                    &self.session,
                    &name,
                ));
            }
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{name}`: it does not exist or is not granted"),
                None,
            ));
        };
        let arguments = request.arguments.unwrap_or_default();
        let size = serde_json::to_vec(&arguments).map_or(0, |v| v.len());
        let args_for_audit = self
            .shared
            .audit
            .as_ref()
            .filter(|a| a.with_args)
            .map(|_| Value::Object(arguments.clone()));
        let agent = self.agent(&context);
        let roots = self.agent_roots(&context.peer).await;
        let call = CallRequest {
            name: exposed.server.clone(),
            tool: exposed.tool.clone(),
            arguments,
            catalog_id: Some(exposed.catalog_id.clone()),
            binding_id: None,
            timeout_ms: Some(self.shared.settings.timeout_ms),
            validate: true,
            relay: Some(agent.relay(roots)),
        };
        let outcome = relay::call(&self.shared.upstream, call, &agent).await;
        let result = self.call_result(outcome);
        if let Some(audit) = &self.shared.audit {
            let outcome = match &result {
                Ok(r) if r.is_error == Some(true) => "tool_error".to_string(),
                Ok(_) => "ok".to_string(),
                Err(e) => format!("error: {}", e.message),
            };
            audit.write(&Record::call(
                &self.shared.settings,
                &self.session,
                &exposed,
                started.elapsed(),
                &outcome,
                size,
                args_for_audit,
            ));
        }
        result.map(CallToolResponse::Complete)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.shared.rebuild(false).await;
        let separator = self.shared.settings.separator.clone();
        let merged = pass::list(
            &self.shared,
            ForwardMethod::PromptsList,
            "prompts",
            |server, item| {
                prefix_field(item, "name", &format!("{server}{separator}"));
            },
        )
        .await;
        typed(merged)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.shared.rebuild(false).await;
        let Some((server, name)) = pass::prompt_target(&self.shared, &request.name) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt `{}`: it does not exist or its server is not granted",
                    request.name
                ),
                None,
            ));
        };
        let mut params = serde_json::to_value(&request).unwrap_or(Value::Null);
        params["name"] = Value::String(name);
        let result = pass::get(&self.shared, &server, ForwardMethod::PromptsGet, params).await?;
        typed(result).map(GetPromptResponse::Complete)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.shared.rebuild(false).await;
        let separator = self.shared.settings.separator.clone();
        let merged = pass::list(
            &self.shared,
            ForwardMethod::ResourcesList,
            "resources",
            |server, item| {
                prefix_field(item, "name", &format!("{server}{separator}"));
                prefix_field(item, "uri", &exposed_uri(server));
            },
        )
        .await;
        typed(merged)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.shared.rebuild(false).await;
        let separator = self.shared.settings.separator.clone();
        let merged = pass::list(
            &self.shared,
            ForwardMethod::ResourceTemplatesList,
            "resourceTemplates",
            |server, item| {
                prefix_field(item, "name", &format!("{server}{separator}"));
                prefix_field(item, "uriTemplate", &exposed_uri(server));
            },
        )
        .await;
        typed(merged)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.shared.rebuild(false).await;
        let Some((server, uri)) = pass::resource_target(&self.shared, &request.uri) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown resource `{}`: resources are read as mcpctl://SERVER/URI of a granted server",
                    request.uri
                ),
                None,
            ));
        };
        let mut params = serde_json::to_value(&request).unwrap_or(Value::Null);
        params["uri"] = Value::String(uri);
        let mut result =
            pass::get(&self.shared, &server, ForwardMethod::ResourcesRead, params).await?;
        if let Some(contents) = result.get_mut("contents").and_then(Value::as_array_mut) {
            for item in contents {
                prefix_field(item, "uri", &exposed_uri(&server));
            }
        }
        typed(result).map(ReadResourceResponse::Complete)
    }
}

/// A forwarded JSON result as the rmcp type the agent gets.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| {
        ErrorData::internal_error(format!("the server's result is malformed: {e}"), None)
    })
}
