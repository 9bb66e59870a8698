//! A child's stderr: drained continuously, last lines kept for error reports.
//!
//! A child whose stderr pipe fills up blocks, so stderr must always be read.
//! `check` only needs the tail for error messages; the supervisor will also
//! want every line in a log file, so a [`StderrTail`] can carry a tee.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use crate::defs::redact::Redactor;

/// How many stderr lines are kept for error reports by default.
pub const DEFAULT_TAIL_LINES: usize = 40;

/// The longest stderr line passed on (to the tail and the log), in bytes.
/// The rest of a longer line is discarded up to its newline, so a server
/// that writes without newlines costs at most this much memory.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// Appended to a line cut at [`MAX_LINE_BYTES`].
pub const TRUNCATED: &str = " … [line truncated at 8 KiB]";

/// A callback that receives every stderr line, e.g. to append it to a log.
pub type StderrTee = Arc<dyn Fn(&str) + Send + Sync>;

/// A callback that may add a line of its own after a stderr line (the
/// sandbox's note on a refusal the line names).
pub type StderrAnnotator = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The last N lines a child wrote to stderr, shared between the draining
/// task and whoever reports an error.
#[derive(Clone)]
pub struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    capacity: usize,
    tee: Option<StderrTee>,
    redactor: Redactor,
    annotate: Option<StderrAnnotator>,
}

impl std::fmt::Debug for StderrTail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StderrTail")
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl StderrTail {
    /// A ring buffer of `capacity` lines, optionally teeing every line.
    pub fn new(capacity: usize, tee: Option<StderrTee>) -> Self {
        StderrTail {
            lines: Arc::new(Mutex::new(VecDeque::with_capacity(capacity))),
            capacity: capacity.max(1),
            tee,
            redactor: Redactor::default(),
            annotate: None,
        }
    }

    /// Add `annotate`'s line after each line it has something to say
    /// about, in the tail and the tee alike.
    pub fn annotating(mut self, annotate: Option<StderrAnnotator>) -> Self {
        self.annotate = annotate;
        self
    }

    /// Redact every line with `redactor` before it is kept or teed, so a
    /// server that prints an expanded secret never puts it in an error
    /// report or a log file.
    pub fn redacting(mut self, redactor: Redactor) -> Self {
        self.redactor = redactor;
        self
    }

    /// Record one line (without its newline).
    pub fn push(&self, line: &str) {
        let line = &self.redactor.apply(line);
        self.record(line);
        if let Some(note) = self.annotate.as_ref().and_then(|annotate| annotate(line)) {
            self.record(&note);
        }
    }

    fn record(&self, line: &str) {
        if let Some(tee) = &self.tee {
            tee(line);
        }
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == self.capacity {
            lines.pop_front();
        }
        // Keep error reports readable even if a server prints huge lines.
        lines.push_back(crate::text::truncate(line, 500));
    }

    /// A copy of the kept lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.iter().cloned().collect()
    }

    /// Drain `reader` line by line until EOF, recording every line.
    ///
    /// A line longer than [`MAX_LINE_BYTES`] is recorded as soon as it
    /// reaches the cap, marked [`TRUNCATED`], and the rest of it is read and
    /// discarded up to its newline. Returns when the pipe closes, i.e. when
    /// every process holding it exited.
    pub async fn drain(self, reader: impl AsyncRead + Unpin) {
        let mut reader = BufReader::new(reader);
        let mut line = Vec::with_capacity(256);
        let mut discarding = false;
        loop {
            let (used, ended) = match reader.fill_buf().await {
                Ok([]) | Err(_) => break,
                Ok(bytes) => {
                    let newline = bytes.iter().position(|&b| b == b'\n');
                    let part = &bytes[..newline.unwrap_or(bytes.len())];
                    if !discarding {
                        let room = MAX_LINE_BYTES - line.len();
                        line.extend_from_slice(&part[..part.len().min(room)]);
                        if part.len() > room {
                            self.push_bytes(&line, true);
                            line.clear();
                            discarding = true;
                        }
                    }
                    (newline.map_or(bytes.len(), |i| i + 1), newline.is_some())
                }
            };
            reader.consume(used);
            if ended {
                if !discarding {
                    self.push_bytes(&line, false);
                }
                line.clear();
                discarding = false;
            }
        }
        if !line.is_empty() && !discarding {
            self.push_bytes(&line, false);
        }
    }

    fn push_bytes(&self, line: &[u8], truncated: bool) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches('\r');
        if truncated {
            // Redacted before the cut is marked, and short of whatever may
            // be the start of a secret cut in two (attack3 S4).
            let redacted = self.redactor.apply(text);
            let mut keep = redacted.len().saturating_sub(self.redactor.cut_guard());
            while !redacted.is_char_boundary(keep) {
                keep -= 1;
            }
            self.push(&format!("{}{TRUNCATED}", &redacted[..keep]));
        } else {
            self.push(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_secret_cut_in_two_by_the_line_cap_leaves_no_prefix() {
        let secret = "Sup3rSecretValue-cut-by-the-cap-0123456789";
        crate::defs::redact::register_secret(secret);
        let mut input = vec![b'x'; MAX_LINE_BYTES - 12];
        input.extend_from_slice(secret.as_bytes());
        input.extend_from_slice(b" and more\n");
        let logged = Arc::new(Mutex::new(String::new()));
        let sink = logged.clone();
        let tail = StderrTail::new(
            10,
            Some(Arc::new(move |l: &str| *sink.lock().unwrap() = l.into())),
        );
        tail.clone().drain(&input[..]).await;
        let logged = logged.lock().unwrap().clone();
        assert!(logged.ends_with(TRUNCATED), "{logged}");
        assert!(
            !logged.contains("Sup3rSecr"),
            "{}",
            &logged[logged.len() - 80..]
        );
    }

    #[tokio::test]
    async fn long_lines_are_cut_and_the_rest_discarded() {
        let mut input = vec![b'x'; MAX_LINE_BYTES * 3];
        input.extend_from_slice(b"\nnext\nlast without newline");
        let tail = StderrTail::new(10, None);
        tail.clone().drain(&input[..]).await;
        let lines = tail.lines();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].ends_with('…'), "kept lines are cut to 500 chars");
        assert_eq!(&lines[1..], ["next", "last without newline"]);
    }

    #[test]
    fn keeps_only_the_last_lines() {
        let tail = StderrTail::new(3, None);
        for i in 0..10 {
            tail.push(&format!("line {i}"));
        }
        assert_eq!(tail.lines(), vec!["line 7", "line 8", "line 9"]);
    }

    #[test]
    fn tee_sees_every_line() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let tail = StderrTail::new(
            1,
            Some(Arc::new(move |l: &str| {
                sink.lock().unwrap().push(l.to_string())
            })),
        );
        tail.push("a");
        tail.push("b");
        assert_eq!(*seen.lock().unwrap(), vec!["a", "b"]);
        assert_eq!(tail.lines(), vec!["b"]);
    }
}
