//! What a server says during a call (progress, log messages), queued for
//! a caller that may read slowly, in bounded memory.
//!
//! A server can send notifications far faster than its caller reads them
//! (an agent behind `serve` that does not read, `call --progress json |
//! sleep 95`); queued without bound they grew the supervisor by the whole
//! flood. Here they wait in arrival order, at most [`PROGRESS_KEPT`]
//! progress notifications and [`LOGS_KEPT`] log messages: beyond that a
//! progress notification replaces the latest queued one of its token
//! (a reader that lags needs only the latest), and a log message is
//! dropped and counted, the count reaching the caller as one log message
//! of mcpctl's own. Requests that need an answer (elicitation, sampling,
//! roots) and the call's result never pass here: they are never dropped.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rmcp::model::ProgressNotificationParam;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// Progress notifications kept for a caller that lags.
pub const PROGRESS_KEPT: usize = 256;

/// Log messages kept for a caller that lags; later ones are counted.
pub const LOGS_KEPT: usize = 256;

/// Bytes (as JSON) kept in all: a server's message may be megabytes, so
/// the counts alone would not bound the memory. Past it, progress is
/// coalesced and log messages are dropped as past the counts.
pub const BYTES_KEPT: usize = 4 * 1024 * 1024;

/// One thing a server said during a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Interim {
    /// A `notifications/progress`.
    Progress(ProgressNotificationParam),
    /// A `notifications/message`'s params.
    Log(Value),
}

#[derive(Default)]
struct State {
    queue: VecDeque<(Interim, usize)>,
    /// The JSON size of what is queued.
    bytes: usize,
    progress: usize,
    logs: usize,
    /// Log messages dropped since the caller last read one.
    dropped: u64,
    senders: usize,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    ready: Notify,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The server's side: where the connection puts what it hears.
pub struct Mailbox(Arc<Shared>);

/// The caller's side: what it has not read yet.
pub struct Inbox(Arc<Shared>);

/// A bounded queue for one call's interim messages.
pub fn mailbox() -> (Mailbox, Inbox) {
    let shared = Arc::new(Shared::default());
    shared.lock().senders = 1;
    (Mailbox(shared.clone()), Inbox(shared))
}

impl Clone for Mailbox {
    fn clone(&self) -> Self {
        self.0.lock().senders += 1;
        Mailbox(self.0.clone())
    }
}

impl Drop for Mailbox {
    fn drop(&mut self) {
        self.0.lock().senders -= 1;
        self.0.ready.notify_one();
    }
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox").finish_non_exhaustive()
    }
}

impl Mailbox {
    /// Queue a progress notification; over the bound it replaces the
    /// latest queued one of its token (else the oldest queued one).
    pub fn progress(&self, p: ProgressNotificationParam) {
        let size = json_size(&p);
        let mut state = self.0.lock();
        if state.progress >= PROGRESS_KEPT || state.bytes + size > BYTES_KEPT {
            let same = |(i, _): &(Interim, usize)| matches!(i, Interim::Progress(q) if q.progress_token == p.progress_token);
            let any = |(i, _): &(Interim, usize)| matches!(i, Interim::Progress(_));
            let at = state
                .queue
                .iter()
                .rposition(same)
                .or_else(|| state.queue.iter().position(any));
            if let Some(at) = at {
                let old = std::mem::replace(&mut state.queue[at], (Interim::Progress(p), size));
                state.bytes = state.bytes - old.1 + size;
                return;
            }
        }
        state.progress += 1;
        state.bytes += size;
        state.queue.push_back((Interim::Progress(p), size));
        drop(state);
        self.0.ready.notify_one();
    }

    /// Queue a log message, or count it as dropped over the bound.
    pub fn log(&self, params: Value) {
        let size = json_size(&params);
        let mut state = self.0.lock();
        if state.logs >= LOGS_KEPT || state.bytes + size > BYTES_KEPT {
            state.dropped += 1;
            return;
        }
        state.logs += 1;
        state.bytes += size;
        state.queue.push_back((Interim::Log(params), size));
        drop(state);
        self.0.ready.notify_one();
    }
}

