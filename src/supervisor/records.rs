//! Which processes the supervisor owns, on disk, so a successor can end them.
//!
//! A `kill -9` of the daemon leaves its servers running, re-parented.
//! Every time a server starts or stops, the daemon rewrites a small JSON
//! file of `(name, pid, start time)`; the next daemon reads it on boot and
//! ends each process *group* whose leader still has the recorded start
//! time (guarding against pid reuse, like pitchfork), or whose group still
//! has members after the leader died. `PR_SET_PDEATHSIG` is avoided on
//! purpose: under tokio it fires when the spawning thread exits.

use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};

use crate::mcp::escapes;
use crate::procfs;

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

/// Read the records a previous daemon left. A record whose pid could not
/// be a server's group is refused: 0 (`killpg(0)` is the caller's own
/// group), 1 (init) and anything past `i32::MAX` (a negative pid to the
/// kernel) are never signalled, whoever wrote them.
pub fn load(path: &Path) -> Vec<Record> {
    let records: Vec<Record> = std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    records
        .into_iter()
        .filter(|r| is_group_pid(r.pid))
        .collect()
}

/// True for a pid that can be a server's process group: above 1 and a
/// positive `pid_t`.
fn is_group_pid(pid: u32) -> bool {
    pid > 1 && i32::try_from(pid).is_ok()
}

fn group_alive(pgid: i32) -> bool {
    procfs::pids()
        .into_iter()
        .filter_map(procfs::stat)
        .any(|s| s.pgrp == pgid && !s.is_zombie())
}

/// End every still-running group in `records`: TERM, up to `grace`, KILL.
/// Returns the names of the servers that were found running.
pub fn end_orphans(records: &[Record], grace: Duration) -> Vec<String> {
    let mut ended = Vec::new();
    let mut groups = Vec::new();
    for r in records.iter().filter(|r| is_group_pid(r.pid)) {
        let leader = procfs::stat(r.pid);
        let leader_matches = leader.is_some_and(|s| s.start_time == r.start_time);
        // A group can outlive its leader (a grandchild ignoring TERM); its
        // id is not reused while it exists. A live leader with another
        // start time is a reused pid: not ours.
        if leader_matches || (leader.is_none() && group_alive(r.pid as i32)) {
            let _ = killpg(Pid::from_raw(r.pid as i32), Signal::SIGTERM);
            groups.push(r.pid as i32);
            ended.push(r.name.clone());
        }
    }
    // What left the groups (a setsid daemon), whether or not the group
    // itself was still there, is ended at the same time: one grace period
    // in all, so the daemon answers its first client soon.
    let tags: Vec<&str> = records.iter().filter_map(|r| r.tag.as_deref()).collect();
    let until = Instant::now() + grace;
    std::thread::scope(|scope| {
        scope.spawn(|| escapes::end_blocking(&tags, until));
        while !groups.is_empty() && Instant::now() < until {
            groups.retain(|g| group_alive(*g));
            std::thread::sleep(Duration::from_millis(20));
        }
        for g in groups {
            let _ = killpg(Pid::from_raw(g), Signal::SIGKILL);
        }
    });
    ended
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
