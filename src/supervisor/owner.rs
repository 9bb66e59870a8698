//! One server's owner: its state machine, its connection, its catalog.
//!
//! States: `stopped → starting → ready ⇄ refreshing → stopping → stopped`,
//! plus `failed` (with the reason, exit code and stderr tail). A running
//! server whose definition changed on disk is reported as `changed` until
//! it is restarted. Lifecycle operations on one server are serialized by
//! an operation lock, so two racing `start`s produce one process: the
//! second waits and finds the server ready. Calls do not take that lock;
//! they go through a cloned rmcp peer so many can be in flight at once.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::{Peer, RoleClient};
use serde_json::Value;
use tokio::sync::watch;

use super::logs;
use super::protocol::{Body, CallRequest, ErrorCode, LastError, ServerStatus, ToolInfo, WireError};
use super::records::{self, Record};
use crate::defs::{RestartPolicy, ServerDef};
use crate::mcp::connection::DEFAULT_MAX_PAGES;
use crate::mcp::{ConnectError, ConnectOptions, Connection};

/// The default budget for a whole start (spawn, handshake, every page).
pub const START_BUDGET: Duration = Duration::from_secs(180);
/// The budget of a refresh (every `tools/list` page).
pub const REFRESH_BUDGET: Duration = Duration::from_secs(30);
/// Time between TERM and KILL on stop.
pub const STOP_GRACE: Duration = Duration::from_secs(5);
/// The default call timeout.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(60);
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

    fn record(&self, name: &str, pid: Option<u32>) {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        match pid.and_then(|p| records::proc_stat(p).map(|(start, _, _)| (p, start))) {
            Some((pid, start_time)) => {
                map.insert(
                    name.to_string(),
                    Record {
                        name: name.to_string(),
                        pid,
                        start_time,
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

/// The lifecycle state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not running.
    Stopped,
    /// Spawning, handshaking or listing tools.
    Starting,
    /// Discovery complete; calls are admitted.
    Ready,
    /// Re-listing tools; calls are still admitted against the old catalog.
    Refreshing,
    /// Closing admission and ending the process.
    Stopping,
    /// Exited or failed to start.
    Failed,
}

impl State {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Stopped => "stopped",
            State::Starting => "starting",
            State::Ready => "ready",
            State::Refreshing => "refreshing",
            State::Stopping => "stopping",
            State::Failed => "failed",
        }
    }
}

/// A published, complete tool catalog with compiled validators.
pub struct Snapshot {
    /// The catalog id.
    pub id: String,
    /// The tools, in server order.
    pub tools: Vec<Tool>,
    validators: HashMap<String, Result<Arc<jsonschema::Validator>, String>>,
}

impl Snapshot {
    fn new(id: String, tools: Vec<Tool>) -> Snapshot {
        let validators = tools
            .iter()
            .map(|t| {
                let schema = Value::Object((*t.input_schema).clone());
                (
                    t.name.to_string(),
                    crate::mcp::lint::compile(&schema).map(Arc::new),
                )
            })
            .collect();
        Snapshot {
            id,
            tools,
            validators,
        }
    }
}

/// A live connection and what calls need from it.
struct Live {
    conn: tokio::sync::Mutex<Connection>,
    peer: Peer<RoleClient>,
    closing: watch::Sender<bool>,
    binding_id: String,
    pid: Option<u32>,
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
    starts: VecDeque<Instant>,
    backoff_step: u32,
    generation: u64,
}

/// The owner of one server.
pub struct Owner {
    name: String,
    shared: Arc<Shared>,
    op: tokio::sync::Mutex<()>,
    inner: Mutex<Inner>,
    cancel_start: tokio::sync::Notify,
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn last_error(message: String, exit_code: Option<i32>, stderr_tail: Vec<String>) -> LastError {
    LastError {
        message,
        exit_code,
        stderr_tail,
        at: now_secs(),
    }
}

fn from_connect(err: &ConnectError) -> LastError {
    let (code, tail) = match err {
        ConnectError::ProcessExited {
            code, stderr_tail, ..
        } => (*code, stderr_tail.clone()),
        ConnectError::Timeout { stderr_tail, .. } => (None, stderr_tail.clone()),
        _ => (None, Vec::new()),
    };
    last_error(err.to_string(), code, tail)
}

fn failed(message: impl Into<String>) -> WireError {
    WireError::new(ErrorCode::Failed, message)
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
                starts: VecDeque::new(),
                backoff_step: 0,
                generation: 0,
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

    /// A status snapshot.
    pub fn status(&self) -> ServerStatus {
        let st = self.lock();
        let running = matches!(st.state, State::Ready | State::Refreshing);
        let state = if st.changed && running {
            "changed"
        } else {
            st.state.as_str()
        };
        ServerStatus {
            name: self.name.clone(),
            state: state.to_string(),
            enabled: st.def.enabled,
            transport: st.def.transport.as_str().to_string(),
            pid: st.live.as_ref().and_then(|l| l.pid),
            uptime_secs: st.ready_at.map(|t| t.elapsed().as_secs()),
            binding_id: st.live.as_ref().map(|l| l.binding_id.clone()),
            catalog_id: st.catalog.as_ref().map(|c| c.id.clone()),
            catalog_stale: st.catalog_stale,
            tools: st.catalog.as_ref().map(|c| c.tools.len()),
            restarts: st.restarts,
            last_error: st.last_error.clone(),
            log: self.log_path().display().to_string(),
        }
    }

    /// Take a new definition from a reload. Returns true when the server
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
                if def != st.def {
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
                    false
                }
            }
        }
    }

    /// Start and wait until ready (idempotent for a ready, unchanged server).
    ///
    /// A start racing another start waits for it and finds the server
    /// ready (one process); a start while the server is stopping is `busy`.
    pub async fn start(self: &Arc<Self>) -> Result<ServerStatus, WireError> {
        let _op = match self.op.try_lock() {
            Ok(guard) => guard,
            Err(_) if self.lock().state == State::Stopping => return Err(self.busy("stopping")),
            Err(_) => self.op.lock().await,
        };
        self.start_locked(true).await
    }

    fn busy(&self, what: &str) -> WireError {
        WireError::new(ErrorCode::Busy, format!("`{}` is {what}", self.name))
            .hint("wait for it to finish, then try again")
    }

    async fn start_locked(self: &Arc<Self>, manual: bool) -> Result<ServerStatus, WireError> {
        let def = {
            let mut st = self.lock();
            if st.removed {
                return Err(WireError::new(
                    ErrorCode::NotFound,
                    format!("no server named `{}`", self.name),
                ));
            }
            if !st.def.enabled {
                return Err(WireError::new(
                    ErrorCode::Conflict,
                    format!("`{}` is disabled", self.name),
                )
                .hint(format!("run `mcpctl enable {}` first", self.name)));
            }
            if st.live.is_some() {
                if st.changed {
                    return Err(WireError::new(
                        ErrorCode::Conflict,
                        format!("the definition of `{}` changed while it runs", self.name),
                    )
                    .hint(format!("run `mcpctl restart {}` to apply it", self.name)));
                }
                drop(st);
                return Ok(self.status());
            }
            if manual {
                st.backoff_step = 0;
                st.starts.clear();
                st.generation += 1;
            }
            st.starts.push_back(Instant::now());
            st.state = State::Starting;
            st.def.clone()
        };
        let log = self.log_path();
        logs::note(&log, &format!("starting `{}`", def.target()));
        let weak = Arc::downgrade(self);
        let binding_id = self.shared.new_id("b");
        let hook_binding = binding_id.clone();
        let handle = tokio::runtime::Handle::current();
        let on_change: crate::mcp::client::ToolsChanged = Arc::new(move || {
            let weak: Weak<Owner> = weak.clone();
            let binding = hook_binding.clone();
            handle.spawn(async move {
                if let Some(owner) = weak.upgrade() {
                    owner.refresh_binding(Some(&binding)).await.ok();
                }
            });
        });
        let budget = def.connect_timeout.unwrap_or(START_BUDGET);
        let opts = ConnectOptions {
            budget: Some(budget),
            kill_grace: STOP_GRACE,
            stderr_tee: Some(logs::tee(log.clone(), logs::MAX_LOG_BYTES)),
            on_tools_changed: Some(on_change),
            ..ConnectOptions::default()
        };
        let cancelled = self.cancel_start.notified();
        tokio::pin!(cancelled);
        cancelled.as_mut().enable();
        let attempt = async {
            match Connection::connect(&def, &opts).await {
                Ok((mut conn, deadline)) => {
                    match conn.list_tools(deadline, budget, DEFAULT_MAX_PAGES).await {
                        Ok(pages) => Ok((conn, pages)),
                        Err(e) => {
                            let err = from_connect(&e);
                            conn.close().await;
                            Err(err)
                        }
                    }
                }
                Err(e) => Err(from_connect(&e)),
            }
        };
        let connected = tokio::select! {
            r = attempt => r,
            _ = &mut cancelled => {
                // Dropping the attempt KILLs the child's group; tokio reaps
                // the child, and re-parented grandchildren are reaped here.
                tokio::spawn(reap_reparented());
                logs::note(&log, "start cancelled by stop");
                let mut st = self.lock();
                st.state = State::Stopped;
                return Err(WireError::new(
                    ErrorCode::Conflict,
                    format!("the start of `{}` was cancelled by a stop", self.name),
                ));
            }
        };
        let (conn, pages) = match connected {
            Ok(ok) => ok,
            Err(err) => {
                logs::note(&log, &format!("start failed: {}", err.message));
                let message = err.message.clone();
                let mut st = self.lock();
                st.state = State::Failed;
                st.last_error = Some(err);
                if !manual {
                    self.schedule_restart(&mut st);
                }
                return Err(failed(message).hint(format!("see `mcpctl logs {}`", self.name)));
            }
        };
        let Some(peer) = conn.peer_handle() else {
            return Err(failed("the connection closed during start"));
        };
        let pid = conn.pid();
        self.shared.record(&self.name, pid);
        let (closing, _) = watch::channel(false);
        let live = Arc::new(Live {
            conn: tokio::sync::Mutex::new(conn),
            peer,
            closing,
            binding_id: binding_id.clone(),
            pid,
        });
        let catalog = Snapshot::new(self.shared.new_id("c"), pages.tools);
        {
            let mut st = self.lock();
            st.state = State::Ready;
            st.live = Some(live.clone());
            st.catalog = Some(Arc::new(catalog));
            st.catalog_stale = false;
            st.ready_at = Some(Instant::now());
            st.changed = false;
            st.last_error = None;
        }
        let shown = pid.map_or("-".to_string(), |p| p.to_string());
        logs::note(&log, &format!("ready (pid {shown}, binding {binding_id})"));
        let me = self.clone();
        tokio::spawn(async move { me.monitor(live).await });
        Ok(self.status())
    }

    /// Watch for the process exiting (or the transport closing).
    async fn monitor(self: Arc<Self>, live: Arc<Live>) {
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
        self.shared.record(&self.name, None);
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
    fn schedule_restart(self: &Arc<Self>, st: &mut Inner) {
        if st.def.restart != RestartPolicy::OnFailure || !st.def.enabled || st.removed {
            return;
        }
        let now = Instant::now();
        while st
            .starts
            .front()
            .is_some_and(|t| now.duration_since(*t) > BURST_WINDOW)
        {
            st.starts.pop_front();
        }
        if st.starts.len() >= BURST_LIMIT {
            if let Some(err) = st.last_error.as_mut() {
                err.message.push_str(&format!(
                    " (restart limit: {BURST_LIMIT} starts in {} s; staying failed)",
                    BURST_WINDOW.as_secs()
                ));
            }
            return;
        }
        let delay = BACKOFF_FIRST
            .saturating_mul(1u32 << st.backoff_step.min(10))
            .min(BACKOFF_CAP);
        st.backoff_step += 1;
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

    /// Stop: close admission, fail in-flight calls, TERM the group, grace, KILL, reap.
    /// A start in progress is cancelled.
    pub async fn stop(self: &Arc<Self>) -> Result<ServerStatus, WireError> {
        if self.lock().state == State::Starting {
            self.cancel_start.notify_waiters();
        }
        let _op = self.op.lock().await;
        self.stop_locked().await;
        Ok(self.status())
    }

    async fn stop_locked(&self) {
        let live = {
            let mut st = self.lock();
            st.generation += 1;
            match st.live.take() {
                Some(live) => {
                    st.state = State::Stopping;
                    st.live = Some(live.clone());
                    live
                }
                None => {
                    st.state = State::Stopped;
                    return;
                }
            }
        };
        let _ = live.closing.send(true);
        let status = live.conn.lock().await.close().await;
        self.shared.record(&self.name, None);
        logs::note(
            &self.log_path(),
            &format!("stopped ({})", status.as_deref().unwrap_or("no process")),
        );
        let mut st = self.lock();
        st.state = State::Stopped;
        st.live = None;
        st.catalog = None;
        st.catalog_stale = false;
        st.ready_at = None;
        st.changed = false;
    }

    /// Stop then start: a new process, binding id and catalog id.
    pub async fn restart(self: &Arc<Self>) -> Result<ServerStatus, WireError> {
        let _op = self.op.lock().await;
        self.stop_locked().await;
        self.start_locked(true).await
    }

    /// Re-list tools; publish a new catalog only when complete.
    pub async fn refresh(self: &Arc<Self>) -> Result<ServerStatus, WireError> {
        self.refresh_binding(None).await
    }

    async fn refresh_binding(
        self: &Arc<Self>,
        binding: Option<&str>,
    ) -> Result<ServerStatus, WireError> {
        // Never queue a refresh behind another operation: say so instead.
        // (A refresh triggered by list_changed waits its turn instead, so
        // the change is never lost.)
        let _op = match self.op.try_lock() {
            Ok(guard) => guard,
            Err(_) if binding.is_some() => self.op.lock().await,
            Err(_) => {
                let state = self.lock().state;
                return Err(self.busy(state.as_str()));
            }
        };
        let live = {
            let mut st = self.lock();
            let live = match (&st.live, st.state) {
                (Some(live), State::Ready) => live.clone(),
                _ => {
                    return Err(WireError::new(
                        ErrorCode::Conflict,
                        format!(
                            "`{}` is {}, and only a ready server can be refreshed",
                            self.name,
                            st.state.as_str()
                        ),
                    )
                    .hint(format!("run `mcpctl start {}`", self.name)));
                }
            };
            if binding.is_some_and(|b| b != live.binding_id) {
                return Err(WireError::new(ErrorCode::Stale, "binding changed"));
            }
            st.state = State::Refreshing;
            live
        };
        let listed = {
            let mut conn = live.conn.lock().await;
            let deadline = Instant::now() + REFRESH_BUDGET;
            conn.list_tools(deadline, REFRESH_BUDGET, DEFAULT_MAX_PAGES)
                .await
        };
        let mut st = self.lock();
        if st.state == State::Refreshing {
            st.state = State::Ready;
        }
        match listed {
            Ok(pages) => {
                st.catalog = Some(Arc::new(Snapshot::new(
                    self.shared.new_id("c"),
                    pages.tools,
                )));
                st.catalog_stale = false;
                drop(st);
                Ok(self.status())
            }
            Err(e) => {
                st.catalog_stale = true;
                st.last_error = Some(from_connect(&e));
                Err(failed(format!(
                    "refresh failed; the old catalog is kept and marked stale: {e}"
                )))
            }
        }
    }

    /// The current catalog.
    pub fn tools(&self) -> Result<Body, WireError> {
        let st = self.lock();
        match (&st.live, &st.catalog) {
            (Some(live), Some(cat)) => Ok(Body::Tools {
                name: self.name.clone(),
                binding_id: live.binding_id.clone(),
                catalog_id: cat.id.clone(),
                stale: st.catalog_stale,
                tools: cat
                    .tools
                    .iter()
                    .map(|t| ToolInfo {
                        name: t.name.to_string(),
                        description: t.description.as_ref().map(|d| d.to_string()),
                        input_schema: Value::Object((*t.input_schema).clone()),
                    })
                    .collect(),
            }),
            _ => Err(self.not_ready(st.state)),
        }
    }

    fn not_ready(&self, state: State) -> WireError {
        WireError::new(
            ErrorCode::Conflict,
            format!("`{}` is {}, not ready", self.name, state.as_str()),
        )
        .hint(format!("run `mcpctl start {}`", self.name))
    }

    /// Call a tool: stale ids and invalid arguments fail before dispatch;
    /// one attempt, never retried.
    pub async fn call(&self, req: CallRequest) -> Result<Body, WireError> {
        let (live, catalog) = {
            let st = self.lock();
            match (&st.live, &st.catalog, st.state) {
                (Some(live), Some(cat), State::Ready | State::Refreshing) => {
                    (live.clone(), cat.clone())
                }
                _ => return Err(self.not_ready(st.state)),
            }
        };
        if let Some(b) = &req.binding_id
            && *b != live.binding_id
        {
            return Err(WireError::new(
                ErrorCode::Stale,
                format!(
                    "binding id {b} is stale; `{}` is now bound as {}",
                    self.name, live.binding_id
                ),
            )
            .hint(format!(
                "the server restarted; check `mcpctl tools {}` again",
                self.name
            )));
        }
        if let Some(c) = &req.catalog_id
            && *c != catalog.id
        {
            return Err(WireError::new(
                ErrorCode::Stale,
                format!(
                    "catalog id {c} is stale; the current catalog of `{}` is {}",
                    self.name, catalog.id
                ),
            )
            .hint(format!(
                "re-read the tools with `mcpctl tools {} --json`",
                self.name
            )));
        }
        if !catalog.tools.iter().any(|t| t.name == req.tool) {
            return Err(WireError::new(
                ErrorCode::NotFound,
                format!("`{}` has no tool `{}`", self.name, req.tool),
            )
            .hint(format!("list them with `mcpctl tools {}`", self.name)));
        }
        if req.validate {
            match catalog.validators.get(&req.tool) {
                Some(Ok(validator)) => {
                    let args = Value::Object(req.arguments.clone());
                    let errors: Vec<String> = validator
                        .iter_errors(&args)
                        .take(5)
                        .map(|e| {
                            let at = e.instance_path().to_string();
                            if at.is_empty() {
                                e.to_string()
                            } else {
                                format!("{at}: {e}")
                            }
                        })
                        .collect();
                    if !errors.is_empty() {
                        return Err(WireError::new(
                            ErrorCode::Invalid,
                            format!(
                                "arguments for `{}` do not match its inputSchema (not sent): {}",
                                req.tool,
                                errors.join("; ")
                            ),
                        )
                        .hint(format!(
                            "see the schema with `mcpctl tools {} --json`",
                            self.name
                        )));
                    }
                }
                Some(Err(why)) => {
                    return Err(WireError::new(
                        ErrorCode::Invalid,
                        format!("the inputSchema of `{}` cannot be compiled, so the arguments cannot be validated (not sent): {why}", req.tool),
                    )
                    .hint("pass --no-validate to send them unvalidated; the server should declare its $schema"));
                }
                None => {}
            }
        }
        let mut closing = live.closing.subscribe();
        if *closing.borrow() {
            return Err(WireError::new(
                ErrorCode::Conflict,
                format!("`{}` is stopping", self.name),
            ));
        }
        let timeout = req.timeout_ms.map_or(CALL_TIMEOUT, Duration::from_millis);
        let mut params = CallToolRequestParams::new(req.tool.clone());
        params = params.with_arguments(req.arguments);
        // A stop marks `closing` before it closes the transport, so when
        // both are ready the stop is what happened: say so.
        let result = tokio::select! {
            biased;
            _ = closing.wait_for(|c| *c) => {
                return Err(failed(format!("`{}` stopped before the call finished; it was not retried", self.name)));
            }
            r = tokio::time::timeout(timeout, live.peer.call_tool(params)) => r,
        };
        match result {
            Ok(Ok(result)) => Ok(Body::Call {
                binding_id: live.binding_id.clone(),
                catalog_id: catalog.id.clone(),
                result: serde_json::to_value(result).unwrap_or(Value::Null),
            }),
            Ok(Err(rmcp::ServiceError::McpError(data))) => Err(failed(format!(
                "`{}` answered tools/call with error {}: {}",
                self.name, data.code.0, data.message
            ))),
            Ok(Err(e)) => Err(failed(format!(
                "tools/call to `{}` failed: {e}; it was not retried",
                self.name
            ))),
            Err(_) => Err(WireError::new(
                ErrorCode::Timeout,
                format!(
                    "no answer from `{}` within {} s; the call was not retried",
                    self.name,
                    timeout.as_secs_f64()
                ),
            )
            .hint("raise --timeout, or check the server's logs")),
        }
    }
}

/// Reap zombies re-parented to the daemon (it is a subreaper) that are not
/// process-group leaders: leaders are tokio's children and tokio reaps
/// them; the rest are grandchildren of servers whose start was cancelled.
async fn reap_reparented() {
    use nix::sys::wait::{WaitPidFlag, waitpid};
    let me = std::process::id();
    for _ in 0..25 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return;
        };
        for pid in dir
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some((_, rest)) = stat.rsplit_once(')') else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            let zombie = f.first() == Some(&"Z");
            let ppid = f.get(1).and_then(|p| p.parse::<u32>().ok());
            let pgrp = f.get(2).and_then(|p| p.parse::<u32>().ok());
            if zombie && ppid == Some(me) && pgrp != Some(pid) {
                let _ = waitpid(
                    nix::unistd::Pid::from_raw(pid as i32),
                    Some(WaitPidFlag::WNOHANG),
                );
            }
        }
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
