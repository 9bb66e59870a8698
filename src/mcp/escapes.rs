//! Processes that left a server's process group: a daemon that double-forks
//! into a new session (`setsid`) escapes `killpg`.
//!
//! Every stdio child is launched with [`TAG_VAR`] set to a tag unique to
//! that launch; descendants inherit it whatever session or group they move
//! to. When a server is closed, every process of ours still carrying its
//! tag is ended (TERM, grace, KILL), named by pid *and* start time so a
//! reused pid is never signalled. A descendant that scrubbed its
//! environment is still re-parented to mcpctl (a child subreaper): once no
//! server of this process runs, every such orphan is ended too. Whatever
//! shares an escapee's new session, or descends from it, goes with it.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

use crate::procfs;

/// The variable that marks a server's descendants (its value is the tag).
pub const TAG_VAR: &str = "MCPCTL_SERVER_TAG";

/// The pids of this process's live server children.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// A tag no other launch of this process (or of another mcpctl) uses: the
/// pid and start time of this process, and a counter.
pub fn new_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) + 1;
    let me = std::process::id();
    let started = procfs::stat(me).map_or(0, |s| s.start_time);
    format!("{me}.{started}.{n}")
}

fn live() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Note a spawned server child, so its orphans are told from others'.
pub fn register(pid: u32) {
    live().insert(pid);
}

/// Forget a server child whose group has been ended.
pub fn unregister(pid: u32) {
    live().remove(&pid);
}

/// One process to end, named by pid and start time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Target {
    pid: u32,
    start_time: u64,
}

impl Target {
    /// Still this process and not yet a zombie; a zombie re-parented to us
    /// is reaped on the way.
    fn running(&self) -> bool {
        match procfs::stat(self.pid) {
            Some(s) if s.start_time == self.start_time => {
                if s.is_zombie() {
                    if s.ppid == std::process::id() {
                        let _ = waitpid(Pid::from_raw(self.pid as i32), Some(WaitPidFlag::WNOHANG));
                    }
                    false
                } else {
                    true
                }
            }
            _ => false,
        }
    }

    fn signal(&self, signal: Signal) {
        if self.running() {
            let _ = kill(Pid::from_raw(self.pid as i32), signal);
        }
    }
}

/// The value of [`TAG_VAR`] in `pid`'s environment, if it can be read.
fn tag_of(pid: u32) -> Option<Option<String>> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{TAG_VAR}=");
    Some(
        environ
            .split(|b| *b == 0)
            .find_map(|entry| entry.strip_prefix(prefix.as_bytes()))
            .map(|v| String::from_utf8_lossy(v).into_owned()),
    )
}

/// The processes the servers `tags` left outside their groups: those
/// carrying one of the tags; when no server of ours runs any more, every
/// orphan re-parented to us from another session; and, for each of those,
/// every process of its session (a `setsid` daemon's new session holds only
/// what it started) and every descendant. Never this process or a live
/// server child, and never a process of this process's own session that is
/// not a descendant of one found.
fn escaped(tags: &[&str]) -> Vec<Target> {
    let me = std::process::id();
    let my_session = procfs::stat(me).map_or(0, |s| s.session);
    let live = live().clone();
    let procs: Vec<(u32, procfs::Stat)> = procfs::pids()
        .into_iter()
        .filter(|&pid| pid != me && !live.contains(&pid))
        .filter_map(|pid| Some((pid, procfs::stat(pid)?)))
        .filter(|(_, stat)| !stat.is_zombie())
        .collect();
    let mut found: BTreeSet<u32> = BTreeSet::new();
    for (pid, stat) in &procs {
        let theirs = match tag_of(*pid) {
            Some(Some(t)) => tags.contains(&t.as_str()),
            // No readable tag: ours only if re-parented to us from another
            // session (a child this process started itself, such as a
            // helper it waits for, shares its session), and only when no
            // other server could own it.
            Some(None) | None => stat.ppid == me && stat.session != my_session && live.is_empty(),
        };
        if theirs {
            found.insert(*pid);
        }
    }
    let sessions: BTreeSet<i32> = procs
        .iter()
        .filter(|(pid, stat)| found.contains(pid) && stat.session != my_session)
        .map(|(_, stat)| stat.session)
        .collect();
    found.extend(
        procs
            .iter()
            .filter(|(_, stat)| sessions.contains(&stat.session))
            .map(|(pid, _)| *pid),
    );
    // Descendants, to a fixed point (a tree is at most as deep as it is big).
    loop {
        let before = found.len();
        let children: Vec<u32> = procs
            .iter()
            .filter(|(pid, stat)| found.contains(&stat.ppid) && !found.contains(pid))
            .map(|(pid, _)| *pid)
            .collect();
        found.extend(children);
        if found.len() == before {
            break;
        }
    }
    procs
        .iter()
        .filter(|(pid, _)| found.contains(pid))
        .map(|(pid, stat)| Target {
            pid: *pid,
            start_time: stat.start_time,
        })
        .collect()
}

/// One ending in progress: the tags it ends, and every process signalled.
struct Ending<'a> {
    tags: &'a [&'a str],
    targets: Vec<Target>,
}

impl<'a> Ending<'a> {
    /// TERM what `tags` left; `None` when nothing is there.
    fn start(tags: &'a [&'a str]) -> Option<Ending<'a>> {
        let mut ending = Ending {
            tags,
            targets: Vec::new(),
        };
        ending.round(Signal::SIGTERM);
        (!ending.targets.is_empty()).then_some(ending)
    }

    /// Look again (a process whose parent was just ended is re-parented,
    /// and may only then be recognisable as ours), send `signal` to what is
    /// new (to everything, for KILL), and say whether all of it is gone.
    fn round(&mut self, signal: Signal) -> bool {
        if signal == Signal::SIGKILL {
            self.targets.iter().for_each(|t| t.signal(signal));
        }
        for t in escaped(self.tags) {
            if !self.targets.contains(&t) {
                t.signal(signal);
                self.targets.push(t);
            }
        }
        self.targets.retain(Target::running);
        self.targets.is_empty()
    }
}

/// How long KILLed processes get to disappear (only the kernel is waited for).
const REAP_WAIT: Duration = Duration::from_secs(2);

/// End what the servers `tags` left outside their groups: TERM, until
/// `until`, then KILL (and reap those re-parented to us). The scans of
/// `/proc` run on a blocking thread, off the async runtime.
pub async fn end(tags: &[&str], until: Instant) {
    let tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
    let ended = tokio::task::spawn_blocking(move || {
        let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
        end_blocking(&tags, until);
    });
    let _finished_or_runtime_gone = ended.await;
}

/// [`end`] from blocking code (a daemon's successor at boot ends every tag
/// of a killed predecessor at once).
pub fn end_blocking(tags: &[&str], until: Instant) {
    let Some(mut ending) = Ending::start(tags) else {
        return;
    };
    while Instant::now() < until {
        if ending.round(Signal::SIGTERM) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let reaped = Instant::now() + REAP_WAIT;
    while Instant::now() < reaped && !ending.round(Signal::SIGKILL) {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// [`end`] without a grace period, for paths that cannot wait (drop).
pub fn kill_now(tag: &str) {
    let targets = escaped(&[tag]);
    targets.iter().for_each(|t| t.signal(Signal::SIGKILL));
    for t in targets {
        let deadline = Instant::now() + Duration::from_millis(200);
        while t.running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
