//! One fetching command (`npm install`, `uv venv`, `uv pip install`) run
//! outside the sandbox, as the user: in a process group of its own,
//! registered like a server's (a Ctrl-C or a killed mcpctl ends it too),
//! stdin closed, stdout discarded, the last lines of its stderr kept
//! (redacted) for the error, and ended at the launch's deadline.

use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

use crate::defs::redact::Redactor;
use crate::mcp::stderr::StderrTail;
use crate::mcp::{escapes, groups, watchdog};

/// How many stderr lines of a failed fetch are shown.
const TAIL_LINES: usize = 15;

/// A command to run, fully spelled out.
#[derive(Debug)]
pub(super) struct Step<'a> {
    /// The launcher's own tool (`npm`, `uv`), resolved.
    pub program: &'a Path,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its whole environment (the server's, plus quieting variables).
    pub env: Vec<(String, String)>,
    /// Where it runs.
    pub cwd: &'a Path,
}

/// Why a step failed: its exit (or timeout) and the end of its stderr.
#[derive(Debug)]
pub(super) struct Failed {
    /// `npm exited with exit code 1`, `timed out after 30s`…
    pub detail: String,
    /// Its last stderr lines, redacted.
    pub tail: Vec<String>,
}

/// Ends the step's process group however the step ends (its future may be
/// dropped by an outer timeout): KILL, reap, and forget it.
struct Group {
    pgid: Pid,
    tag: String,
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = killpg(self.pgid, Signal::SIGKILL);
        while let Ok(status) = waitpid(
            Pid::from_raw(-self.pgid.as_raw()),
            Some(WaitPidFlag::WNOHANG),
        ) {
            if status == nix::sys::wait::WaitStatus::StillAlive {
                break;
            }
        }
        escapes::kill_now(&self.tag);
        watchdog::ended(&self.tag);
        groups::unregister(self.pgid);
    }
}

/// Run `step` to its end, or until `deadline`.
pub(super) async fn run(
    step: Step<'_>,
    deadline: Instant,
    redactor: &Redactor,
) -> Result<(), Failed> {
    let name = step
        .program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tag = escapes::new_tag();
    let mut cmd = tokio::process::Command::new(step.program);
    cmd.args(&step.args)
        .env_clear()
        .envs(step.env)
        .env(escapes::TAG_VAR, &tag)
        .current_dir(step.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = groups::spawn(&mut cmd, &tag).map_err(|e| Failed {
        detail: format!("cannot start {name}: {e}"),
        tail: Vec::new(),
    })?;
    let group = Group {
        pgid: Pid::from_raw(child.id().unwrap_or_default() as i32),
        tag,
    };
    let tail = StderrTail::new(TAIL_LINES, None).redacting(redactor.clone());
    let drain = child
        .stderr
        .take()
        .map(|pipe| tokio::spawn(tail.clone().drain(pipe)));
    let limit = deadline.saturating_duration_since(Instant::now());
    let waited = tokio::time::timeout(limit, child.wait()).await;
    drop(group);
    if let Some(drain) = drain {
        let _ = tokio::time::timeout(Duration::from_millis(500), drain).await;
    }
    let detail = match waited {
        Ok(Ok(status)) if status.success() => return Ok(()),
        Ok(Ok(status)) => format!(
            "{name} ended with {}",
            crate::mcp::child::describe_status(&status)
        ),
        Ok(Err(e)) => format!("waiting for {name}: {e}"),
        Err(_) => format!("{name} did not finish within the launch's budget"),
    };
    Err(Failed {
        detail,
        tail: tail.lines(),
    })
}
