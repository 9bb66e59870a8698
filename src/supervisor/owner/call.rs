//! Call admission: stale ids and invalid arguments fail before dispatch;
//! one attempt, never retried; a stop fails the calls in flight. What the
//! server says during the call goes to the caller's [`Talk`]; a call that
//! is dropped (timeout, the caller went away) is cancelled upstream.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::Value;

use super::state::{State, failed};
use super::{Live, Owner, Snapshot};
use crate::defs::redact::Redactor;
use crate::mcp::talk::{self, Talk, TalkError};
use crate::supervisor::admit::{self, Lister};
use crate::supervisor::protocol::{Body, CallRequest, ErrorCode, WireError};

/// The default call timeout.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// A call admitted on the connection it is to run on (see
/// [`Owner::admit_call`]).
pub struct Admitted {
    req: CallRequest,
    live: Arc<Live>,
    catalog: Arc<Snapshot>,
}

impl Admitted {
    /// The secrets of the connection the call runs on: what the server
    /// says during the call (progress, log messages, questions, sampling
    /// requests) is redacted with them before it is passed on, as its
    /// result and error are.
    pub fn redactor(&self) -> &Redactor {
        &self.live.redactor
    }
}

impl Owner {
    /// Call a tool: stale ids and invalid arguments fail before dispatch;
    /// one attempt, never retried (see [`Owner::admit_call`] and
    /// [`Owner::run_call`]).
    pub async fn call(&self, req: CallRequest, talk: Talk) -> Result<Body, WireError> {
        let admitted = self.admit_call(req)?;
        self.run_call(admitted, talk).await
    }

    /// Admit a call on the live connection: the server is ready, the ids
    /// are current, the tool is known and not held, the arguments valid.
    pub fn admit_call(&self, req: CallRequest) -> Result<Admitted, WireError> {
        let (live, catalog) = {
            let st = self.lock();
            match (&st.live, &st.catalog, st.state) {
                (Some(live), Some(cat), State::Ready | State::Refreshing) => {
                    (live.clone(), cat.clone())
                }
                _ => return Err(self.not_ready(st.state)),
            }
        };
        self.admit(&req, &live, &catalog)?;
        Ok(Admitted { req, live, catalog })
    }

    /// Run an admitted call. The result or error is redacted with the
    /// definition's secrets before it leaves the supervisor, so a server
    /// quoting a `${VAR}` value reaches no caller, agent or log.
    pub async fn run_call(&self, admitted: Admitted, talk: Talk) -> Result<Body, WireError> {
        let Admitted { req, live, catalog } = admitted;
        match self.dispatch(req, talk, &live, &catalog).await {
            Ok(mut body) => {
                if let Body::Call { result, .. } = &mut body {
                    live.redactor.apply_json(result);
                }
                Ok(body)
            }
            Err(err) => Err(redacted(err, &live.redactor)),
        }
    }

    /// The checks before dispatch: ids current, tool known and not held,
    /// arguments valid.
    fn admit(&self, req: &CallRequest, live: &Live, catalog: &Snapshot) -> Result<(), WireError> {
        if let Some(b) = &req.binding_id
            && *b != live.binding_id
        {
            return Err(WireError::new(
                ErrorCode::Stale,
                format!(
                    "binding id {b} is stale; `{}` is now bound as {}",
                    self.name, live.binding_id
                ),
            )
            .hint(format!(
                "the server restarted; check `mcpctl tools {}` again",
                self.name
            )));
        }
        if let Some(c) = &req.catalog_id
            && *c != catalog.id
        {
            return Err(WireError::new(
                ErrorCode::Stale,
                format!(
                    "catalog id {c} is stale; the current catalog of `{}` is {}",
                    self.name, catalog.id
                ),
            )
            .hint(format!(
                "re-read the tools with `mcpctl tools {} --json`",
                self.name
            )));
        }
        self.refuse_held(&req.tool)?;
        if !catalog.contains(&req.tool) {
            return Err(admit::no_such_tool(
                &self.name,
                &req.tool,
                Lister::Supervisor,
            ));
        }
        if req.validate
            && let Some(compiled) = catalog.validator(&req.tool)
        {
            admit::check_arguments(
                &compiled,
                &self.name,
                &req.tool,
                &req.arguments,
                Lister::Supervisor,
            )?;
        }
        Ok(())
    }

    /// Send the admitted call and wait for its answer, a stop or the timeout.
    async fn dispatch(
        &self,
        req: CallRequest,
        talk: Talk,
        live: &Live,
        catalog: &Snapshot,
    ) -> Result<Body, WireError> {
        let mut closing = live.closing.subscribe();
        if *closing.borrow() {
            return Err(WireError::new(
                ErrorCode::Conflict,
                format!("`{}` is stopping", self.name),
            ));
        }
        let timeout = req.timeout_ms.map_or(CALL_TIMEOUT, Duration::from_millis);
        let mut params = CallToolRequestParams::new(req.tool.clone());
        params = params.with_arguments(req.arguments);
        let reason = format!("timed out after {} s", timeout.as_secs_f64());
        let call = talk::call_tool(&live.peer, &live.router, talk, params, &reason);
        // A stop marks `closing` before it closes the transport, so when
        // both are ready the stop is what happened: say so.
        let result = tokio::select! {
            biased;
            _ = closing.wait_for(|c| *c) => {
                return Err(failed(format!("`{}` stopped before the call finished; it was not retried", self.name)));
            }
            r = tokio::time::timeout(timeout, call) => r,
        };
        match result {
            Ok(Ok(result)) => Ok(Body::Call {
                binding_id: live.binding_id.clone(),
                catalog_id: catalog.id.clone(),
                result: serde_json::to_value(result).unwrap_or(Value::Null),
            }),
            Ok(Err(TalkError::Refused(why))) => Err(failed(format!(
                "mcpctl ended the call to `{}`: {why}",
                self.name
            ))
            .hint("nothing was retried; report the request to the server's authors")),
            Ok(Err(TalkError::Service(rmcp::ServiceError::McpError(data)))) => Err(failed(format!(
                "`{}` answered tools/call with error {}: {}",
                self.name, data.code.0, data.message
            ))),
            Ok(Err(e)) => Err(failed(format!(
                "tools/call to `{}` failed: {e}; it was not retried",
                self.name
            ))),
            Err(_) => Err(WireError::new(
                ErrorCode::Timeout,
                format!(
                    "no answer from `{}` within {} s; the server was told the call is cancelled, and it was not retried",
                    self.name,
                    timeout.as_secs_f64()
                ),
            )
            .hint("raise --timeout, or check the server's logs")),
        }
    }
}

/// `err` with the definition's secrets redacted from its message and hint.
pub(super) fn redacted(mut err: WireError, redactor: &Redactor) -> WireError {
    err.message = redactor.apply(&err.message);
    err.hint = err.hint.map(|h| redactor.apply(&h));
    err
}
