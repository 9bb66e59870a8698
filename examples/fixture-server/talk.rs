//! `--talk`: tools that talk back, in either protocol era (see
//! `mcpctl::mcp::talk`). In the handshake era they send
//! `elicitation/create` and `notifications/progress` during the call; in
//! the stateless era (2026-07-28) they answer `input_required` with a
//! request state and expect it echoed. `--record FILE` appends one line
//! per cancellation the server noticed (`cancelled TOOL`), and per
//! finished round (`round TOOL STATE`), so tests can see both.
//!
//! - `ask`: a form with defaults and an enum; declined or cancelled, it
//!   fails (isError) saying so.
//! - `ask_url`: a URL-mode question (`--ask-url URL` names the URL).
//! - `rounds`: two questions in two rounds, the second depending on the
//!   first through the request state.
//! - `progress`: five progress notifications (`steps`, `delay_ms` apart),
//!   then a result.
//! - `slow`: sleeps 30 s unless cancelled.
//! - `ask_many`: a form with 1,000 fields.
//! - `ask_forever`: `input_required` every time (stateless), or one
//!   question after another (handshake).
//! - `ask_malformed`: a question mcpctl cannot read.
//! - `sample`: asks for a model completion.
//! - `flood`: `count` progress notifications and as many log messages
//!   (default 50,000 each, at most 200,000), each padded to `pad` bytes
//!   (default 1,000), as fast as they go out; records `flooded N` once all
//!   are sent, then answers.

// Sampling is deprecated by SEP-2577 but servers still send it.
#![allow(deprecated)]

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientResult, ContentBlock,
    CustomRequest, ElicitRequest, ElicitRequestParams, InputRequest, InputRequests,
    InputRequiredResult, LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam,
    ResultType, ServerRequest, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

/// The tools `--talk` adds.
pub fn tools(schema: impl Fn(Value) -> Arc<rmcp::model::JsonObject>) -> Vec<Tool> {
    let empty = || schema(json!({"type": "object"}));
    vec![
        Tool::new("ask", "Asks for a name and a colour", empty()),
        Tool::new("ask_url", "Asks the user to visit a URL", empty()),
        Tool::new("rounds", "Asks two questions in two rounds", empty()),
        Tool::new("progress", "Reports progress five times", empty()),
        Tool::new("slow", "Sleeps 30 s unless cancelled", empty()),
        Tool::new("ask_many", "Asks for 1,000 fields", empty()),
        Tool::new("ask_forever", "Never stops asking", empty()),
        Tool::new("ask_malformed", "Asks with a malformed schema", empty()),
        Tool::new("sample", "Asks for a model completion", empty()),
        Tool::new("flood", "Floods progress and log messages", empty()),
    ]
}

/// `--ask-url URL`: the URL `ask_url` asks the user to open.
pub static ASK_URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// With `--hostile`: the default `ask` offers for the name.
pub static HOSTILE_DEFAULT: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

fn form() -> Value {
    let name_default = HOSTILE_DEFAULT.get().copied().unwrap_or("Ada");
    json!({
        "mode": "form",
        "message": "Who is deploying?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Your name", "default": name_default},
                "color": {"type": "string", "enum": ["red", "green", "blue"], "default": "green"},
                "count": {"type": "integer", "description": "How many"},
                "confirm": {"type": "boolean", "default": true}
            },
            "required": ["name", "color"]
        }
    })
}

fn field(name: &str) -> Value {
    json!({
        "mode": "form",
        "message": format!("Value for {name}?"),
        "requestedSchema": {"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}
    })
}

fn url() -> Value {
    json!({
        "mode": "url",
        "message": "Approve the deployment in your browser",
        "url": ASK_URL.get().map_or("https://example.com/approve?id=42", String::as_str),
        "elicitationId": "approve-42"
    })
}

fn many() -> Value {
    let props: serde_json::Map<String, Value> = (0..1000)
        .map(|i| (format!("f{i}"), json!({"type": "string"})))
        .collect();
    json!({"mode": "form", "message": "Fill in 1,000 fields", "requestedSchema": {"type": "object", "properties": props}})
}

fn malformed() -> Value {
    json!({"mode": "form", "message": "Nested", "requestedSchema": {"type": "object", "properties": {"deep": {"type": "object", "properties": {"x": {"type": "string"}}}}}})
}

fn text(t: impl Into<String>) -> CallToolResponse {
    CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(t.into())]))
}

