//! Calls that talk back: elicitation, multi-round-trip results, progress
//! and cancellation of one `tools/call`.
//!
//! A tool call is not always one request and one answer. In the handshake
//! era (2025-11-25) a server sends `elicitation/create` to the client while
//! the call runs; in the stateless era (2026-07-28, SEP-2322) it answers
//! the call with `input_required`, and the client fulfils the requests and
//! retries with the server's `requestState` echoed exactly. Either way the
//! question goes to the caller's [`Talk`]: the CLI that asks on a terminal
//! or from flags, or the supervisor that relays it over its socket.
//!
//! - [`call_tool`] drives the rounds: a new request id each round, at most
//!   [`MAX_ROUNDS`], sampling asked of the caller's model (refused, "mcpctl
//!   has no model", when it has none), roots answered with the caller's
//!   roots or else the connection's; dropping it (Ctrl-C, a timeout,
//!   a caller that went away) sends `notifications/cancelled`, which rmcp's
//!   Streamable HTTP transport turns into closing the request's stream in
//!   the stateless era.
//! - [`Router`] sends what the server says outside a result (an
//!   `elicitation/create` request, `notifications/progress`) to the call it
//!   belongs to. Progress carries the call's token; an elicitation carries
//!   nothing on the wire that names its call, so it goes to the only call in
//!   flight, and is refused when there are several.
//! - [`check_question`] refuses what no person should be asked: more than
//!   [`MAX_FIELDS`] fields, a schema outside the spec's flat form, a URL
//!   that is not http(s). Such a question ends the call with the reason.

// Roots are deprecated by SEP-2577 but still part of both protocol eras
// mcpctl speaks; `input_required` may ask for them.
#![allow(deprecated)]

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientRequest, InputRequest, InputRequiredResult, ListRootsResult, ProgressNotificationParam,
    ProgressToken, Root, ServerResult,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::given_roots::GivenRoots;
use super::interim::Mailbox;

/// The most `input_required` rounds one call may take before mcpctl gives up.
pub const MAX_ROUNDS: usize = 10;

/// The most fields one elicitation may ask for.
pub const MAX_FIELDS: usize = 64;

/// How long a server is given to read a cancellation before it is stopped.
const CANCEL_SETTLE: Duration = Duration::from_millis(200);

/// Progress notifications kept for a call whose token is not bound yet.
const ORPHANS: usize = 64;

/// One question for the caller: the `elicitation/create` params as JSON,
/// and where its answer (an `ElicitResult` as JSON) goes.
#[derive(Debug)]
pub struct Question {
    /// The request's params (`mode`, `message`, `requestedSchema` or `url`).
    pub params: Value,
    /// The answer; dropping it declines.
    pub reply: oneshot::Sender<Value>,
}

/// One request for a model completion for the caller: the
/// `sampling/createMessage` params as JSON, and where its answer (a
/// `CreateMessageResult` as JSON, or why not) goes.
#[derive(Debug)]
pub struct Sample {
    /// The request's params (`messages`, `maxTokens`, ...).
    pub params: Value,
    /// The answer; dropping it refuses.
    pub reply: oneshot::Sender<Result<Value, String>>,
}

/// Why a sampling request gets no completion when the caller has no model.
pub const NO_MODEL: &str = "sampling declined: mcpctl has no model";

/// What one call's caller can do when the server talks back: answer
/// questions, and watch progress; with [`Talk::relaying`], also answer
/// sampling, hear log messages, and offer its own roots. The default
/// declines everything and drops progress.
#[derive(Debug, Clone, Default)]
pub struct Talk {
    questions: Option<mpsc::Sender<Question>>,
    progress: Option<Mailbox>,
    sampling: Option<mpsc::Sender<Sample>>,
    logs: Option<Mailbox>,
    roots: Option<Vec<Root>>,
}

impl Talk {
    /// A caller that answers on `questions` and watches on `progress`
    /// (bounded: see [`super::interim`]).
    pub fn new(questions: Option<mpsc::Sender<Question>>, progress: Option<Mailbox>) -> Talk {
        Talk {
            questions,
            progress,
            ..Talk::default()
        }
    }

