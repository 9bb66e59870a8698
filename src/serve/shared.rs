//! What every `serve` session shares: the run's [`Settings`], the supervisor
//! line, the grants and the catalog built from them, the connected agents
//! (told when that catalog changes) and the audit log. Below the session
//! handler ([`super::handler`]), the audit log and the prompts and
//! resources passed through, which all read it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::service::{Peer, RoleServer};

use super::audit::Audit;
use super::catalog::{Granted, View};
use super::settings::Settings;
use super::upstream::Upstream;

/// What every session shares: the supervisor line, the grants and the
/// current catalog, and the connected agents to notify.
pub struct Shared {
    /// The supervisor.
    pub upstream: Upstream,
    /// The run's settings.
    pub settings: Settings,
    state: Mutex<(Granted, Arc<View>)>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// The audit log, if one is kept.
    pub audit: Option<Audit>,
    /// True while granted servers are being started in the background.
    starting: tokio::sync::watch::Sender<bool>,
    /// What a rebuild outside the watcher changed, for it to tell agents.
    notice: Mutex<Changed>,
}

impl Shared {
    /// Read the grants and build the first catalog.
    pub fn new(
        upstream: Upstream,
        settings: Settings,
        audit: Option<Audit>,
    ) -> crate::error::Result<Shared> {
        let granted = Granted::load(
            &settings.sources,
            settings.profile.as_deref(),
            settings.start_all,
        )?;
        let view = View::build(&upstream, &granted, &settings.separator);
        Ok(Shared {
            upstream,
            settings,
            state: Mutex::new((granted, Arc::new(view))),
            peers: Mutex::new(Vec::new()),
            audit,
            starting: tokio::sync::watch::Sender::new(false),
            notice: Mutex::new(Changed::default()),
        })
    }

    /// The grants currently in force.
    pub fn granted(&self) -> Granted {
        self.state.lock().map(|s| s.0.clone()).unwrap_or_default()
    }

    /// True when a definition file changed since the grants were read.
    fn granted_outdated(&self) -> bool {
        self.state
            .lock()
            .map(|s| s.0.outdated(&self.settings.sources))
            .unwrap_or(true)
    }

    /// The current catalog.
    pub fn view(&self) -> Arc<View> {
        self.state.lock().map(|s| s.1.clone()).unwrap_or_default()
    }

    /// Re-read the grants when a definition file changed (always when
    /// `force`), rebuild the catalog, and say what agents would see
    /// differently. Blocking: call it from a blocking thread.
    pub fn rebuild_blocking(&self, force: bool) -> Changed {
        let old = self.view();
        let mut granted = self.granted();
        if granted.outdated(&self.settings.sources) {
            // A file that cannot be read right now (mid-edit by hand)
            // keeps the last good grants.
            if let Ok(fresh) = Granted::load(
                &self.settings.sources,
                self.settings.profile.as_deref(),
                self.settings.start_all,
            ) {
                granted = fresh;
            }
        } else if !force {
            return Changed::default();
        }
        let view = View::build(&self.upstream, &granted, &self.settings.separator);
        let changed = Changed {
            tools: view.fingerprint() != old.fingerprint(),
            passed_through: view.passed_through() != old.passed_through(),
        };
        if let Ok(mut state) = self.state.lock() {
            *state = (granted, Arc::new(view));
        }
        changed
    }

    /// [`Self::rebuild_blocking`] from async code, telling every agent what
    /// changed. Whichever session's request finds the change, all agents
    /// hear of it.
    pub async fn rebuild(self: &Arc<Self>, force: bool) {
        // The common case, nothing changed, costs a few `stat`s and no
        // thread hop: it runs before every agent call.
        if !force && !self.granted_outdated() {
            return;
        }
        let this = self.clone();
        let changed = tokio::task::spawn_blocking(move || this.rebuild_blocking(force))
            .await
            .unwrap_or_default();
        self.notify_all(changed).await;
    }

    /// Mark the background start of the granted servers as running, until
    /// the returned guard is dropped (a panic in between ends it too).
    /// Meanwhile `tools/list`, and a call of a tool not listed yet, wait
    /// for it: see [`Self::settled`].
    pub fn starting(&self) -> StartingGuard {
        self.starting.send_replace(true);
        StartingGuard(self.starting.clone())
    }

    /// Wait, at most `limit`, for the granted servers `serve` is starting
    /// (whose thread rebuilds the catalog from what started before it lets
    /// the waiters go, once for all of them). An agent that lists tools
    /// once, as most do, then sees every granted tool, as it would talking
    /// to the servers itself (which answer only once started); what is
    /// slower than `limit` still comes with `list_changed`.
    pub async fn settled(self: &Arc<Self>, limit: Duration) {
        let mut starting = self.starting.subscribe();
        if !*starting.borrow_and_update() {
            return;
        }
        let _ = tokio::time::timeout(limit, starting.wait_for(|s| !*s)).await;
    }

    /// Keep what a rebuild outside the watcher changed, for the watcher's
    /// next round to tell the agents ([`Self::take_notice`]).
    pub fn hold_notice(&self, changed: Changed) {
        if let Ok(mut notice) = self.notice.lock() {
            *notice = notice.merged(changed);
        }
    }

    /// What [`Self::hold_notice`] kept, now cleared.
    pub fn take_notice(&self) -> Changed {
        self.notice
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    /// Remember a connected agent, to tell it when the catalog changes.
    pub fn remember(&self, peer: Peer<RoleServer>) {
        if let Ok(mut peers) = self.peers.lock() {
            // Sessions that ended are forgotten here too, so a long-lived
            // `serve --http` does not collect them.
            peers.retain(|p| !p.is_transport_closed());
            peers.push(peer);
        }
    }

    /// Send every connected agent the `list_changed` notifications that
    /// `changed` calls for, forgetting agents that went away.
    pub async fn notify_all(&self, changed: Changed) {
        if !changed.tools && !changed.passed_through {
            return;
        }
        let peers: Vec<_> = self.peers.lock().map(|p| p.clone()).unwrap_or_default();
        for peer in &peers {
            // One agent that went away must not keep the others uninformed.
            if changed.tools {
                let _ = peer.notify_tool_list_changed().await;
            }
            if changed.passed_through {
                let _ = peer.notify_prompt_list_changed().await;
                let _ = peer.notify_resource_list_changed().await;
            }
        }
        if let Ok(mut list) = self.peers.lock() {
            list.retain(|p| !p.is_transport_closed());
        }
    }
}

/// Ends the background start [`Shared::starting`] began, when dropped.
pub struct StartingGuard(tokio::sync::watch::Sender<bool>);

impl Drop for StartingGuard {
    fn drop(&mut self) {
        self.0.send_replace(false);
    }
}

/// What a rebuild changed for agents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changed {
    /// The exposed tools (names, hashes or catalogs).
    pub tools: bool,
    /// The servers whose prompts and resources pass through, or their
    /// catalogs (a restart or refresh may bring other prompts too).
    pub passed_through: bool,
}

impl Changed {
    /// What either changed.
    pub fn merged(self, other: Changed) -> Changed {
        Changed {
            tools: self.tools || other.tools,
            passed_through: self.passed_through || other.passed_through,
        }
    }
}
