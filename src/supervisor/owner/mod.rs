//! One server's owner: its state machine, its connection, its catalog.
//!
//! States: `stopped → starting → ready ⇄ refreshing → stopping → stopped`,
//! plus `failed` (with the reason, exit code and stderr tail). A running
//! server whose definition changed on disk is reported as `changed` until
//! it is restarted. Lifecycle operations on one server are serialized by
//! an operation lock, so two racing `start`s produce one process: the
//! second waits and finds the server ready. Calls do not take that lock;
//! they go through a cloned rmcp peer so many can be in flight at once.
//!
//! Each room owns one thing: `state` the state machine and status,
//! `lifecycle` start/stop/restart, `health` crash watching and restart
//! backoff, `catalog` the tool catalog and refresh, `call` call admission,
//! `guard` the lockfile verdict (tools that drifted are held back).

mod call;
mod catalog;
mod forward;
mod guard;
mod health;
mod lifecycle;
mod state;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rmcp::{Peer, RoleClient};
use tokio::sync::watch;

use super::logs;
use super::protocol::LastError;
use super::records::{self, Record};
use crate::defs::ServerDef;
use crate::defs::vars::LaunchEnv;
use crate::mcp::Connection;

pub use call::CALL_TIMEOUT;
pub use catalog::{REFRESH_BUDGET, Snapshot};
pub use health::{
    BACKOFF_CAP, BACKOFF_FIRST, BURST_LIMIT, BURST_WINDOW, Backoff, CRASH_POLL, REMOTE_MISSES,
    REMOTE_PING,
};
pub use lifecycle::{START_BUDGET, STOP_GRACE};
pub use state::State;

/// What every owner shares with the daemon: ids, logs, records.
pub struct Shared {
    /// Where per-server logs go.
    pub logs_dir: PathBuf,
    /// The records file (pid + start time per running server).
    pub records_path: PathBuf,
    records: Mutex<HashMap<String, Record>>,
    counter: AtomicU64,
    boot: u64,
}

impl Shared {
    /// State for a daemon whose logs and records live at these paths.
    pub fn new(logs_dir: PathBuf, records_path: PathBuf) -> Self {
        let boot = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Shared {
            logs_dir,
            records_path,
            records: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
            boot,
        }
    }

    /// A new id, unique across daemon restarts: `<prefix>-<boot>-<n>`.
    fn new_id(&self, prefix: &str) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{prefix}-{:x}-{n}", self.boot)
    }

    fn record(&self, name: &str, pid: Option<u32>, tag: Option<String>) {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        match pid.and_then(|p| crate::procfs::stat(p).map(|s| (p, s.start_time))) {
            Some((pid, start_time)) => {
                map.insert(
                    name.to_string(),
                    Record {
                        name: name.to_string(),
                        pid,
                        start_time,
                        tag,
                    },
                );
            }
            None => {
                map.remove(name);
            }
        }
        let list: Vec<Record> = map.values().cloned().collect();
        records::save(&self.records_path, &list);
    }
}

/// A live connection and what calls need from it.
struct Live {
    conn: tokio::sync::Mutex<Connection>,
    peer: Peer<RoleClient>,
    /// Routes elicitation and progress to the call in flight.
    router: crate::mcp::talk::Router,
    closing: watch::Sender<bool>,
    binding_id: String,
    pid: Option<u32>,
    /// The definition's secrets as the connection expanded them: every
    /// call's result and error is redacted with it before it leaves.
    redactor: crate::defs::redact::Redactor,
}

struct Inner {
    def: ServerDef,
    removed: bool,
    state: State,
    changed: bool,
    live: Option<Arc<Live>>,
    catalog: Option<Arc<Snapshot>>,
    catalog_stale: bool,
    ready_at: Option<Instant>,
    restarts: u32,
    last_error: Option<LastError>,
    backoff: health::Backoff,
    generation: u64,
    /// The `${VAR}` values of the last CLI that started it (memory only).
    launch_env: Option<Arc<LaunchEnv>>,
    /// The last start passed `--allow-insecure-file`: the lockfile is
    /// read even when another user could change it.
    allow_insecure_file: bool,
    /// The lockfile verdict on the current catalog (see `guard`).
    guard: Option<guard::Cached>,
}

/// The owner of one server.
pub struct Owner {
    name: String,
    shared: Arc<Shared>,
    op: tokio::sync::Mutex<()>,
    inner: Mutex<Inner>,
    cancel_start: tokio::sync::Notify,
}

impl Owner {
    /// An owner for `def`, stopped.
    pub fn new(def: ServerDef, shared: Arc<Shared>) -> Arc<Owner> {
        Arc::new(Owner {
            name: def.name.clone(),
            shared,
            op: tokio::sync::Mutex::new(()),
            cancel_start: tokio::sync::Notify::new(),
            inner: Mutex::new(Inner {
                def,
                removed: false,
                state: State::Stopped,
                changed: false,
                live: None,
                catalog: None,
                catalog_stale: false,
                ready_at: None,
                restarts: 0,
                last_error: None,
                backoff: health::Backoff::default(),
                generation: 0,
                launch_env: None,
                allow_insecure_file: false,
                guard: None,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The server's log file.
    pub fn log_path(&self) -> PathBuf {
        logs::log_path(&self.shared.logs_dir, &self.name)
    }

    /// True while a process or connection is held.
    pub fn is_running(&self) -> bool {
        self.lock().live.is_some()
    }

    /// The current definition (the new one if it changed while running).
    pub fn def(&self) -> ServerDef {
        self.lock().def.clone()
    }

    /// must be stopped (removed or disabled while running).
    pub fn update(&self, def: Option<ServerDef>) -> bool {
        let mut st = self.lock();
        match def {
            None => {
                st.removed = true;
                st.generation += 1;
                st.live.is_some()
            }
            Some(def) => {
                st.removed = false;
                if def.differs_for_launch(&st.def) {
                    let running = st.live.is_some();
                    if running && def.enabled {
                        st.changed = true;
                    }
                    let disable = running && !def.enabled;
                    if !def.enabled {
                        st.generation += 1;
                    }
                    st.def = def;
                    disable
                } else {
                    st.def = def;
                    false
                }
            }
        }
    }
}
