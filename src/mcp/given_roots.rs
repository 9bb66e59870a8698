//! The roots a server was last given, so that a call whose caller offers
//! other roots (an agent behind `serve`) first tells the server they
//! changed (`notifications/roots/list_changed`) and lets it ask again: a
//! server that caches its roots, as server-everything does, then sees the
//! caller's, not the supervisor's working directory.

// Roots are deprecated by SEP-2577 but part of the protocol versions
// mcpctl speaks.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::Root;
use tokio::sync::Notify;

/// How long a call waits for a server told its roots changed to ask again.
const SETTLE: Duration = Duration::from_millis(1000);

/// How long the answer to that `roots/list` is given to reach the server
/// before the call that needs it (it is handed to the transport after the
/// handler returns).
const FLUSH: Duration = Duration::from_millis(20);

/// The roots last given to one server; clones share them.
#[derive(Clone, Default)]
pub struct GivenRoots {
    state: Arc<Mutex<State>>,
    answered: Arc<Notify>,
}

#[derive(Default)]
struct State {
    given: Option<Vec<Root>>,
    /// Whether the server asked again after being told the roots changed
    /// (`None`: not known yet); one that does not is not waited for again.
    relists: Option<bool>,
}

impl GivenRoots {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Record that the server was given `roots` (its `roots/list` answer).
    pub fn gave(&self, roots: &[Root]) {
        self.lock().given = Some(roots.to_vec());
        self.answered.notify_waiters();
    }

    /// Before a call whose caller offers `roots`: when the server was last
    /// given others, tell it the roots changed and wait (at most
    /// [`SETTLE`], and only while the server is known to ask again) until
    /// it has the new ones.
    pub async fn sync(&self, peer: &rmcp::Peer<RoleClient>, roots: &[Root]) {
        let wait = {
            let state = self.lock();
            if state.given.as_deref() == Some(roots) {
                return;
            }
            state.relists != Some(false)
        };
        let notified = self.answered.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if peer.notify_roots_list_changed().await.is_err() || !wait {
            return;
        }
        let settled = tokio::time::timeout(SETTLE, async {
            loop {
                notified.as_mut().await;
                if self.lock().given.as_deref() == Some(roots) {
                    return;
                }
                notified.set(self.answered.notified());
                notified.as_mut().enable();
            }
        })
        .await;
        self.lock().relists = Some(settled.is_ok());
        if settled.is_ok() {
            tokio::time::sleep(FLUSH).await;
        }
    }
}
