//! The supervisor's side of the lock: which tools of a running server are
//! held back because they differ from its lockfile.
//!
//! Fail closed: when the definitions file has a lockfile, a tool that is
//! new, renamed or changed since the lock is held (hidden from `tools`,
//! refused by `call`) until `mcpctl approve` updates the lock; tools that
//! match keep working. A server missing from the lock, or a lockfile that
//! cannot be read, holds every tool. Without a lockfile nothing is held.
//!
//! The verdict is cached against the lockfile's identity (inode, size,
//! modification time, owner and mode) and the catalog id, so an `approve` takes effect on
//! the next `tools` or `call` without any message to the supervisor.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rmcp::model::Tool;

use super::diff::{Change, compare};

/// What identifies one version of a lockfile on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    ino: u64,
    len: u64,
    mtime_ns: i128,
    /// Owner and mode too: they decide whether the lockfile is used.
    uid: u32,
    mode: u32,
}

/// The lockfile of `definitions` and its current stamp (`None`: no lock).
pub fn stamp(definitions: &Path) -> (Option<PathBuf>, Option<Stamp>) {
    let Ok(path) = super::file::path_for(definitions) else {
        return (None, None);
    };
    let stamp = std::fs::metadata(&path).ok().map(|m| Stamp {
        ino: m.ino(),
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        uid: m.uid(),
        mode: m.mode(),
    });
    (Some(path), stamp)
}

/// A guarded server's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The lockfile compared against.
    pub lockfile: PathBuf,
    /// Held tools and why, by name.
    pub held: BTreeMap<String, String>,
    /// Every difference in the tool catalog (removed tools included).
    pub changes: Vec<Change>,
}

impl Verdict {
    /// True when the catalog differs from the lock in any way.
    pub fn drifted(&self) -> bool {
        !self.changes.is_empty() || !self.held.is_empty()
    }

    /// Why `tool` is held, if it is.
    pub fn held(&self, tool: &str) -> Option<&str> {
        self.held.get(tool).map(String::as_str)
    }
}

/// Compare a server's live tools with its lockfile; `None` when there is
/// no lockfile for `definitions`. A lockfile another user could change is
/// not used (every tool is held) unless `allow_insecure_file`.
pub fn evaluate(
    definitions: &Path,
    server: &str,
    tools: &[Tool],
    allow_insecure_file: bool,
) -> Option<Verdict> {
    let (path, stamp) = stamp(definitions);
    let (path, _) = (path?, stamp?);
    let hold_all = |why: String| {
        Some(Verdict {
            lockfile: path.clone(),
            held: tools
                .iter()
                .map(|t| (t.name.to_string(), why.clone()))
                .collect(),
            changes: vec![Change::NotLocked],
        })
    };
    let lock = match super::file::load(definitions, allow_insecure_file) {
        Ok(Some((_, lock))) => lock,
        Ok(None) => return None,
        Err(err) => return hold_all(format!("the lockfile cannot be used: {err}")),
    };
    let Some(locked) = lock.servers.get(server) else {
        return hold_all(format!("`{server}` is not in {}", path.display()));
    };
    let mut now = locked.clone();
    now.tools = super::tools(tools);
    let changes: Vec<Change> = compare(locked, &now, true)
        .into_iter()
        .filter(|c| {
            matches!(
                c,
                Change::Added { kind: "tool", .. }
                    | Change::Removed { kind: "tool", .. }
                    | Change::Renamed { kind: "tool", .. }
                    | Change::Changed { kind: "tool", .. }
            )
        })
        .collect();
    let held = changes
        .iter()
        .filter_map(|c| c.held_tool().map(|t| (t.to_string(), c.summary())))
        .collect();
    Some(Verdict {
        lockfile: path,
        held,
        changes,
    })
}