impl Inbox {
    /// The next message, waiting for one; `None` once every [`Mailbox`]
    /// is gone and nothing is left.
    pub async fn recv(&mut self) -> Option<Interim> {
        loop {
            let notified = self.0.ready.notified();
            {
                let mut state = self.0.lock();
                if let Some(next) = take(&mut state) {
                    return Some(next);
                }
                if state.senders == 0 {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// The next message if one is queued.
    pub fn try_recv(&mut self) -> Option<Interim> {
        take(&mut self.0.lock())
    }
}

/// The dropped count (as mcpctl's own log message) first, else the oldest.
fn take(state: &mut State) -> Option<Interim> {
    if state.dropped > 0 {
        let dropped = std::mem::take(&mut state.dropped);
        return Some(Interim::Log(json!({
            "level": "warning",
            "logger": "mcpctl",
            "data": format!("{dropped} log messages from the server were dropped: the caller read too slowly"),
        })));
    }
    let (next, size) = state.queue.pop_front()?;
    state.bytes -= size;
    match next {
        Interim::Progress(_) => state.progress -= 1,
        Interim::Log(_) => state.logs -= 1,
    }
    Some(next)
}

/// How many bytes `value` takes as JSON.
fn json_size(value: &impl serde::Serialize) -> usize {
    serde_json::to_vec(value).map_or(0, |v| v.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{NumberOrString, ProgressToken};

    fn step(token: &str, i: usize) -> ProgressNotificationParam {
        ProgressNotificationParam::new(
            ProgressToken(NumberOrString::String(token.into())),
            i as f64,
        )
    }

    #[tokio::test]
    async fn a_flood_keeps_the_bound_the_order_and_the_last_step() {
        let (tx, mut rx) = mailbox();
        for i in 1..=10_000 {
            tx.progress(step("a", i));
            tx.log(json!({"level": "info", "data": i}));
        }
        drop(tx);
        let mut seen = Vec::new();
        while let Some(next) = rx.recv().await {
            seen.push(next);
        }
        let steps: Vec<f64> = seen
            .iter()
            .filter_map(|i| match i {
                Interim::Progress(p) => Some(p.progress),
                _ => None,
            })
            .collect();
        assert_eq!(steps.len(), PROGRESS_KEPT);
        assert_eq!(steps.last(), Some(&10_000.0));
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "in order");
        let notes: Vec<&Value> = seen
            .iter()
            .filter_map(|i| match i {
                Interim::Log(v) if v["logger"] == "mcpctl" => Some(v),
                _ => None,
            })
            .collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0]["data"]
                .as_str()
                .unwrap()
                .starts_with("9744 log messages")
        );
    }

    #[tokio::test]
    async fn huge_messages_are_bounded_by_their_bytes_too() {
        let (tx, mut rx) = mailbox();
        let big = "x".repeat(1024 * 1024);
        for i in 1..=20 {
            tx.progress(step("a", i).with_message(big.clone()));
            tx.log(json!({"level": "info", "data": big}));
        }
        let queued: usize = tx.0.lock().queue.iter().map(|(_, size)| size).sum();
        assert!(
            queued <= BYTES_KEPT + big.len() + 1024,
            "{queued} bytes queued"
        );
        drop(tx);
        let mut last = None;
        while let Some(next) = rx.recv().await {
            if let Interim::Progress(p) = next {
                last = Some(p.progress);
            }
        }
        assert_eq!(last, Some(20.0));
    }

    #[tokio::test]
    async fn a_reader_that_keeps_up_gets_everything() {
        let (tx, mut rx) = mailbox();
        for i in 1..=1_000 {
            tx.progress(step("a", i));
            assert_eq!(rx.recv().await, Some(Interim::Progress(step("a", i))));
        }
        drop(tx);
        assert_eq!(rx.recv().await, None);
    }
}
