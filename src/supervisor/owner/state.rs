//! The lifecycle state, the status snapshot, and how failures are recorded.

use std::time::{SystemTime, UNIX_EPOCH};

use super::Owner;
use crate::mcp::ConnectError;
use crate::supervisor::protocol::{ErrorCode, LastError, ServerStatus, WireError};

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

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

pub(super) fn last_error(
    message: String,
    exit_code: Option<i32>,
    stderr_tail: Vec<String>,
) -> LastError {
    LastError {
        message,
        exit_code,
        stderr_tail,
        at: now_secs(),
    }
}

pub(super) fn from_connect(err: &ConnectError) -> LastError {
    let (code, tail) = match err {
        ConnectError::ProcessExited {
            code, stderr_tail, ..
        } => (*code, stderr_tail.clone()),
        ConnectError::Timeout { stderr_tail, .. } => (None, stderr_tail.clone()),
        _ => (None, Vec::new()),
    };
    last_error(err.to_string(), code, tail)
}

pub(super) fn failed(message: impl Into<String>) -> WireError {
    WireError::new(ErrorCode::Failed, message)
}

impl Owner {
    /// A status snapshot.
    pub fn status(&self) -> ServerStatus {
        let mut st = self.lock();
        let running = matches!(st.state, State::Ready | State::Refreshing);
        let verdict = if running { self.verdict(&mut st) } else { None };
        let drifted = verdict.as_ref().is_some_and(|v| v.drifted());
        let state = if st.changed && running {
            "changed"
        } else if drifted {
            "drifted"
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
            tools: st.catalog.as_ref().map(|c| c.len()),
            restarts: st.restarts,
            last_error: st.last_error.clone(),
            log: self.log_path().display().to_string(),
            held_tools: held_tools(verdict.as_deref(), st.catalog.as_deref()),
            held_prompts: verdict
                .as_ref()
                .map(|v| v.held_prompts.keys().cloned().collect())
                .unwrap_or_default(),
            held_resource_templates: verdict
                .as_ref()
                .map(|v| v.held_templates.keys().cloned().collect())
                .unwrap_or_default(),
            sandbox: crate::defs::sandbox_kind::sandbox_kind(&st.def),
        }
    }

    pub(super) fn busy(&self, what: &str) -> WireError {
        WireError::new(ErrorCode::Busy, format!("`{}` is {what}", self.name))
            .hint("wait for it to finish, then try again")
    }

    pub(super) fn not_ready(&self, state: State) -> WireError {
        WireError::new(
            ErrorCode::Conflict,
            format!("`{}` is {}, not ready", self.name, state.as_str()),
        )
        .hint(format!("run `mcpctl start {}`", self.name))
    }
}

/// Every held tool, by name: those drifted from the lock and those the
/// server lists twice.
fn held_tools(
    verdict: Option<&crate::lock::guard::Verdict>,
    catalog: Option<&super::Snapshot>,
) -> Vec<String> {
    let mut names: std::collections::BTreeSet<String> = verdict
        .map(|v| v.held.keys().cloned().collect())
        .unwrap_or_default();
    names.extend(
        catalog
            .into_iter()
            .flat_map(|c| c.ambiguous_names().cloned()),
    );
    names.into_iter().collect()
}
