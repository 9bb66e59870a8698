//! Ending what a dead mcpctl left running, from what it recorded at spawn.
//!
//! A process killed with `kill -9` runs no cleanup, so its servers go on,
//! re-parented. Its successor ends them from a record of each: the
//! process *group* the server leads, named by the leader's pid and start
//! time (so a reused pid is never signalled, as pitchfork guards), and the
//! tag its descendants carry (see [`super::escapes`]), which finds what
//! left the group (a `setsid` daemon) and what was spawned before the
//! record could be written. Two successors use it: a supervisor started
//! after one was killed (`supervisor::records`), and a one-shot command's
//! watchdog (see [`super::watchdog`]).

use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::escapes;
use crate::procfs;

/// A server's process group leader as recorded at spawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leader {
    /// The leader's pid (also the process group id).
    pub pid: u32,
    /// Its start time in clock ticks since boot (`/proc/PID/stat` field 22).
    pub start_time: u64,
}

/// What one server may have left running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    /// Its group; `None` when its starter died between spawning it and
    /// recording the pid (the tag still finds it).
    pub leader: Option<Leader>,
    /// The tag its descendants carry; absent in older supervisor records.
    pub tag: Option<String>,
}

/// True for a pid that can be a server's process group: above 1 (0 is the
/// caller's own group to `killpg`, 1 is init) and a positive `pid_t`.
pub fn is_group_pid(pid: u32) -> bool {
    pid > 1 && i32::try_from(pid).is_ok()
}

fn group_alive(pgid: i32) -> bool {
    procfs::pids()
        .into_iter()
        .filter_map(procfs::stat)
        .any(|s| s.pgrp == pgid && !s.is_zombie())
}

/// The group of `leader`, if it is still ours to end: its leader runs as
/// our user with the recorded start time, or it died and the group still has members (a
/// group's id is not reused while it exists). A live leader with another
/// start time is a reused pid: not ours.
fn running_group(leader: &Leader) -> Option<i32> {
    if !is_group_pid(leader.pid) {
        return None;
    }
    let now = procfs::stat(leader.pid);
    // A leader of another user's is never ours, whatever a record says.
    let same =
        procfs::is_ours(leader.pid) && now.is_some_and(|s| s.start_time == leader.start_time);
    let pgid = leader.pid as i32;
    (same || (now.is_none() && group_alive(pgid))).then_some(pgid)
}

/// End everything `leftovers` name that still runs: TERM to each group,
/// up to `grace`, KILL; what carries their tags is ended at the same time
/// (one grace period in all). Returns, for each leftover, whether its
/// group was found running.
pub fn end(leftovers: &[Leftover], grace: Duration) -> Vec<bool> {
    let groups: Vec<Option<i32>> = leftovers
        .iter()
        .map(|l| l.leader.as_ref().and_then(running_group))
        .collect();
    let mut termed: Vec<i32> = groups.iter().flatten().copied().collect();
    for &pgid in &termed {
        let _ = killpg(Pid::from_raw(pgid), Signal::SIGTERM);
    }
    let tags: Vec<&str> = leftovers.iter().filter_map(|l| l.tag.as_deref()).collect();
    let until = Instant::now() + grace;
    std::thread::scope(|scope| {
        if !tags.is_empty() {
            scope.spawn(|| escapes::end_blocking(&tags, until));
        }
        while !termed.is_empty() && Instant::now() < until {
            termed.retain(|g| group_alive(*g));
            std::thread::sleep(Duration::from_millis(20));
        }
        for g in termed {
            let _ = killpg(Pid::from_raw(g), Signal::SIGKILL);
        }
    });
    groups.iter().map(Option::is_some).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pids_0_and_1_and_negative_ones_are_never_groups() {
        assert!(!is_group_pid(0));
        assert!(!is_group_pid(1));
        assert!(!is_group_pid(u32::MAX));
        assert!(is_group_pid(2));
    }

    #[test]
    fn a_live_pid_with_another_start_time_is_not_ours() {
        let me = std::process::id();
        let mine = procfs::stat(me).unwrap().start_time;
        let reused = Leader {
            pid: me,
            start_time: mine + 1,
        };
        assert_eq!(running_group(&reused), None);
        assert_eq!(end(&[], Duration::ZERO), Vec::<bool>::new());
    }
}
