//! Start, stop and restart, serialized by the owner's operation lock.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::catalog::{Extras, Snapshot};
use super::state::{State, failed, from_connect};
use super::{Live, Owner};
use crate::defs::ServerDef;
use crate::defs::vars::{self, LaunchEnv};
use crate::mcp::connection::DEFAULT_MAX_PAGES;
use crate::mcp::{ConnectOptions, Connection, ToolPages};
use crate::supervisor::logs;
use crate::supervisor::protocol::{ErrorCode, LastError, ServerStatus, WireError};
use crate::supervisor::reap::reap_reparented;

/// The default budget for a whole start (spawn, handshake, every page).
pub const START_BUDGET: Duration = Duration::from_secs(180);
/// Time between TERM and KILL on stop.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

impl Owner {
    /// Expand the next launches' `${VAR}`s from `env` (the asking CLI's
    /// values), restarts under the restart policy included; `None` keeps
    /// what the last asker sent (or the daemon's environment if none did).
    pub fn set_launch_env(&self, env: Option<Arc<LaunchEnv>>) {
        if env.is_some() {
            self.lock().launch_env = env;
        }
    }

    /// Whether the last start allowed an insecure file (its definitions
    /// file, and so its lockfile: see [`crate::defs::trust`]).
    pub fn set_allow_insecure_file(&self, allow: bool) {
        self.lock().allow_insecure_file = allow;
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

    /// Start with the operation lock held: check the server may start,
    /// connect and list its tools (a stop cancels the attempt), then keep
    /// the connection as the live one. `manual` (not the restart policy)
    /// resets the backoff.
    pub(super) async fn start_locked(
        self: &Arc<Self>,
        manual: bool,
    ) -> Result<ServerStatus, WireError> {
        let Some((def, launch_env)) = self.begin_start(manual)? else {
            return Ok(self.status());
        };
        let log = self.log_path();
        logs::note(&log, &starting_line(&def));
        let binding_id = self.shared.new_id("b");
        let budget = def.connect_timeout.unwrap_or(START_BUDGET);
        let opts = self.connect_options(&binding_id, budget, &log);
        let cancelled = self.cancel_start.notified();
        tokio::pin!(cancelled);
        cancelled.as_mut().enable();
        let attempt = vars::with_launch_env(launch_env, connect_and_list(&def, &opts, budget));
        let connected = tokio::select! {
            r = attempt => r,
            _ = &mut cancelled => return Err(self.start_cancelled(&log)),
        };
        match connected {
            Ok((conn, listed)) => self.go_live(conn, listed, binding_id, &log),
            Err((err, spawn_hint)) => Err(self.start_failed(&log, err, spawn_hint, manual)),
        }
    }

    /// Mark the server starting, or say why it cannot start; `None` when
    /// it already runs (a start of a ready server is no error).
    fn begin_start(&self, manual: bool) -> Result<Option<Launch>, WireError> {
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
            return Ok(None);
        }
        if manual {
            st.backoff.reset();
            st.generation += 1;
        }
        st.backoff.record_start(Instant::now());
        st.state = State::Starting;
        Ok(Some((st.def.clone(), st.launch_env.clone())))
    }

    /// A start a stop cancelled: dropping the attempt KILLed the child's
    /// group and tokio reaps the child; re-parented grandchildren are
    /// reaped here.
    fn start_cancelled(&self, log: &std::path::Path) -> WireError {
        tokio::spawn(reap_reparented());
        self.shared.record(&self.name, None, None);
        logs::note(log, "start cancelled by stop");
        self.lock().state = State::Stopped;
        WireError::new(
            ErrorCode::Conflict,
            format!("the start of `{}` was cancelled by a stop", self.name),
        )
    }

    /// A start that failed: recorded as the last error, a restart
    /// scheduled when the policy started it, and the error for the caller.
    fn start_failed(
        self: &Arc<Self>,
        log: &std::path::Path,
        err: LastError,
        spawn_hint: Option<String>,
        manual: bool,
    ) -> WireError {
        self.shared.record(&self.name, None, None);
        logs::note(log, &format!("start failed: {}", err.message));
        let message = err.message.clone();
        let mut st = self.lock();
        st.state = State::Failed;
        st.last_error = Some(err);
        if !manual {
            self.schedule_restart(&mut st);
        }
        let logs_hint = format!("see `mcpctl logs {}`", self.name);
        failed(message).hint(match spawn_hint {
            Some(hint) => format!("{hint}; {logs_hint}"),
            None => logs_hint,
        })
    }

