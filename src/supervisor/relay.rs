//! A call that talks back, relayed between the server and the CLI that
//! made it ([`Op::Talk`]), and the watch on every call's caller.
//!
//! While the owner's call runs, what the server asks (an elicitation,
//! from the 2025-11-25 request or a 2026-07-28 `input_required`) goes to
//! the caller as an interim [`Body::Asked`] reply, and its [`Op::Answer`]
//! comes back on the same connection; progress goes as [`Body::Progress`].
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
    self, Body, CallRequest, ErrorCode, FrameError, Op, Outcome, Reply, Request, WireError,
};
use crate::mcp::talk::{Question, Talk};

/// Frames read from the caller by the connection's reader task.
pub type Frames = mpsc::Receiver<Result<Vec<u8>, FrameError>>;

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
    let (questions, mut asked) = mpsc::channel::<Question>(4);
    let (progress_tx, mut progress) = mpsc::unbounded_channel();
    let talk = if interactive {
        Talk::new(Some(questions), Some(progress_tx))
    } else {
        Talk::default()
    };
    let name = req.name.clone();
    let call = owner.call(req, talk);
    tokio::pin!(call);
    let mut waiting: HashMap<u64, oneshot::Sender<Value>> = HashMap::new();
    let mut next = 0u64;
    let gone = || {
        WireError::new(
            ErrorCode::Failed,
            format!("the caller went away; the call to `{name}` was cancelled"),
        )
    };
    let mut reading = true;
    loop {
        tokio::select! {
            // Progress first: every notification the server sent before
            // its result is already queued (see `mcp::in_order`), so it
            // all goes out before the result does.
            biased;
            Some(p) = progress.recv() => {
                if send_progress(wr, id, p).await.is_err() {
                    return Err(gone());
                }
            }
            done = &mut call => {
                while let Ok(p) = progress.try_recv() {
                    if send_progress(wr, id, p).await.is_err() {
                        return Err(gone());
                    }
                }
                return done;
            }
            Some(q) = asked.recv() => {
                next += 1;
                waiting.insert(next, q.reply);
                let body = Body::Asked { question: next, params: q.params };
                if send(wr, id, body).await.is_err() {
                    return Err(gone());
                }
            }
            frame = frames.recv(), if reading => match frame {
                Some(Ok(bytes)) => match serde_json::from_slice::<Request>(&bytes) {
                    Ok(Request { op: Op::Answer { question, result }, .. }) => {
                        if let Some(reply) = waiting.remove(&question) {
                            let _ = reply.send(result);
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
            },
        }
    }
}

async fn send_progress(
    wr: &mut OwnedWriteHalf,
    id: u64,
    p: rmcp::model::ProgressNotificationParam,
) -> Result<(), FrameError> {
    let body = Body::Progress {
        progress: serde_json::to_value(p).unwrap_or(Value::Null),
    };
    send(wr, id, body).await
}

async fn send(wr: &mut OwnedWriteHalf, id: u64, body: Body) -> Result<(), FrameError> {
    let reply = Reply {
        id,
        outcome: Outcome::Result(body),
    };
    protocol::write_async(wr, &reply).await
}
