//! Health: watch a live server for exiting (or ping a remote one), mark a
//! crash at once, and restart under `restart: on-failure` with backoff.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::{Peer, RoleClient};

use super::state::{State, last_error};
use super::{Inner, Live, Owner};
use crate::defs::RestartPolicy;
use crate::supervisor::logs;

/// How often a live server is checked for having exited.
pub const CRASH_POLL: Duration = Duration::from_millis(200);
/// How often a remote server (no process to watch) is pinged.
pub const REMOTE_PING: Duration = Duration::from_secs(2);
/// Consecutive failed pings after which a remote server is `failed`.
pub const REMOTE_MISSES: u32 = 2;
/// Restart policy: first backoff, cap, and burst limit.
pub const BACKOFF_FIRST: Duration = Duration::from_secs(1);
/// The longest backoff between automatic restarts.
pub const BACKOFF_CAP: Duration = Duration::from_secs(60);
/// At most this many starts within [`BURST_WINDOW`] under a restart policy.
pub const BURST_LIMIT: usize = 5;
/// The window of [`BURST_LIMIT`].
pub const BURST_WINDOW: Duration = Duration::from_secs(60);

/// When to restart a failed server: exponential backoff from
/// [`BACKOFF_FIRST`] to [`BACKOFF_CAP`], and no more than [`BURST_LIMIT`]
/// starts within [`BURST_WINDOW`]. Pure (time is passed in) so it is tested
/// without waiting.
#[derive(Debug, Default)]
pub struct Backoff {
    starts: VecDeque<Instant>,
    step: u32,
}

impl Backoff {
    /// Forget the history: an operator's own start begins a fresh burst.
    pub fn reset(&mut self) {
        self.starts.clear();
        self.step = 0;
    }

    /// Count a start made at `now` towards the burst limit.
    pub fn record_start(&mut self, now: Instant) {
        self.starts.push_back(now);
    }

    /// The wait before the next automatic start, or `None` when the burst
    /// limit is reached and the server should stay failed.
    pub fn next_delay(&mut self, now: Instant) -> Option<Duration> {
        while self
            .starts
            .front()
            .is_some_and(|t| now.duration_since(*t) > BURST_WINDOW)
        {
            self.starts.pop_front();
        }
        if self.starts.len() >= BURST_LIMIT {
            return None;
        }
        let delay = BACKOFF_FIRST
            .saturating_mul(1u32 << self.step.min(10))
            .min(BACKOFF_CAP);
        self.step += 1;
        Some(delay)
    }
}