fn failure(t: impl Into<String>) -> CallToolResponse {
    CallToolResponse::Complete(CallToolResult::error(vec![ContentBlock::text(t.into())]))
}

fn record(path: Option<&str>, line: String) {
    if let Some(path) = path {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{line}");
        }
    }
}

/// The number argument `name` of a call (or its string spelling), else `default`.
fn number_arg(request: &CallToolRequestParams, name: &str, default: u64) -> u64 {
    request
        .arguments
        .as_ref()
        .and_then(|a| a.get(name))
        .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
        .unwrap_or(default)
}

/// `progress`: `steps` notifications (default 5), `delay_ms` apart
/// (default 50; 0 sends the result right after the last one), then a
/// result.
async fn progress(
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> CallToolResponse {
    let arg = |name: &str, default: u64| number_arg(request, name, default);
    let (steps, delay) = (arg("steps", 5).min(10_000), arg("delay_ms", 50));
    let Some(token) = ctx.meta.get_progress_token() else {
        return text("done (no progress token)");
    };
    for i in 1..=steps {
        let p = ProgressNotificationParam::new(token.clone(), i as f64)
            .with_total(steps as f64)
            .with_message(format!("step {i}"));
        let _ = ctx.peer.notify_progress(p).await;
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
    }
    text(format!("done after {steps} steps"))
}

/// `flood`: see the module's list.
async fn flood(
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
    record_to: Option<&str>,
) -> CallToolResponse {
    let arg = |name: &str, default: u64| number_arg(request, name, default);
    let (count, pad) = (
        arg("count", 50_000).min(200_000),
        arg("pad", 1_000).min(65_536),
    );
    let padding = "x".repeat(pad as usize);
    let token = ctx.meta.get_progress_token();
    for i in 1..=count {
        if let Some(token) = &token {
            let p = ProgressNotificationParam::new(token.clone(), i as f64)
                .with_total(count as f64)
                .with_message(format!("step {i} {padding}"));
            let _ = ctx.peer.notify_progress(p).await;
        }
        let log = LoggingMessageNotificationParam::new(
            LoggingLevel::Info,
            json!(format!("line {i} {padding}")),
        );
        let _ = ctx.peer.notify_logging_message(log).await;
    }
    record(record_to, format!("flooded {count}"));
    text(format!("flooded {count}"))
}

/// What an answer says, as the tool's result.
fn outcome(answer: &Value) -> CallToolResponse {
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => text(format!(
            "accepted: {}",
            answer.get("content").cloned().unwrap_or(Value::Null)
        )),
        Some(other) => failure(format!("the user chose {other}; nothing was deployed")),
        None => failure("no answer"),
    }
}

fn ask_request(params: Value) -> InputRequest {
    serde_json::from_value(json!({"method": "elicitation/create", "params": params}))
        .expect("a valid elicitation request")
}

fn input_required(key: &str, params: Value, state: &str) -> CallToolResponse {
    let mut requests = InputRequests::new();
    requests.insert(key.to_string(), ask_request(params));
    CallToolResponse::InputRequired(InputRequiredResult::new(
        Some(requests),
        Some(state.to_string()),
    ))
}

/// Ask `params` in the handshake era; the answer as JSON.
async fn elicit(ctx: &RequestContext<RoleServer>, params: Value) -> Result<Value, ErrorData> {
    let params: ElicitRequestParams = serde_json::from_value(params).expect("valid params");
    let answer = ctx
        .peer
        .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params)))
        .await
        .map_err(|e| ErrorData::internal_error(format!("elicitation failed: {e}"), None))?;
    match answer {
        ClientResult::ElicitResult(answer) => {
            Ok(serde_json::to_value(answer).unwrap_or(Value::Null))
        }
        other => Err(ErrorData::internal_error(
            format!("unexpected answer {other:?}"),
            None,
        )),
    }
}