    /// Also take sampling requests on `sampling`, log messages (the
    /// `notifications/message` params) on `logs`, and answer `roots/list`
    /// with `roots` (the caller's, e.g. an agent's behind `serve`).
    pub fn relaying(
        mut self,
        sampling: Option<mpsc::Sender<Sample>>,
        logs: Option<Mailbox>,
        roots: Option<Vec<Root>>,
    ) -> Talk {
        self.sampling = sampling;
        self.logs = logs;
        self.roots = roots;
        self
    }

    /// Ask the caller's model; a caller without one refuses with [`NO_MODEL`].
    pub async fn sample(&self, params: Value) -> Result<Value, String> {
        let Some(sampling) = &self.sampling else {
            return Err(NO_MODEL.into());
        };
        let (reply, answer) = oneshot::channel();
        if sampling.send(Sample { params, reply }).await.is_err() {
            return Err("the caller went away".into());
        }
        answer
            .await
            .unwrap_or_else(|_| Err("the caller went away".into()))
    }

    /// The caller's roots, when it offered its own.
    pub fn roots(&self) -> Option<&[Root]> {
        self.roots.as_deref()
    }

    fn log(&self, params: &Value) {
        if let Some(logs) = &self.logs {
            logs.log(params.clone());
        }
    }

    /// Ask the caller; a caller who cannot answer declines.
    pub async fn ask(&self, params: Value) -> Value {
        let Some(questions) = &self.questions else {
            return decline();
        };
        let (reply, answer) = oneshot::channel();
        if questions.send(Question { params, reply }).await.is_err() {
            return decline();
        }
        answer.await.unwrap_or_else(|_| decline())
    }

    fn progress(&self, p: ProgressNotificationParam) {
        if let Some(progress) = &self.progress {
            progress.progress(p);
        }
    }
}

/// The `ElicitResult` of a caller who says no.
pub fn decline() -> Value {
    json!({ "action": "decline" })
}

/// Why a call that talked back ended without a result.
#[derive(Debug, thiserror::Error)]
pub enum TalkError {
    /// rmcp's error for the request (transport, JSON-RPC error, closed).
    #[error("{0}")]
    Service(#[from] ServiceError),
    /// mcpctl ended the call: the server asked for something it refuses.
    #[error("{0}")]
    Refused(String),
}

/// Routes what a server says outside a result to the call it belongs to;
/// one per connection, shared by the client handler and every call.
#[derive(Clone, Default)]
pub struct Router(Arc<Mutex<Routes>>);

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router").finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Routes {
    next: u64,
    calls: BTreeMap<u64, Route>,
    orphans: VecDeque<ProgressNotificationParam>,
    cancels: Vec<tokio::task::JoinHandle<()>>,
    /// The roots last given to the server.
    given: GivenRoots,
}

struct Route {
    talk: Talk,
    /// Questions asked so far; more than [`MAX_ROUNDS`] ends the call.
    asked: usize,
    tokens: Vec<ProgressToken>,
    abort: mpsc::UnboundedSender<String>,
}

/// A call's place in the [`Router`]; leaving drops it.
struct Entry {
    router: Router,
    id: u64,
    aborted: mpsc::UnboundedReceiver<String>,
}

