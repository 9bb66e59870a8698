//! A call that talks back, relayed between the server and the CLI that
//! made it ([`Op::Talk`]), and the watch on every call's caller.
//!
//! While the owner's call runs, what the server asks (an elicitation,
//! from the 2025-11-25 request or a 2026-07-28 `input_required`) goes to
//! the caller as an interim [`Body::Asked`] reply, and its [`Op::Answer`]
//! comes back on the same connection; progress goes as [`Body::Progress`].
//! A caller whose [`Relay`] asks for them also gets sampling requests
//! ([`Body::Sampling`], answered or refused with [`Op::Refuse`]) and log
//! messages ([`Body::Log`]), and its roots answer `roots/list`.
//! A plain [`Op::Call`] gets no interim frames and its questions are
//! declined. Either way, a caller that disconnects drops the call, which
//! sends `notifications/cancelled` upstream (or closes the request stream
//! in the stateless era). Requests that arrive meanwhile are kept for the
//! connection loop, in order.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde_json::Value;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::{mpsc, oneshot};

use super::owner::Owner;
use super::protocol::{
    self, Body, CallRequest, ErrorCode, FrameError, Op, Outcome, Relay, Reply, Request, WireError,
};
use crate::defs::redact::Redactor;
use crate::mcp::interim::{self, Inbox, Interim};
use crate::mcp::talk::{Question, Sample, Talk};

/// Frames read from the caller by the connection's reader task.
pub type Frames = mpsc::Receiver<Result<Vec<u8>, FrameError>>;

/// Where the answer to a numbered question goes.
enum Waiting {
    /// An elicitation: an `ElicitResult`.
    Elicit(oneshot::Sender<Value>),
    /// A sampling request: a `CreateMessageResult`, or why not.
    Sample(oneshot::Sender<Result<Value, String>>),
}

impl Waiting {
    /// Pass on the caller's answer (`Ok`) or refusal (`Err`).
    fn settle(self, answer: Result<Value, String>) {
        match self {
            Waiting::Elicit(reply) => {
                let _ = reply.send(answer.unwrap_or_else(|_| crate::mcp::talk::decline()));
            }
            Waiting::Sample(reply) => {
                let _ = reply.send(answer);
            }
        }
    }
}

/// The receiving ends of one relayed call's [`Talk`]: progress and log
/// messages in one bounded [`Inbox`], so a caller that reads slowly costs
/// the supervisor a bounded amount of memory.
struct Lines {
    asked: mpsc::Receiver<Question>,
    sampled: mpsc::Receiver<Sample>,
    said: Inbox,
}

/// The [`Talk`] for a call (relaying to the caller when `interactive`,
/// and sampling, logs and roots as its [`Relay`] asks), and its [`Lines`].
#[allow(deprecated)] // roots: see crate::mcp::talk
fn talk_for(interactive: bool, relay: Option<&Relay>) -> (Talk, Lines) {
    let (questions, asked) = mpsc::channel::<Question>(4);
    let (samples, sampled) = mpsc::channel::<Sample>(4);
    let (mailbox, said) = interim::mailbox();
    let lines = Lines {
        asked,
        sampled,
        said,
    };
    if !interactive {
        return (Talk::default(), lines);
    }
    let relay = relay.cloned().unwrap_or_default();
    let roots = relay.roots.map(|roots| {
        roots
            .into_iter()
            .filter_map(|r| serde_json::from_value::<rmcp::model::Root>(r).ok())
            .collect()
    });
    let logs = relay.logs.then(|| mailbox.clone());
    let talk = Talk::new(Some(questions), Some(mailbox)).relaying(
        relay.sampling.then_some(samples),
        logs,
        roots,
    );
    (talk, lines)
}