/// `--by-capability`: the tools listed only to a client that offers a
/// capability: `confirm` (elicitation), `roots_seen` (roots) and
/// `sample_once` (sampling).
pub fn by_capability(
    offered: &rmcp::model::ClientCapabilities,
    schema: impl Fn(Value) -> Arc<rmcp::model::JsonObject>,
) -> Vec<Tool> {
    let empty = || schema(json!({"type": "object"}));
    let mut tools = Vec::new();
    if offered.elicitation.is_some() {
        tools.push(Tool::new("confirm", "Asks who is deploying", empty()));
    }
    if offered.roots.is_some() {
        tools.push(Tool::new("roots_seen", "Lists the client's roots", empty()));
    }
    if offered.sampling.is_some() {
        tools.push(Tool::new("sample_once", "Asks for a completion", empty()));
    }
    tools
}

/// Call a `--by-capability` tool; `None` when `request` names another.
pub async fn call_by_capability(
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    Some(match request.name.as_ref() {
        "confirm" => elicit(ctx, form()).await.map(|a| outcome(&a)),
        "roots_seen" => match ctx.peer.list_roots().await {
            Ok(listed) => {
                let uris: Vec<String> = listed.roots.into_iter().map(|r| r.uri).collect();
                Ok(text(format!("roots: {}", uris.join(", "))))
            }
            Err(e) => Ok(failure(format!("roots/list failed: {e}"))),
        },
        "sample_once" => Ok(sample(ctx).await),
        _ => return None,
    })
}

/// Ask the client for a completion; what it said, as the tool's result.
async fn sample(ctx: &RequestContext<RoleServer>) -> CallToolResponse {
    let params = serde_json::from_value(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10
    }))
    .expect("sampling params");
    let request =
        ServerRequest::CreateMessageRequest(rmcp::model::CreateMessageRequest::new(params));
    match ctx.peer.send_request(request).await {
        Ok(_) => text("sampled"),
        Err(e) => failure(format!("sampling refused: {e}")),
    }
}

/// `--elicit-on-list`: ask during `tools/list`, capability or not, and
/// record what the client said (`elicit-on-list ok|refused: …`).
pub async fn elicit_anyway(ctx: &RequestContext<RoleServer>, record_to: Option<&str>) {
    let line = match elicit(ctx, field("unasked")).await {
        Ok(answer) => format!("elicit-on-list ok: {answer}"),
        Err(e) => format!("elicit-on-list refused: {}", e.message),
    };
    record(record_to, line);
}