impl Owner {
    /// Watch for the process exiting (or the transport closing).
    pub(super) async fn monitor(self: Arc<Self>, live: Arc<Live>) {
        let mut closing = live.closing.subscribe();
        let mut last_ping = Instant::now();
        let mut missed = 0;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(CRASH_POLL) => {}
                _ = closing.wait_for(|c| *c) => return,
            }
            if *live.closing.borrow() {
                return;
            }
            let exited = {
                let Ok(mut conn) = live.conn.try_lock() else {
                    continue;
                };
                match conn.exited_within(Duration::ZERO).await {
                    Some(status) => {
                        Some((crate::mcp::child::describe_status(&status), status.code()))
                    }
                    None if conn.transport_closed() => {
                        Some(("the connection closed".to_string(), None))
                    }
                    None => None,
                }
            };
            if let Some((what, code)) = exited {
                self.crashed(&live, what, code).await;
                return;
            }
            // A remote server has no process to watch: ping it now and then.
            if live.pid.is_none() && last_ping.elapsed() >= REMOTE_PING {
                last_ping = Instant::now();
                if ping(&live.peer).await {
                    missed = 0;
                } else {
                    missed += 1;
                }
                if missed >= REMOTE_MISSES {
                    let what = format!("it did not answer {REMOTE_MISSES} pings");
                    self.crashed(&live, what, None).await;
                    return;
                }
            }
        }
    }

    async fn crashed(self: &Arc<Self>, live: &Arc<Live>, what: String, code: Option<i32>) {
        // Mark it failed at once (status must show it within a second), then
        // clean up under the operation lock.
        let tail = {
            let conn = live.conn.lock().await;
            conn.stderr_tail()
        };
        {
            let mut st = self.lock();
            if !st.live.as_ref().is_some_and(|l| Arc::ptr_eq(l, live)) {
                return;
            }
            let _ = live.closing.send(true);
            st.state = State::Failed;
            st.last_error = Some(last_error(format!("the server exited: {what}"), code, tail));
        }
        let _op = self.op.lock().await;
        {
            let st = self.lock();
            if !st.live.as_ref().is_some_and(|l| Arc::ptr_eq(l, live)) {
                return;
            }
        }
        live.conn.lock().await.close().await;
        self.shared.record(&self.name, None, None);
        logs::note(&self.log_path(), &format!("exited: {what}"));
        let mut st = self.lock();
        st.live = None;
        st.catalog = None;
        st.ready_at = None;
        st.changed = false;
        self.schedule_restart(&mut st);
    }

    /// Under `restart: on-failure`, start again after a backoff, unless the
    /// burst limit was reached.
    pub(super) fn schedule_restart(self: &Arc<Self>, st: &mut Inner) {
        if st.def.restart != RestartPolicy::OnFailure || !st.def.enabled || st.removed {
            return;
        }
        let Some(delay) = st.backoff.next_delay(Instant::now()) else {
            if let Some(err) = st.last_error.as_mut() {
                err.message.push_str(&format!(
                    " (restart limit: {BURST_LIMIT} starts in {} s; staying failed)",
                    BURST_WINDOW.as_secs()
                ));
            }
            return;
        };
        let generation = st.generation;
        let me = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _op = me.op.lock().await;
            {
                let mut st = me.lock();
                if st.generation != generation || st.state != State::Failed {
                    return;
                }
                st.restarts += 1;
            }
            let _ = me.start_locked(false).await;
        });
    }
}

/// True when the server answers a `ping` (an error reply counts: it is alive).
async fn ping(peer: &Peer<RoleClient>) -> bool {
    let request = rmcp::model::ClientRequest::PingRequest(rmcp::model::PingRequest {
        method: Default::default(),
        extensions: Default::default(),
    });
    matches!(
        tokio::time::timeout(REMOTE_PING, peer.send_request(request)).await,
        Ok(Ok(_)) | Ok(Err(rmcp::ServiceError::McpError(_)))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_from_the_first_up_to_the_cap() {
        let mut b = Backoff::default();
        let now = Instant::now();
        let delays: Vec<u64> = (0..9)
            .map(|_| b.next_delay(now).expect("no starts recorded").as_secs())
            .collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    }

    #[test]
    fn the_burst_limit_stops_restarts_within_the_window() {
        let mut b = Backoff::default();
        let t0 = Instant::now();
        for i in 0..BURST_LIMIT as u64 {
            b.record_start(t0 + Duration::from_secs(i));
        }
        assert_eq!(b.next_delay(t0 + Duration::from_secs(10)), None);
        // Once the first start leaves the window, one more is allowed.
        let later = t0 + BURST_WINDOW + Duration::from_millis(1500);
        assert_eq!(b.next_delay(later), Some(BACKOFF_FIRST));
    }

    #[test]
    fn reset_forgets_starts_and_the_step() {
        let mut b = Backoff::default();
        let now = Instant::now();
        for _ in 0..BURST_LIMIT {
            b.record_start(now);
        }
        assert_eq!(b.next_delay(now), None);
        b.reset();
        b.record_start(now);
        assert_eq!(b.next_delay(now), Some(BACKOFF_FIRST));
        assert_eq!(b.next_delay(now), Some(BACKOFF_FIRST * 2));
    }
}
