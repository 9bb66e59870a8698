//! An agent's `tools/call` as one supervisor [`Op::Talk`], with what the
//! server says during the call passed on to that agent: progress under
//! the agent's own progress token, log messages at or above the level the
//! agent set, elicitation asked of the agent (declined when it offers
//! none), sampling asked of the agent's model (only when it offers
//! sampling: the supervisor refuses it otherwise), and `roots/list`
//! answered with the agent's roots (sent with the call).
//!
//! Everything is done in the agent's request handler itself, never in a
//! spawned task, so over Streamable HTTP rmcp sends it on that request's
//! own response stream. The socket is read with a cancel-safe framer, so
//! the agent's `notifications/cancelled` can end the call at any moment:
//! the connection is dropped, and the supervisor cancels the call upstream.

// Logging, sampling and roots are deprecated by SEP-2577 but part of the
// protocol versions agents speak; serve passes them on.
#![allow(deprecated)]

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use rmcp::model::{ClientResult, ElicitRequest, LoggingLevel, ProgressToken, ServerRequest};
use rmcp::service::{Peer, RoleServer};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use tokio::net::unix::OwnedReadHalf;
use tokio_util::sync::CancellationToken;

use super::upstream::Upstream;
use crate::supervisor::SupervisorError;
use crate::supervisor::protocol::{
    self, Body, CallRequest, ErrorCode, FrameError, Op, Outcome, Relay, Reply, Request, WireError,
};

/// The agent behind one `tools/call`.
pub struct Agent {
    /// The agent's session.
    pub peer: Peer<RoleServer>,
    /// The `_meta.progressToken` of its request, if it wants progress.
    pub progress_token: Option<ProgressToken>,
    /// The level it set with `logging/setLevel` (`None`: every message).
    pub log_level: Option<LoggingLevel>,
    /// Cancelled when the agent cancels the request.
    pub cancelled: CancellationToken,
}

impl Agent {
    /// What the supervisor should relay for this agent (its roots, when
    /// it offers them, are read by the caller and passed in).
    pub fn relay(&self, roots: Option<Vec<Value>>) -> Relay {
        Relay {
            sampling: self
                .peer
                .peer_info()
                .is_some_and(|i| i.capabilities.sampling.is_some()),
            logs: true,
            roots,
        }
    }
}

/// Why a relayed call has no result.
#[derive(Debug)]
pub enum Ended {
    /// The supervisor's error, or no supervisor.
    Supervisor(SupervisorError),
    /// The agent cancelled it; nothing is to be answered.
    Cancelled,
}

/// Run `req` as a talk, passing interim frames to `agent`; the final body.
pub async fn call(upstream: &Upstream, req: CallRequest, agent: &Agent) -> Result<Body, Ended> {
    let line = upstream.talk_line().await.map_err(Ended::Supervisor)?;
    let id = line.next_id;
    let mut next_id = id + 1;
    let (mut rd, mut wr) = line.stream.into_split();
    let lost = |e: FrameError| Ended::Supervisor(upstream.unreachable(e.to_string()));
    let request = Request {
        id,
        op: Op::Talk(req),
    };
    protocol::write_async(&mut wr, &request)
        .await
        .map_err(lost)?;
    let mut framer = Framer::default();
    let mut pending = FuturesUnordered::new();
    let (outcome, next_id) = loop {
        tokio::select! {
            _ = agent.cancelled.cancelled() => return Err(Ended::Cancelled),
            Some(op) = pending.next(), if !pending.is_empty() => {
                // Answers get no reply; their ids only need to be new.
                let answer = Request { id: next_id, op };
                next_id += 1;
                protocol::write_async(&mut wr, &answer).await.map_err(lost)?;
            }
            frame = framer.next(&mut rd) => {
                let reply: Reply = serde_json::from_slice(&frame.map_err(lost)?)
                    .map_err(|e| lost(FrameError::Malformed(e)))?;
                match reply.outcome {
                    Outcome::Result(Body::Asked { question, params }) => {
                        pending.push(futures::future::Either::Left(ask(agent, question, params)));
                    }
                    Outcome::Result(Body::Sampling { question, params }) => {
                        pending.push(futures::future::Either::Right(sample(agent, question, params)));
                    }
                    Outcome::Result(Body::Progress { progress }) => progress_to(agent, progress).await,
                    Outcome::Result(Body::Log { message }) => log_to(agent, message).await,
                    outcome => break (outcome, next_id),
                }
            }
        }
    };
    // The exchange ended cleanly: the connection can serve another call.
    if pending.is_empty()
        && let Ok(stream) = rd.reunite(wr)
    {
        upstream.give_back(super::upstream::TalkLine { stream, next_id });
    }
    match outcome {
        Outcome::Result(body) => Ok(body),
        Outcome::Error(e) => Err(Ended::Supervisor(SupervisorError::Remote(e))),
    }
}

/// Reads whole frames; cancel-safe (what was read stays in the buffer).
#[derive(Default)]
struct Framer {
    buf: Vec<u8>,
}

