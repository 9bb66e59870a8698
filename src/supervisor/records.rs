//! Which processes the supervisor owns, on disk, so a successor can end them.
//!
//! A `kill -9` of the daemon leaves its servers running, re-parented.
//! Every time a server starts or stops, the daemon rewrites a small JSON
//! file of `(name, pid, start time, tag)`; the next daemon reads it on boot
//! and ends what each left (see [`crate::mcp::leftovers`]).
//! `PR_SET_PDEATHSIG` is avoided on purpose: under tokio it fires when the
//! spawning thread exits.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::mcp::leftovers::{self, Leader, Leftover, is_group_pid};

/// One owned process group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The server's name.
    pub name: String,
    /// The leader's pid (also the process group id).
    pub pid: u32,
    /// The leader's start time in clock ticks since boot (`/proc/PID/stat` field 22).
    pub start_time: u64,
    /// The tag the server's descendants carry, to find those that left the
    /// group (see [`crate::mcp::escapes`]); absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// Write `records` atomically.
pub fn save(path: &Path, records: &[Record]) {
    let tmp = path.with_extension("pids.tmp");
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let written = serde_json::to_vec(records).ok().and_then(|text| {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .ok()?;
        f.write_all(&text).ok()
    });
    if written.is_some() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// The bytes of `path` when it is a regular file of our own user that no
/// one else can write, checked on the opened file (no link followed): the
/// records say which processes to kill, so a file another user wrote or
/// swapped in (the directory renamed under us in a shared parent) is
/// never believed.
fn read_own(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    let own =
        meta.is_file() && meta.uid() == nix::unistd::geteuid().as_raw() && meta.mode() & 0o022 == 0;
    if !own {
        return None;
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Read the records a previous daemon left. A record whose pid could not
/// be a server's group is refused: 0 (`killpg(0)` is the caller's own
/// group), 1 (init) and anything past `i32::MAX` (a negative pid to the
/// kernel) are never signalled, whoever wrote them.
pub fn load(path: &Path) -> Vec<Record> {
    let records: Vec<Record> = read_own(path)
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    records
        .into_iter()
        .filter(|r| is_group_pid(r.pid))
        .collect()
}

/// End every still-running group in `records` and what left it (see
/// [`leftovers::end`]): TERM, up to `grace`, KILL. Returns the names of the
/// servers that were found running.
pub fn end_orphans(records: &[Record], grace: Duration) -> Vec<String> {
    let found: Vec<Leftover> = records
        .iter()
        .map(|r| Leftover {
            leader: Some(Leader {
                pid: r.pid,
                start_time: r.start_time,
            }),
            tag: r.tag.clone(),
        })
        .collect();
    leftovers::end(&found, grace)
        .into_iter()
        .zip(records)
        .filter(|(running, _)| *running)
        .map(|(_, r)| r.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::procfs;

    #[test]
    fn pids_0_and_1_and_negative_ones_are_refused_on_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.pids");
        let init_start = procfs::stat(1).map_or(0, |s| s.start_time);
        let record = |pid: u32, start_time: u64| Record {
            name: format!("s{pid}"),
            pid,
            start_time,
            tag: None,
        };
        let me = std::process::id();
        let mine = procfs::stat(me).unwrap().start_time;
        save(
            &path,
            &[
                record(0, 0),
                record(1, init_start),
                record(u32::MAX, 0),
                record(me, mine),
            ],
        );
        let loaded = load(&path);
        assert_eq!(loaded, vec![record(me, mine)]);
    }

    /// Attack (fresh pass, issue 20): records another user could write, or
    /// swap in, named a process of theirs choosing for the supervisor to
    /// kill. Only a regular file of our own that no one else can write is
    /// believed, and no link is followed to it.
    #[test]
    fn records_someone_else_could_write_are_not_believed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.pids");
        let me = std::process::id();
        let mine = procfs::stat(me).unwrap().start_time;
        let record = Record {
            name: "fx".into(),
            pid: me,
            start_time: mine,
            tag: None,
        };
        save(&path, std::slice::from_ref(&record));
        assert_eq!(load(&path), vec![record.clone()]);
        let link = dir.path().join("link.pids");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(load(&link), vec![], "a link was followed");
        for mode in [0o620, 0o602] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(load(&path), vec![], "mode {mode:o} was believed");
        }
    }
}