impl Router {
    fn lock(&self) -> std::sync::MutexGuard<'_, Routes> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn enter(&self, talk: Talk) -> Entry {
        let (abort, aborted) = mpsc::unbounded_channel();
        let mut routes = self.lock();
        routes.next += 1;
        let id = routes.next;
        routes.calls.insert(
            id,
            Route {
                talk,
                asked: 0,
                tokens: Vec::new(),
                abort,
            },
        );
        Entry {
            router: self.clone(),
            id,
            aborted,
        }
    }

    fn bind(&self, id: u64, token: ProgressToken) {
        let mut routes = self.lock();
        let Routes { calls, orphans, .. } = &mut *routes;
        let Some(route) = calls.get_mut(&id) else {
            return;
        };
        orphans.retain(|p| {
            if p.progress_token == token {
                route.talk.progress(p.clone());
                false
            } else {
                true
            }
        });
        route.tokens.push(token);
    }

    /// A `notifications/progress`: to the call whose token it carries
    /// (kept briefly when that call has not bound its token yet).
    pub fn progress(&self, p: ProgressNotificationParam) {
        let mut routes = self.lock();
        if let Some(route) = routes
            .calls
            .values()
            .find(|r| r.tokens.contains(&p.progress_token))
        {
            route.talk.progress(p);
            return;
        }
        if routes.orphans.len() == ORPHANS {
            routes.orphans.pop_front();
        }
        routes.orphans.push_back(p);
    }

    /// The only call in flight, counted as asked once more: its talk, its
    /// abort line and how many questions it was asked. `Err` says why a
    /// request of the server's (`what`) has no one to go to.
    fn only_call(
        &self,
        what: &str,
    ) -> Result<(Talk, mpsc::UnboundedSender<String>, usize), String> {
        let mut routes = self.lock();
        let several = routes.calls.len() > 1;
        match routes.calls.values_mut().next() {
            Some(only) if !several => {
                only.asked += 1;
                Ok((only.talk.clone(), only.abort.clone(), only.asked))
            }
            None => Err(format!(
                "mcpctl passes on {what} only during a tools/call, and none is in flight"
            )),
            Some(_) => Err(format!(
                "several calls are in flight; mcpctl cannot tell which caller {what} is for (use one call at a time, or the 2026-07-28 protocol)"
            )),
        }
    }

    /// An `elicitation/create` request (its params as JSON): checked, then
    /// asked of the only call in flight. `Err` is the reason it was
    /// refused, which also ends that call.
    pub async fn elicit(&self, params: Value) -> Result<Value, String> {
        let (talk, abort, asked) = self.only_call("a question")?;
        let checked = if asked > MAX_ROUNDS {
            Err(format!(
                "the server asked {asked} questions in one call; mcpctl answers at most {MAX_ROUNDS}"
            ))
        } else {
            check_question(&params)
        };
        if let Err(why) = checked {
            let _ = abort.send(why.clone());
            return Err(why);
        }
        Ok(talk.ask(params).await)
    }

    /// A `sampling/createMessage` request (its params as JSON), for the
    /// only call in flight's caller; `Err` is why it gets no completion
    /// ([`NO_MODEL`] when that caller has none).
    pub async fn sample(&self, params: Value) -> Result<Value, String> {
        let (talk, abort, asked) = self.only_call("a sampling request")?;
        if asked > MAX_ROUNDS {
            let why = format!(
                "the server asked {asked} questions in one call; mcpctl answers at most {MAX_ROUNDS}"
            );
            let _ = abort.send(why.clone());
            return Err(why);
        }
        talk.sample(params).await
    }

    /// A `notifications/message` (its params as JSON): to every call in
    /// flight whose caller takes log messages. A log message names no
    /// call; it is the server's, and each of those callers may use it.
    pub fn log(&self, params: &Value) {
        for route in self.lock().calls.values() {
            route.talk.log(params);
        }
    }

    /// The roots to answer `roots/list` with: those of the calls in
    /// flight that offered their own, when they agree; `None` (the
    /// connection's own) when none did, or they differ.
    pub fn roots(&self) -> Option<Vec<Root>> {
        let routes = self.lock();
        let mut offered = routes.calls.values().filter_map(|r| r.talk.roots());
        let first = offered.next()?;
        offered.all(|r| r == first).then(|| first.to_vec())
    }

    /// Record that the server was given `roots`.
    pub fn gave_roots(&self, roots: &[Root]) {
        self.lock().given.gave(roots);
    }

    /// A request the server sent that mcpctl could not read (an
    /// `elicitation/create` whose params do not parse): ends the only call
    /// in flight with `why`.
    pub fn refuse(&self, why: &str) {
        let routes = self.lock();
        if routes.calls.len() == 1
            && let Some(route) = routes.calls.values().next()
        {
            let _ = route.abort.send(why.to_string());
        }
    }

    /// Wait (at most `within`) until every `notifications/cancelled` queued
    /// by an abandoned call has been handed to the transport, and then a
    /// moment for the server to act on it, so a close right after a Ctrl-C
    /// neither swallows the cancellation nor stops the server before it
    /// has read it.
    pub async fn flush(&self, within: Duration) {
        let pending = std::mem::take(&mut self.lock().cancels);
        if pending.is_empty() {
            return;
        }
        let _ = tokio::time::timeout(within, futures::future::join_all(pending)).await;
        tokio::time::sleep(CANCEL_SETTLE).await;
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        self.router.lock().calls.remove(&self.id);
    }
}