impl Framer {
    async fn next(&mut self, rd: &mut OwnedReadHalf) -> Result<Vec<u8>, FrameError> {
        loop {
            if let Some(prefix) = self.buf.first_chunk::<4>() {
                let len = protocol::frame_len(*prefix)?;
                if self.buf.len() >= 4 + len {
                    let frame = self.buf[4..4 + len].to_vec();
                    self.buf.drain(..4 + len);
                    return Ok(frame);
                }
            }
            if rd.read_buf(&mut self.buf).await? == 0 {
                return Err(FrameError::Closed);
            }
        }
    }
}

/// An elicitation for the agent: asked when it offers elicitation (of
/// that mode), declined otherwise or when asking fails.
async fn ask(agent: &Agent, question: u64, params: Value) -> Op {
    let url = params.get("mode").and_then(Value::as_str) == Some("url");
    let offered = agent
        .peer
        .peer_info()
        .and_then(|i| i.capabilities.elicitation.clone())
        .is_some_and(|e| !url || e.url.is_some());
    let decline = || Op::Answer {
        question,
        result: crate::mcp::talk::decline(),
    };
    if !offered {
        return decline();
    }
    let Ok(request) = serde_json::from_value(params) else {
        return decline();
    };
    let request = ServerRequest::ElicitRequest(ElicitRequest::new(request));
    match agent.peer.send_request(request).await {
        Ok(ClientResult::ElicitResult(result)) => Op::Answer {
            question,
            result: serde_json::to_value(result).unwrap_or_else(|_| crate::mcp::talk::decline()),
        },
        _ => decline(),
    }
}

/// A sampling request for the agent's model (the supervisor sends it only
/// when the agent offers sampling); its refusal is passed on as such.
async fn sample(agent: &Agent, question: u64, params: Value) -> Op {
    let refuse = |message: String| Op::Refuse { question, message };
    let request = match serde_json::from_value(params) {
        Ok(request) => request,
        Err(e) => return refuse(format!("the sampling request is malformed: {e}")),
    };
    match agent.peer.create_message(request).await {
        Ok(result) => Op::Answer {
            question,
            result: serde_json::to_value(result).unwrap_or(Value::Null),
        },
        Err(rmcp::ServiceError::McpError(e)) => refuse(e.message.to_string()),
        Err(e) => refuse(format!("the agent did not answer: {e}")),
    }
}

/// A progress notification, under the agent's own token (none: dropped).
async fn progress_to(agent: &Agent, mut progress: Value) {
    let Some(token) = &agent.progress_token else {
        return;
    };
    progress["progressToken"] = serde_json::to_value(token).unwrap_or(Value::Null);
    if let Ok(param) = serde_json::from_value(progress) {
        let _ = agent.peer.notify_progress(param).await;
    }
}

/// A log message, when at or above the agent's level.
async fn log_to(agent: &Agent, message: Value) {
    let level = message.get("level").cloned().unwrap_or(Value::Null);
    let wanted = agent
        .log_level
        .map(|l| severity(&serde_json::to_value(l).unwrap_or(Value::Null)));
    if wanted.is_some_and(|w| severity(&level) < w) {
        return;
    }
    if let Ok(param) = serde_json::from_value(message) {
        let _ = agent.peer.notify_logging_message(param).await;
    }
}

/// RFC 5424 severity order of an MCP log level (unknown: the highest, so
/// a level mcpctl does not know is never filtered away).
fn severity(level: &Value) -> usize {
    const ORDER: [&str; 8] = [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ];
    level
        .as_str()
        .and_then(|l| ORDER.iter().position(|o| *o == l))
        .unwrap_or(ORDER.len())
}

/// The tool result an agent gets for arguments that fail the tool's
/// input schema (2025-11-25: a result with `isError`, so the model can
/// correct itself), or `None` when `err` is not that.
pub fn schema_refusal(err: &WireError) -> Option<Value> {
    (err.code == ErrorCode::Invalid).then(|| {
        json!({
            "content": [{"type": "text", "text": err.message}],
            "isError": true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_split_across_reads_and_a_cancelled_read_lose_nothing() {
        use tokio::io::AsyncWriteExt;
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let (mut rd, _wr) = a.into_split();
        let mut b = b;
        let frame = protocol::encode(&json!({"k": "v"})).unwrap();
        let mut framer = Framer::default();
        b.write_all(&frame[..3]).await.unwrap();
        // A read cancelled half-way keeps what it read.
        let early =
            tokio::time::timeout(std::time::Duration::from_millis(50), framer.next(&mut rd));
        assert!(early.await.is_err());
        b.write_all(&frame[3..]).await.unwrap();
        b.write_all(&frame).await.unwrap();
        for _ in 0..2 {
            let got = framer.next(&mut rd).await.unwrap();
            assert_eq!(
                serde_json::from_slice::<Value>(&got).unwrap(),
                json!({"k": "v"})
            );
        }
        drop(b);
        assert!(matches!(
            framer.next(&mut rd).await,
            Err(FrameError::Closed)
        ));
    }

    #[test]
    fn severities_follow_rfc_5424() {
        assert!(severity(&json!("debug")) < severity(&json!("info")));
        assert!(severity(&json!("error")) < severity(&json!("emergency")));
        assert!(severity(&json!("nonsense")) > severity(&json!("emergency")));
    }
}
