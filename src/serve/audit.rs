//! The audit log: one JSON line per agent call, in the state directory
//! beside the supervisor's socket (`<digest>.audit.jsonl`, 0600), rotated
//! to `.1` at [`crate::supervisor::logs::MAX_LOG_BYTES`]. It records who
//! called what and how it went, and the arguments' size; the argument
//! values only with `--audit-args`, since they may hold secrets.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::catalog::Exposed;
use super::settings::Settings;

/// The audit log of one `serve` run (shared by its sessions).
#[derive(Clone)]
pub struct Audit {
    file: Arc<Mutex<Option<File>>>,
    path: PathBuf,
    cap: u64,
    /// Record argument values too (`--audit-args`).
    pub with_args: bool,
}

/// One line of the log.
#[derive(Debug, Serialize)]
pub struct Record {
    /// When the call ended (RFC 3339, UTC, milliseconds).
    pub time: String,
    /// The profile served (`default` for the `tools` grants).
    pub profile: String,
    /// The agent's session (`stdio`, or the HTTP session id).
    pub session: String,
    /// The name the agent called.
    pub exposed: String,
    /// The server, when the name was known.
    pub server: Option<String>,
    /// The tool, when the name was known.
    pub tool: Option<String>,
    /// The catalog id the call named.
    pub catalog_id: Option<String>,
    /// Milliseconds from request to answer.
    pub duration_ms: f64,
    /// `ok`, `tool_error`, `refused` or `error: …`.
    pub outcome: String,
    /// Bytes of the JSON arguments.
    pub argument_bytes: usize,
    /// The arguments, only with `--audit-args`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

fn profile(settings: &Settings) -> String {
    settings.profile.clone().unwrap_or_else(|| "default".into())
}

impl Record {
    /// A call that reached the supervisor.
    pub fn call(
        settings: &Settings,
        session: &str,
        exposed: &Exposed,
        took: Duration,
        outcome: &str,
        argument_bytes: usize,
        arguments: Option<Value>,
    ) -> Record {
        Record {
            time: now(),
            profile: profile(settings),
            session: session.to_string(),
            exposed: super::naming::exposed(&exposed.server, &settings.separator, &exposed.tool),
            server: Some(exposed.server.clone()),
            tool: Some(exposed.tool.clone()),
            catalog_id: Some(exposed.catalog_id.clone()),
            duration_ms: (took.as_secs_f64() * 1_000_000.0).round() / 1000.0,
            outcome: outcome.to_string(),
            argument_bytes,
            arguments,
        }
    }

    /// A call to a name that is not exposed (unknown or not granted).
    pub fn refused(settings: &Settings, session: &str, name: &str) -> Record {
        Record {
            time: now(),
            profile: profile(settings),
            session: session.to_string(),
            exposed: name.to_string(),
            server: None,
            tool: None,
            catalog_id: None,
            duration_ms: 0.0,
            outcome: "refused".into(),
            argument_bytes: 0,
            arguments: None,
        }
    }
}

impl Audit {
    /// The audit log at `path` (created 0600 on first write).
    pub fn new(path: PathBuf, with_args: bool) -> Audit {
        Audit {
            file: Arc::new(Mutex::new(None)),
            path,
            cap: crate::supervisor::logs::MAX_LOG_BYTES,
            with_args,
        }
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one record; a log that cannot be written never fails a call.
    pub fn write(&self, record: &Record) {
        let Ok(mut line) = serde_json::to_string(record) else {
            return;
        };
        line.push('\n');
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let size = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if size > 0 && size + line.len() as u64 > self.cap {
            *guard = None;
            let mut rotated = self.path.as_os_str().to_owned();
            rotated.push(".1");
            let _ = std::fs::rename(&self.path, PathBuf::from(rotated));
        }
        if guard.is_none() {
            *guard = OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(&self.path)
                .ok();
        }
        if let Some(file) = guard.as_mut() {
            let _ = file.write_all(line.as_bytes());
        }
    }
}
