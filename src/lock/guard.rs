//! The supervisor's side of the lock: which tools of a running server are
//! held back because they differ from its lockfile.
//!
//! Fail closed: when the definitions file has a lockfile, a tool, prompt
//! or resource template that is new, renamed or changed since the lock is
//! held (hidden from `tools` and from `serve`'s lists, refused by `call`
//! and `prompts/get`) until `mcpctl approve` updates the lock; entries that
//! match keep working. A server missing from the lock, or a lockfile that
//! cannot be read, holds every tool. Without a lockfile nothing is held.
//!
//! The verdict is cached against the lockfile's identity (inode, size,
//! modification time, owner and mode) and the catalog id, so an `approve` takes effect on
//! the next `tools` or `call` without any message to the supervisor.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rmcp::model::{Prompt, ResourceTemplate, Tool};

use super::canonical::{self, Pinned};
use super::diff::{Change, compare};
use super::file::ServerLock;

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
    /// Held prompts and why, by name.
    pub held_prompts: BTreeMap<String, String>,
    /// Held resource templates and why, by name.
    pub held_templates: BTreeMap<String, String>,
    /// Every difference in the catalog (removed entries included).
    pub changes: Vec<Change>,
    /// The server's locked block (`None`: not in the lock, or the lockfile
    /// cannot be used; then everything is held).
    pub locked: Option<ServerLock>,
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

    /// True when a prompt or resource template (`kind`, as a [`Change`]
    /// names it) listed now as `pinned` is the one the lock pins: a new or
    /// changed one is held, and everything is without a locked block.
    pub fn admits(&self, kind: &str, name: &str, pinned: &Pinned) -> bool {
        let Some(locked) = &self.locked else {
            return false;
        };
        let entries = match kind {
            "prompt" => &locked.prompts,
            "resource_template" => &locked.resource_templates,
            _ => &locked.tools,
        };
        entries.get(name).is_some_and(|p| p.hash == pinned.hash)
    }
}

/// What a server lists now, as the guard compares it.
#[derive(Debug, Clone, Copy)]
pub struct Listed<'a> {
    /// Every tool.
    pub tools: &'a [Tool],
    /// Every prompt.
    pub prompts: &'a [Prompt],
    /// Every resource template.
    pub templates: &'a [ResourceTemplate],
}

/// Compare a server's live catalog with its lockfile; `None` when there is
/// no lockfile for `definitions`. A lockfile another user could change is
/// not used (everything is held) unless `allow_insecure_file`.
pub fn evaluate(
    definitions: &Path,
    server: &str,
    listed: Listed<'_>,
    allow_insecure_file: bool,
) -> Option<Verdict> {
    let (path, stamp) = stamp(definitions);
    let (path, _) = (path?, stamp?);
    let hold_all = |why: String| {
        let all = |names: Vec<String>| names.into_iter().map(|n| (n, why.clone())).collect();
        Some(Verdict {
            lockfile: path.clone(),
            held: all(listed.tools.iter().map(|t| t.name.to_string()).collect()),
            held_prompts: all(listed.prompts.iter().map(|p| p.name.to_string()).collect()),
            held_templates: all(listed
                .templates
                .iter()
                .map(|t| t.name.to_string())
                .collect()),
            changes: vec![Change::NotLocked],
            locked: None,
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
    now.tools = super::tools(listed.tools);
    now.prompts = pins(
        listed
            .prompts
            .iter()
            .map(|p| (&*p.name, canonical::prompt(p))),
    );
    now.resource_templates = pins(
        listed
            .templates
            .iter()
            .map(|t| (&*t.name, canonical::template(t))),
    );
    let changes: Vec<Change> = compare(locked, &now, true)
        .into_iter()
        .filter(|c| c.entry_kind().is_some())
        .collect();
    let held = |kind: &str| {
        changes
            .iter()
            .filter_map(|c| c.held_entry(kind).map(|t| (t.to_string(), c.summary())))
            .collect()
    };
    Some(Verdict {
        lockfile: path,
        held: held("tool"),
        held_prompts: held("prompt"),
        held_templates: held("resource_template"),
        changes,
        locked: Some(locked.clone()),
    })
}

fn pins<'a>(entries: impl Iterator<Item = (&'a str, Pinned)>) -> BTreeMap<String, Pinned> {
    entries.map(|(n, p)| (n.to_string(), p)).collect()
}
