//! Watches a stdio server's stdout for lines that are not JSON-RPC.
//!
//! rmcp silently skips unparsable lines, which turns a server that prints a
//! banner on stdout into a mysterious timeout. The tap passes every byte
//! through unchanged and remembers the first line that cannot be a JSON-RPC
//! message, so the failure can be named.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// How much of an offending line is kept.
const SAMPLE: usize = 200;

/// What the tap saw, shared with the connection that reports errors.
#[derive(Debug, Default)]
pub struct TapState {
    first_garbage: Mutex<Option<String>>,
}

impl TapState {
    /// The first stdout line that was not JSON, if any.
    pub fn first_garbage(&self) -> Option<String> {
        self.first_garbage
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// An `AsyncRead` that forwards everything and inspects the start of each line.
pub struct StdoutTap<R> {
    inner: R,
    state: Arc<TapState>,
    /// The first bytes of the current line.
    line_start: Vec<u8>,
    at_line_start: bool,
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
            let mut slot = self
                .state
                .first_garbage
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = Some(text);
            }
        }
        self.line_start.clear();
        self.at_line_start = true;
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for StdoutTap<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = poll {
            let new = buf.filled()[before..].to_vec();
            self.observe(&new);
        }
        poll
    }
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