/// Sends `notifications/cancelled` for a request still unanswered when the
/// call is dropped (Ctrl-C, timeout, the caller went away).
struct CancelOnDrop {
    peer: rmcp::Peer<RoleClient>,
    router: Router,
    id: Option<rmcp::model::RequestId>,
    reason: String,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let (peer, reason) = (self.peer.clone(), std::mem::take(&mut self.reason));
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let task = rt.spawn(async move {
                let param = CancelledNotificationParam::new(Some(id), Some(reason));
                let _ = tokio::time::timeout(Duration::from_secs(2), peer.notify_cancelled(param))
                    .await;
            });
            self.router.lock().cancels.push(task);
        }
    }
}

/// Call a tool, answering `input_required` rounds and routing progress and
/// elicitation through `router` to `talk`. `cancel_reason` is what the
/// server is told if the call is dropped unanswered.
pub async fn call_tool(
    peer: &rmcp::Peer<RoleClient>,
    router: &Router,
    talk: Talk,
    mut params: CallToolRequestParams,
    cancel_reason: &str,
) -> Result<CallToolResult, TalkError> {
    let mut entry = router.enter(talk.clone());
    if let Some(own) = talk.roots() {
        let given = router.lock().given.clone();
        given.sync(peer, own).await;
    }
    let roots = talk.roots().unwrap_or_default();
    for _round in 0..MAX_ROUNDS {
        let handle = peer
            .send_request_with_option(
                ClientRequest::CallToolRequest(CallToolRequest::new(params.clone())),
                PeerRequestOptions::no_options(),
            )
            .await?;
        router.bind(entry.id, handle.progress_token.clone());
        let mut guard = CancelOnDrop {
            peer: peer.clone(),
            router: router.clone(),
            id: Some(handle.id.clone()),
            reason: cancel_reason.to_string(),
        };
        let answer = tokio::select! {
            answer = handle.await_response() => answer,
            Some(why) = entry.aborted.recv() => {
                guard.reason = format!("mcpctl refused a request from the server: {why}");
                return Err(TalkError::Refused(why));
            }
        };
        guard.id = None;
        match answer? {
            ServerResult::CallToolResult(result) => return Ok(result),
            ServerResult::InputRequiredResult(asked) => {
                let (responses, state) = fulfil(asked, &talk, roots).await?;
                params.input_responses = responses;
                params.request_state = state;
            }
            ServerResult::CustomResult(raw) => return Err(malformed(&raw.0)),
            _ => return Err(ServiceError::UnexpectedResponse.into()),
        }
    }
    Err(TalkError::Refused(format!(
        "the server answered `input_required` {MAX_ROUNDS} times without a result; mcpctl stops after {MAX_ROUNDS} rounds"
    )))
}

/// A result mcpctl could not read: a malformed `input_required` says so.
fn malformed(raw: &Value) -> TalkError {
    let input_required = raw.get("resultType").and_then(Value::as_str) == Some("input_required");
    if !input_required {
        return ServiceError::UnexpectedResponse.into();
    }
    let why = match serde_json::from_value::<InputRequiredResult>(raw.clone()) {
        Err(e) => e.to_string(),
        Ok(_) => "its shape is not one mcpctl knows".into(),
    };
    TalkError::Refused(format!(
        "the server's `input_required` result is malformed: {why}"
    ))
}

/// Answer one `input_required` result: each elicitation asked of `talk`,
/// roots from the caller (else the connection), sampling asked of the
/// caller's model (refused when it has none). Returns the responses and
/// the request state to echo.
async fn fulfil(
    asked: InputRequiredResult,
    talk: &Talk,
    roots: &[Root],
) -> Result<(Option<BTreeMap<String, Value>>, Option<String>), TalkError> {
    let mut responses = BTreeMap::new();
    for (key, request) in asked.input_requests.unwrap_or_default() {
        let response = match request {
            InputRequest::Elicitation(request) => {
                let params = serde_json::to_value(&request.params)
                    .map_err(|e| TalkError::Refused(format!("unreadable elicitation: {e}")))?;
                check_question(&params).map_err(TalkError::Refused)?;
                talk.ask(params).await
            }
            InputRequest::ListRoots(_) => {
                serde_json::to_value(ListRootsResult::new(roots.to_vec())).unwrap_or(Value::Null)
            }
            InputRequest::CreateMessage(request) => {
                let params = serde_json::to_value(&request.params)
                    .map_err(|e| TalkError::Refused(format!("unreadable sampling request: {e}")))?;
                talk.sample(params).await.map_err(|why| {
                    TalkError::Refused(format!(
                        "the server asked for a model completion (sampling/createMessage): {why}"
                    ))
                })?
            }
            _ => {
                return Err(TalkError::Refused(format!(
                    "the server asked for input `{key}` of a kind mcpctl does not know"
                )));
            }
        };
        responses.insert(key, response);
    }
    Ok((
        (!responses.is_empty()).then_some(responses),
        asked.request_state,
    ))
}