/// Run `req` on `owner` for request `id`, relaying to the caller when
/// `interactive`; frames that are not answers are pushed onto `stash`.
pub async fn call(
    owner: Arc<Owner>,
    id: u64,
    req: CallRequest,
    interactive: bool,
    wr: &mut OwnedWriteHalf,
    frames: &mut Frames,
    stash: &mut VecDeque<Result<Vec<u8>, FrameError>>,
) -> Result<Body, WireError> {
    let (talk, mut lines) = talk_for(interactive, req.relay.as_ref());
    let name = req.name.clone();
    let admitted = owner.admit_call(req)?;
    let redactor = admitted.redactor().clone();
    let call = owner.run_call(admitted, talk);
    tokio::pin!(call);
    let mut waiting: HashMap<u64, Waiting> = HashMap::new();
    let mut next = 0u64;
    let gone = || {
        WireError::new(
            ErrorCode::Failed,
            format!("the caller went away; the call to `{name}` was cancelled"),
        )
    };
    let mut reading = true;
    loop {
        let body = tokio::select! {
            // Progress and log messages first: every notification the
            // server sent before its result is already queued (see
            // `mcp::in_order`), so it all goes out before the result does.
            biased;
            Some(said) = lines.said.recv() => interim_body(said),
            done = &mut call => {
                drain(wr, id, &mut lines, &redactor).await.map_err(|_| gone())?;
                return done;
            }
            Some(q) = lines.asked.recv() => {
                next += 1;
                waiting.insert(next, Waiting::Elicit(q.reply));
                Body::Asked { question: next, params: q.params }
            }
            Some(q) = lines.sampled.recv() => {
                next += 1;
                waiting.insert(next, Waiting::Sample(q.reply));
                Body::Sampling { question: next, params: q.params }
            }
            frame = frames.recv(), if reading => {
                match frame {
                    Some(Ok(bytes)) => match serde_json::from_slice::<Request>(&bytes) {
                        Ok(Request { op: Op::Answer { question, result }, .. }) => {
                            if let Some(w) = waiting.remove(&question) {
                                w.settle(Ok(result));
                            }
                        }
                        Ok(Request { op: Op::Refuse { question, message }, .. }) => {
                            if let Some(w) = waiting.remove(&question) {
                                w.settle(Err(message));
                            }
                        }
                        _ => stash.push_back(Ok(bytes)),
                    },
                    // Closed: the caller is gone, and so is the call.
                    None | Some(Err(FrameError::Closed | FrameError::Io(_))) => return Err(gone()),
                    Some(Err(e)) => {
                        stash.push_back(Err(e));
                        reading = false;
                    }
                }
                continue;
            }
        };
        if send(wr, id, body, &redactor).await.is_err() {
            return Err(gone());
        }
    }
}

fn interim_body(said: Interim) -> Body {
    match said {
        Interim::Progress(p) => Body::Progress {
            progress: serde_json::to_value(p).unwrap_or(Value::Null),
        },
        Interim::Log(message) => Body::Log { message },
    }
}

/// Send the progress and log messages already received, in order,
/// before a call's final reply.
async fn drain(
    wr: &mut OwnedWriteHalf,
    id: u64,
    lines: &mut Lines,
    redactor: &Redactor,
) -> Result<(), FrameError> {
    while let Some(said) = lines.said.try_recv() {
        send(wr, id, interim_body(said), redactor).await?;
    }
    Ok(())
}

/// Send an interim frame, redacted first: every frame of a call but its
/// final reply (redacted by the owner) passes here.
async fn send(
    wr: &mut OwnedWriteHalf,
    id: u64,
    mut body: Body,
    redactor: &Redactor,
) -> Result<(), FrameError> {
    redact_interim(&mut body, redactor);
    let reply = Reply {
        id,
        outcome: Outcome::Result(body),
    };
    protocol::write_async(wr, &reply).await
}

/// Redact what a server said during a call with its definition's
/// secrets: a progress message, a log message (its `data`, which may be a
/// bare string), a question's text, fields and defaults, a sampling
/// request's messages; a server that quotes a `${VAR}` value in any of
/// them shows it to no caller and no agent behind `serve`.
fn redact_interim(body: &mut Body, redactor: &Redactor) {
    match body {
        Body::Progress { progress: value }
        | Body::Asked { params: value, .. }
        | Body::Sampling { params: value, .. } => redactor.apply_json(value),
        Body::Log { message } => {
            redactor.apply_json(message);
            // `apply_json` keeps string `data` as a payload; a log's is text.
            if let Some(data) = message.get_mut("data") {
                redactor.apply_json(data);
            }
        }
        _ => {}
    }
}
