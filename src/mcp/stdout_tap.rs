//! Watches a stdio server's stdout for what rmcp would silently skip.
//!
//! rmcp skips unparsable lines and drops lines over its own size cap, which
//! turns a server that prints a banner on stdout, or one reply too large to
//! read, into a mysterious timeout. The tap passes every byte through
//! unchanged and remembers the first line that cannot be a JSON-RPC message;
//! a line longer than [`MAX_REPLY_BYTES`] ends the stream at once. Either
//! (and a reply to a request never sent, see [`super::reply_ids`]) wakes
//! whoever waits in [`TapState::problem`], so the failure is named when it
//! happens instead of when the budget runs out.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::watch;

use super::error::{ConnectError, Phase};

/// How much of an offending line is kept.
const SAMPLE: usize = 200;

/// The largest JSON-RPC message read from a stdio server, in bytes.
///
/// Below rmcp's own 16 MiB line cap (which drops a longer line and waits on),
/// so that an oversized reply fails at once, after buffering at most this much.
pub const MAX_REPLY_BYTES: usize = 16_000_000;

/// What made the stream unusable, in the order it was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TapProblem {
    /// A line that is not JSON (the first one, cut to 200 bytes).
    Garbage(String),
    /// A line longer than [`MAX_REPLY_BYTES`].
    Oversized,
    /// A response whose id answers no request that was sent.
    UnknownId(String),
}

/// What the tap saw, shared with the connection that reports errors.
#[derive(Debug)]
pub struct TapState {
    problem: Mutex<Option<TapProblem>>,
    seen: watch::Sender<bool>,
}

impl Default for TapState {
    fn default() -> Self {
        TapState {
            problem: Mutex::new(None),
            seen: watch::Sender::new(false),
        }
    }
}

impl TapState {
    /// The first stdout line that was not JSON, if any.
    pub fn first_garbage(&self) -> Option<String> {
        match self.current() {
            Some(TapProblem::Garbage(line)) => Some(line),
            _ => None,
        }
    }

    /// The first problem recorded, if any.
    pub fn current(&self) -> Option<TapProblem> {
        self.problem
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Record `problem` unless an earlier one was, and wake the waiters.
    pub fn record(&self, problem: TapProblem) {
        let mut slot = self.problem.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(problem);
            self.seen.send_replace(true);
        }
    }

    /// Resolves once a problem has been recorded (at once if one was).
    pub async fn problem(&self) {
        let mut seen = self.seen.subscribe();
        let _ = seen.wait_for(|seen| *seen).await;
    }

    /// The recorded problem as the error that names it, if any.
    pub fn failure(&self, server: &str, phase: Phase) -> Option<ConnectError> {
        let server = server.to_string();
        Some(match self.current()? {
            TapProblem::Garbage(line) => ConnectError::NonJsonStdout {
                server,
                phase,
                line,
            },
            TapProblem::Oversized => ConnectError::ReplyTooLarge {
                server,
                phase,
                limit_mb: MAX_REPLY_BYTES / 1_000_000,
            },
            TapProblem::UnknownId(id) => ConnectError::UnknownResponseId { server, phase, id },
        })
    }
}

/// An `AsyncRead` that forwards everything and inspects the start of each line.
pub struct StdoutTap<R> {
    inner: R,
    state: Arc<TapState>,
    /// The first bytes of the current line.
    line_start: Vec<u8>,
    at_line_start: bool,
    /// Bytes of the current line so far.
    line_len: usize,
    /// Set once a line passed [`MAX_REPLY_BYTES`]; every later read fails.
    oversized: bool,
}

impl<R> StdoutTap<R> {
    /// Wrap `inner`; inspect results through the returned state.
    pub fn new(inner: R) -> (Self, Arc<TapState>) {
        let state = Arc::new(TapState::default());
        (
            StdoutTap {
                inner,
                state: state.clone(),
                line_start: Vec::new(),
                at_line_start: true,
                line_len: 0,
                oversized: false,
            },
            state,
        )
    }

    fn observe(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                self.finish_line();
                continue;
            }
            self.line_len += 1;
            if self.line_len > MAX_REPLY_BYTES && !self.oversized {
                self.oversized = true;
                self.state.record(TapProblem::Oversized);
            }
            if self.at_line_start && self.line_start.len() < SAMPLE {
                self.line_start.push(b);
            }
        }
        // A line that already proves to be JSON needs no more bytes buffered.
        if self.at_line_start && self.line_start.iter().any(|b| !b.is_ascii_whitespace()) {
            let first = self.line_start.iter().find(|b| !b.is_ascii_whitespace());
            if first == Some(&b'{') || first == Some(&b'[') {
                self.at_line_start = false;
                self.line_start.clear();
            }
        }
    }

    fn finish_line(&mut self) {
        let text = String::from_utf8_lossy(&self.line_start).trim().to_string();
        let text = text.trim_start_matches('\u{feff}').to_string();
        if self.at_line_start
            && !text.is_empty()
            && !text.starts_with('{')
            && !text.starts_with('[')
        {
            self.state.record(TapProblem::Garbage(text));
        }
        self.line_start.clear();
        self.at_line_start = true;
        self.line_len = 0;
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for StdoutTap<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.oversized {
            return Poll::Ready(Err(too_large()));
        }
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = poll {
            let new = buf.filled()[before..].to_vec();
            self.observe(&new);
            if self.oversized {
                // Hand rmcp nothing more of it: the reader stops here.
                buf.set_filled(before);
                return Poll::Ready(Err(too_large()));
            }
        }
        poll
    }
}

fn too_large() -> std::io::Error {
    std::io::Error::other(format!(
        "reply larger than {} MB",
        MAX_REPLY_BYTES / 1_000_000
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn finds_the_first_non_json_line() {
        let input: &[u8] = b"{\"jsonrpc\":\"2.0\"}\nStarting server on stdio...\nmore\n";
        let (mut tap, state) = StdoutTap::new(input);
        let mut out = Vec::new();
        tap.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, input);
        assert_eq!(
            state.first_garbage().as_deref(),
            Some("Starting server on stdio...")
        );
    }

    #[tokio::test]
    async fn json_only_is_clean() {
        let input: &[u8] = b"{\"a\":1}\n\n  {\"b\":2}\n";
        let (mut tap, state) = StdoutTap::new(input);
        let mut out = Vec::new();
        tap.read_to_end(&mut out).await.unwrap();
        assert_eq!(state.first_garbage(), None);
    }
}