/// Why `params` (an `elicitation/create`'s) must not be put to a person,
/// or `Ok`: a form is a flat object of at most [`MAX_FIELDS`] primitive
/// fields (string, number, integer, boolean, or an enum of strings, or an
/// array of one); a URL is http(s).
pub fn check_question(params: &Value) -> Result<(), String> {
    let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
    if mode == "url" {
        let url = params.get("url").and_then(Value::as_str).unwrap_or("");
        return match url::Url::parse(url) {
            Ok(u) if matches!(u.scheme(), "https" | "http") => Ok(()),
            Ok(u) => Err(format!(
                "the server asked the user to open a `{}:` URL; only http(s) is shown",
                u.scheme()
            )),
            Err(e) => Err(format!(
                "the server asked the user to open an invalid URL ({e})"
            )),
        };
    }
    let schema = params.get("requestedSchema");
    let props = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let Some(props) = props else {
        return Err("the server's elicitation has no `requestedSchema.properties` object".into());
    };
    if props.len() > MAX_FIELDS {
        return Err(format!(
            "the server asked for {} fields in one elicitation; mcpctl asks at most {MAX_FIELDS}",
            props.len()
        ));
    }
    for (name, field) in props {
        field_kind(field).map_err(|why| {
            format!(
                "the server's elicitation field `{}` {why}",
                crate::output::sanitize(name)
            )
        })?;
    }
    Ok(())
}

/// What a person is asked to type for one elicitation field.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// Free text.
    Text,
    /// A number (`integer` when whole numbers only).
    Number {
        /// Whole numbers only.
        integer: bool,
    },
    /// Yes or no.
    Boolean,
    /// One of these values.
    Choice(Vec<String>),
    /// Any of these values.
    Many(Vec<String>),
}

/// The [`FieldKind`] of a field's schema, or why it is not one the spec allows.
pub fn field_kind(field: &Value) -> Result<FieldKind, String> {
    let Some(obj) = field.as_object() else {
        return Err("is not a schema object".into());
    };
    if let Some(values) = enum_values(field) {
        return Ok(FieldKind::Choice(values));
    }
    match obj.get("type").and_then(Value::as_str) {
        Some("string") => Ok(FieldKind::Text),
        Some("number") => Ok(FieldKind::Number { integer: false }),
        Some("integer") => Ok(FieldKind::Number { integer: true }),
        Some("boolean") => Ok(FieldKind::Boolean),
        Some("array") => obj
            .get("items")
            .and_then(enum_values)
            .map(FieldKind::Many)
            .ok_or_else(|| "is an array whose items are not an enum of strings".into()),
        Some(other) => Err(format!(
            "has type `{}`, which elicitation does not allow",
            crate::output::sanitize(other)
        )),
        None => Err("has no type".into()),
    }
}

/// The string values of `enum`, or of `oneOf`/`anyOf` `const`s.
fn enum_values(schema: &Value) -> Option<Vec<String>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect();
    }
    let options = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    options
        .iter()
        .map(|o| o.get("const").and_then(Value::as_str).map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thousand_fields_are_refused() {
        let props: serde_json::Map<String, Value> = (0..1000)
            .map(|i| (format!("f{i}"), json!({"type": "string"})))
            .collect();
        let params = json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": props}});
        assert!(check_question(&params).unwrap_err().contains("1000 fields"));
    }

    #[test]
    fn nested_objects_and_odd_urls_are_refused() {
        let nested = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "object"}}}});
        assert!(check_question(&nested).unwrap_err().contains("`object`"));
        let url = json!({"mode": "url", "message": "m", "url": "file:///etc/passwd", "elicitationId": "1"});
        assert!(check_question(&url).unwrap_err().contains("`file:`"));
        let ok = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {"c": {"type": "string", "enum": ["a", "b"]}, "n": {"type": "integer"}}}});
        assert!(check_question(&ok).is_ok());
    }
}