    /// Keep a connection that listed its tools as the live one: ready,
    /// with a new catalog, its pid recorded, and a monitor watching it.
    fn go_live(
        self: &Arc<Self>,
        conn: Connection,
        (pages, extras): (ToolPages, Extras),
        binding_id: String,
        log: &std::path::Path,
    ) -> Result<ServerStatus, WireError> {
        let Some(peer) = conn.peer_handle() else {
            self.shared.record(&self.name, None, None);
            return Err(failed("the connection closed during start"));
        };
        let pid = conn.pid();
        self.shared.record(&self.name, pid, conn.tag());
        let (closing, _) = watch::channel(false);
        let router = conn.router().clone();
        let redactor = conn.redactor().clone();
        let live = Arc::new(Live {
            conn: tokio::sync::Mutex::new(conn),
            peer,
            router,
            closing,
            binding_id: binding_id.clone(),
            pid,
            redactor,
        });
        let catalog = Snapshot::new(self.shared.new_id("c"), pages.tools).with_extras(extras);
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
        logs::note(log, &format!("ready (pid {shown}, binding {binding_id})"));
        let me = self.clone();
        tokio::spawn(async move { me.monitor(live).await });
        Ok(self.status())
    }

    /// How a start connects: its budget, the log its stderr goes to, a
    /// refresh of `binding_id` on `tools/list_changed`, and the pid
    /// recorded at spawn, not once ready (a supervisor killed mid-start
    /// leaves a record its successor ends the process by).
    fn connect_options(
        self: &Arc<Self>,
        binding_id: &str,
        budget: Duration,
        log: &std::path::Path,
    ) -> ConnectOptions {
        let weak = Arc::downgrade(self);
        let hook_binding = binding_id.to_string();
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
        let (recorder, name) = (self.shared.clone(), self.name.clone());
        let on_spawn: crate::mcp::connection::OnSpawn = Arc::new(move |pid, tag| {
            recorder.record(&name, Some(pid), Some(tag.to_string()));
        });
        ConnectOptions {
            budget: Some(budget),
            kill_grace: STOP_GRACE,
            stderr_tee: Some(logs::tee(log.to_path_buf(), logs::MAX_LOG_BYTES)),
            on_tools_changed: Some(on_change),
            router: Some(crate::mcp::talk::Router::default()),
            on_spawn: Some(on_spawn),
            ..ConnectOptions::default()
        }
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
        self.shared.record(&self.name, None, None);
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
        let (def, launch_env) = {
            let st = self.lock();
            (st.def.clone(), st.launch_env.clone())
        };
        let missing = vars::with_launch_env(launch_env, async { vars::first_missing(&def) });
        if let Some(err) = missing.await {
            return Err(
                WireError::new(ErrorCode::Invalid, format!("{err}; nothing was stopped"))
                    .hint(crate::error::Diagnostic::hint(&err).unwrap_or_default()),
            );
        }
        self.stop_locked().await;
        self.start_locked(true).await
    }
}

/// What a start launches: the definition and the `${VAR}` values to
/// expand it from.
type Launch = (ServerDef, Option<Arc<LaunchEnv>>);

/// Connect to `def` and list every page of its tools (and its prompts and
/// resource templates, for the lockfile guard) within `budget`; on
/// failure, the error to record and a hint when the spawn itself failed.
async fn connect_and_list(
    def: &ServerDef,
    opts: &ConnectOptions,
    budget: Duration,
) -> Result<(Connection, (ToolPages, Extras)), (LastError, Option<String>)> {
    let (mut conn, deadline) = Box::pin(Connection::connect(def, opts))
        .await
        .map_err(|e| (from_connect(&e), spawn_hint(&e)))?;
    match conn.list_tools(deadline, budget, DEFAULT_MAX_PAGES).await {
        Ok(pages) => {
            let extras = super::catalog::extras(&conn, deadline, budget).await;
            Ok((conn, (pages, extras)))
        }
        Err(e) => {
            let err = (from_connect(&e), spawn_hint(&e));
            conn.close().await;
            Err(err)
        }
    }
}

/// The hint for a server that could not be launched or exited at once,
/// which may only lack a variable: the supervisor's children inherit from
/// the supervisor's own environment, so `MCPCTL_INHERIT_ENV` counts when it
/// starts. `None` for other failures, whose hint is the log.
fn spawn_hint(err: &crate::mcp::ConnectError) -> Option<String> {
    use crate::mcp::ConnectError;
    matches!(
        err,
        ConnectError::LauncherMissing { .. }
            | ConnectError::SpawnFailed { .. }
            | ConnectError::Sandbox { .. }
            | ConnectError::ProcessExited { .. }
    )
    .then(|| crate::error::Diagnostic::hint(err))
    .flatten()
    .map(|hint| {
        format!(
            "{hint} (set it where the supervisor starts, then `mcpctl supervisor stop` and start again)"
        )
    })
}

/// The log's `starting` line, naming the sandbox the launch gets (a
/// refusal the server then hits is read against it).
fn starting_line(def: &ServerDef) -> String {
    use crate::defs::sandbox_kind::{SandboxKind, sandbox_kind};
    let target = def.target();
    match sandbox_kind(def) {
        Some(kind @ (SandboxKind::None | SandboxKind::Network | SandboxKind::Profile)) => format!(
            "starting `{target}` in sandbox {kind} (`mcpctl sandbox {}` shows its rules)",
            def.name
        ),
        Some(kind @ (SandboxKind::Off | SandboxKind::Unset)) => {
            format!("starting `{target}` unconfined (sandbox {kind})")
        }
        _ => format!("starting `{target}`"),
    }
}
