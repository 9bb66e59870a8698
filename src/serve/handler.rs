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
use serde_json::Value;

use super::audit::Record;
use super::catalog::Exposed;
use super::error::rpc_error;
use super::passthrough::{self as pass, exposed_uri, prefix_field};
use super::relay::{self, Agent, Ended};
use super::shared::Shared;
use crate::supervisor::SupervisorError;
use crate::supervisor::protocol::{Body, CallRequest, ErrorCode, ForwardMethod};

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

    /// How long a request waits for the granted servers `serve` is still
    /// starting: the per-call timeout, which the agent allows a call anyway.
    fn startup_wait(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.shared.settings.timeout_ms)
    }

    /// The granted tool exposed as `name`, waiting for the servers `serve`
    /// is still starting when it is not listed yet.
    async fn exposed(&self, name: &str) -> Option<Exposed> {
        if let Some(exposed) = self.shared.view().tools.get(name) {
            return Some(exposed.clone());
        }
        self.shared.settled(self.startup_wait()).await;
        self.shared.view().tools.get(name).cloned()
    }

    /// Call `exposed` (the agent's `name`) through the supervisor. When
    /// the server's catalog moved since it was listed but this tool's
    /// definition did not (another tool came or went, or the server
    /// re-listed the same tools), the call is made once more against the
    /// new catalog: the catalog id guards what the agent was shown, and
    /// that is unchanged. A changed definition stays refused.
    async fn dispatch(
        &self,
        name: &str,
        exposed: &Exposed,
        arguments: rmcp::model::JsonObject,
        context: &RequestContext<RoleServer>,
    ) -> Result<Body, Ended> {
        let agent = self.agent(context);
        let roots = self.agent_roots(&context.peer).await;
        let request = |catalog_id: &str| CallRequest {
            name: exposed.server.clone(),
            tool: exposed.tool.clone(),
            arguments: arguments.clone(),
            catalog_id: Some(catalog_id.to_string()),
            binding_id: None,
            timeout_ms: Some(self.shared.settings.timeout_ms),
            validate: true,
            relay: Some(agent.relay(roots.clone())),
        };
        let outcome =
            relay::call(&self.shared.upstream, request(&exposed.catalog_id), &agent).await;
        let stale = matches!(&outcome,
            Err(Ended::Supervisor(SupervisorError::Remote(w))) if w.code == ErrorCode::Stale);
        if !stale {
            return outcome;
        }
        // The catalog moved under the agent: rebuild it (agents hear
        // `list_changed`) and see whether this tool is still the same.
        self.shared.rebuild(true).await;
        match self.shared.view().tools.get(name) {
            Some(now)
                if now.server == exposed.server
                    && now.tool == exposed.tool
                    && now.hash == exposed.hash
                    && now.catalog_id != exposed.catalog_id =>
            {
                relay::call(&self.shared.upstream, request(&now.catalog_id), &agent).await
            }
            _ => outcome,
        }
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
            // A stale catalog was rebuilt (and agents told) by `dispatch`.
            Err(Ended::Supervisor(err)) => Err(rpc_error(err)),
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
        self.shared.remember(context.peer);
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
        self.shared.settled(self.startup_wait()).await;
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
        let name = request.name.to_string();
        let Some(exposed) = self.exposed(&name).await else {
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
        let outcome = self.dispatch(&name, &exposed, arguments, &context).await;
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