/// Call a `--talk` tool; `None` when `request` names another tool.
pub async fn call(
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
    stateless: bool,
    record_to: Option<&str>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let name = request.name.as_ref();
    let answers = request.input_responses.clone().unwrap_or_default();
    let state = request.request_state.clone();
    if let Some(state) = &state {
        record(record_to, format!("round {name} {state}"));
    }
    let result = match (name, stateless) {
        ("ask" | "ask_url" | "ask_many", true) => match answers.get("q") {
            Some(answer) if state.as_deref() == Some("asked") => Ok(outcome(answer)),
            Some(_) => Err(ErrorData::invalid_params(
                "request state was not echoed",
                None,
            )),
            None => Ok(input_required(
                "q",
                match name {
                    "ask" => form(),
                    "ask_url" => url(),
                    _ => many(),
                },
                "asked",
            )),
        },
        ("ask" | "ask_url" | "ask_many", false) => {
            let params = match name {
                "ask" => form(),
                "ask_url" => url(),
                _ => many(),
            };
            elicit(ctx, params).await.map(|a| outcome(&a))
        }
        ("rounds", true) => match (state.as_deref(), answers.get("a"), answers.get("b")) {
            (None, ..) => Ok(input_required("a", field("a"), "round-1")),
            (Some("round-1"), Some(a), _) => {
                let a = a["content"]["a"].as_str().unwrap_or("").to_string();
                Ok(input_required("b", field("b"), &format!("round-2:{a}")))
            }
            (Some(s), _, Some(b)) if s.starts_with("round-2:") => Ok(text(format!(
                "a={} b={}",
                &s["round-2:".len()..],
                b["content"]["b"].as_str().unwrap_or("")
            ))),
            _ => Err(ErrorData::invalid_params(
                format!("unexpected round: state {state:?}"),
                None,
            )),
        },
        ("rounds", false) => {
            let a = match elicit(ctx, field("a")).await {
                Ok(a) => a,
                Err(e) => return Some(Err(e)),
            };
            let b = match elicit(ctx, field("b")).await {
                Ok(b) => b,
                Err(e) => return Some(Err(e)),
            };
            Ok(text(format!(
                "a={} b={}",
                a["content"]["a"].as_str().unwrap_or(""),
                b["content"]["b"].as_str().unwrap_or("")
            )))
        }
        ("ask_forever", true) => Ok(CallToolResponse::InputRequired(InputRequiredResult::new(
            Some(InputRequests::from([(
                "q".to_string(),
                ask_request(field("again")),
            )])),
            Some(format!("{}x", state.unwrap_or_default())),
        ))),
        ("ask_forever", false) => loop {
            if let Err(e) = elicit(ctx, field("again")).await {
                break Err(e);
            }
        },
        ("ask_malformed", true) => {
            // `input_required` without requests or state: not a valid result.
            let mut result = CallToolResult::success(vec![]);
            result.result_type = Some(ResultType::INPUT_REQUIRED);
            Ok(CallToolResponse::Complete(result))
        }
        ("ask_malformed", false) => {
            let raw = CustomRequest::new("elicitation/create", Some(malformed()));
            match ctx
                .peer
                .send_request(ServerRequest::CustomRequest(raw))
                .await
            {
                Ok(_) => Ok(text("the client accepted a malformed question")),
                Err(e) => Ok(failure(format!("the client refused: {e}"))),
            }
        }
        ("sample", true) => {
            let request: InputRequest = serde_json::from_value(json!({
                "method": "sampling/createMessage",
                "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}
            }))
            .expect("a sampling request");
            Ok(CallToolResponse::InputRequired(InputRequiredResult::new(
                Some(InputRequests::from([("s".to_string(), request)])),
                None,
            )))
        }
        ("sample", false) => Ok(sample(ctx).await),
        ("progress", _) => Ok(progress(request, ctx).await),
        ("flood", _) => Ok(flood(request, ctx, record_to).await),
        ("slow", _) => {
            tokio::select! {
                _ = ctx.ct.cancelled() => {
                    record(record_to, "cancelled slow".to_string());
                    Ok(text("cancelled"))
                }
                _ = tokio::time::sleep(Duration::from_secs(30)) => Ok(text("slept 30 s")),
            }
        }
        _ => return None,
    };
    Some(result)
}

/// `leak_talk` (with `--leak-env`): `said` (which quotes the variable's
/// value) in every interim message a client can get during a call: a
/// progress notification (when the call has a token), a log message, a
/// question (its message, a field's title, description and default) when
/// the client offers elicitation, and a sampling request when it offers
/// sampling. The result says what happened, never the value.
pub async fn leak(ctx: &RequestContext<RoleServer>, said: &str) -> CallToolResponse {
    if let Some(token) = ctx.meta.get_progress_token() {
        let p = ProgressNotificationParam::new(token, 1.0)
            .with_total(1.0)
            .with_message(said.to_string());
        let _ = ctx.peer.notify_progress(p).await;
    }
    let log = LoggingMessageNotificationParam::new(LoggingLevel::Warning, json!(said))
        .with_logger("leak");
    let _ = ctx.peer.notify_logging_message(log).await;
    let offered = ctx
        .peer
        .peer_info()
        .map(|i| i.capabilities.clone())
        .unwrap_or_default();
    let mut happened = vec!["progress and log sent".to_string()];
    if offered.elicitation.is_some() {
        let question = json!({
            "mode": "form",
            "message": format!("Confirm: {said}"),
            "requestedSchema": {"type": "object", "properties": {"key": {
                "type": "string", "title": format!("Key ({said})"),
                "description": format!("Was: {said}"), "default": said
            }}}
        });
        happened.push(match elicit(ctx, question).await {
            Ok(answer) => format!("question {}", answer["action"].as_str().unwrap_or("?")),
            Err(_) => "question failed".to_string(),
        });
    }
    if offered.sampling.is_some() {
        let params = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": said}}],
            "systemPrompt": said, "maxTokens": 10
        }))
        .expect("sampling params");
        let request =
            ServerRequest::CreateMessageRequest(rmcp::model::CreateMessageRequest::new(params));
        happened.push(match ctx.peer.send_request(request).await {
            Ok(_) => "sampled".to_string(),
            Err(_) => "sampling refused".to_string(),
        });
    }
    text(format!("talked: {}", happened.join(", ")))
}

/// The tools `--leak-env` adds beside `leak`, `leak_error` and
/// `leak_talk`: each quotes the variable's `value` somewhere other than a
/// result's text (one in its own description).
pub fn leak_tools(
    schema: impl Fn(Value) -> Arc<rmcp::model::JsonObject>,
    value: &str,
) -> Vec<Tool> {
    let empty = || schema(json!({"type": "object"}));
    let mut described = Tool::new(
        "leak_described",
        format!("Documents its key: {value}"),
        empty(),
    );
    // Everywhere else a listing can word it (attack variants, issue 20).
    described.title = Some(format!("Key {value}"));
    described.annotations = Some(rmcp::model::ToolAnnotations::with_title(format!(
        "Signs with {value}"
    )));
    described.output_schema = Some(schema(json!({"type": "object", "properties": {
        "key": {"type": "string", "default": value, "examples": [value]}}})));
    described.meta = serde_json::from_value(json!({ "key": value })).ok();
    vec![
        described,
        Tool::new(
            "leak_encoded",
            format!(
                "Answers with its key encoded: {}",
                leak_encodings(value).join(" | ")
            ),
            empty(),
        ),
        Tool::new(
            "leak_encoded_error",
            "Fails with a JSON-RPC error quoting the value encoded",
            empty(),
        ),
        Tool::new(
            "leak_data",
            "Answers with the value under `data` keys (structuredContent and _meta), which are not base64",
            empty(),
        ),
    ]
}

/// `leak_data`: the `value` quoted under `data` keys of the result's
/// `structuredContent` and `_meta`, which are not base64, as a key of
/// `structuredContent`, and as an image's "base64" that is not.
pub fn leak_data(value: &str) -> CallToolResponse {
    let quoted = format!("the key {value} was used");
    let image = ContentBlock::image(quoted.clone(), "image/png");
    let mut result = CallToolResult::success(vec![ContentBlock::text("see data"), image]);
    result.structured_content = Some(json!({ "data": quoted, value: "a key named by it" }));
    result.meta = serde_json::from_value(json!({ "data": quoted })).ok();
    CallToolResponse::Complete(result)
}

/// The forms in which a server may say `value` back without writing it:
/// percent-encoded (every byte, upper and lower case hex; only what a URL
/// component must escape; a form's `+` for a space), and inside a JSON
/// string stringified into text (`\"`, `\\`, and `\u00e9` for what is not
/// ASCII, as Python's `json.dumps` writes it), each labelled.
pub fn leak_encodings(value: &str) -> Vec<String> {
    let every = |upper: bool| -> String {
        value
            .bytes()
            .map(|b| {
                if upper {
                    format!("%{b:02X}")
                } else {
                    format!("%{b:02x}")
                }
            })
            .collect()
    };
    let component: String = value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    let json = json!({ "key": value }).to_string();
    let ascii: String = json
        .chars()
        .map(|c| match c.is_ascii() {
            true => c.to_string(),
            false => c
                .encode_utf16(&mut [0; 2])
                .iter()
                .map(|u| format!("\\u{u:04x}"))
                .collect(),
        })
        .collect();
    vec![
        format!("every byte: {}", every(true)),
        format!("lower: {}", every(false)),
        format!("component: {component}"),
        format!("query: ?key={form}"),
        format!("stringified: {json}"),
        format!("ascii: {ascii}"),
    ]
}
