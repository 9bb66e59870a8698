//! Processes that left a server's process group: a daemon that double-forks
//! into a new session (`setsid`) escapes `killpg`.
//!
//! Every stdio child is launched with [`TAG_VAR`] set to a tag unique to
//! that launch; descendants inherit it whatever session or group they move
//! to. When a server is closed, every process of ours still carrying its
//! tag is ended (TERM, grace, KILL), named by pid *and* start time so a
//! reused pid is never signalled. A descendant that scrubbed its
//! environment is still re-parented to mcpctl (a child subreaper): once no
//! server of this process runs, every such orphan is ended too. Ending
//! waits on the processes' pidfds, and looks at `/proc` again only when
//! one of them ends (or after a 100 ms backstop), not on a timer. Whatever
//! shares an escapee's new session, or descends from it, goes with it.

use std::collections::BTreeSet;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
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
    // Only processes of our own user: a tag is an environment variable,
    // which anyone who can read ours can copy into a process of theirs.
    let procs: Vec<(u32, procfs::Stat)> = procfs::pids()
        .into_iter()
        .filter(|&pid| pid != me && !live.contains(&pid))
        .filter(|&pid| procfs::is_ours(pid))
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
    // The sessions our escapees lead (a `setsid` makes its caller the
    // leader): what runs in them came from the escapee, even with its tag
    // cleared. A session a found process merely sits in is not ours.
    let sessions: BTreeSet<i32> = procs
        .iter()
        .filter(|(pid, stat)| {
            found.contains(pid) && stat.session != my_session && stat.session == *pid as i32
        })
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
        wait_any(&ending.targets, until);
    }
    let reaped = Instant::now() + REAP_WAIT;
    while !ending.round(Signal::SIGKILL) && Instant::now() < reaped {
        wait_any(&ending.targets, reaped);
    }
}

/// [`end`] without a grace period, for paths that cannot wait (drop).
pub fn kill_now(tag: &str) {
    let mut targets = escaped(&[tag]);
    targets.iter().for_each(|t| t.signal(Signal::SIGKILL));
    let deadline = Instant::now() + Duration::from_millis(200);
    loop {
        targets.retain(Target::running);
        if targets.is_empty() || Instant::now() >= deadline {
            return;
        }
        wait_any(&targets, deadline);
    }
}

/// The longest wait between two scans of `/proc` while processes are
/// being ended: a backstop for one that only becomes recognisable as ours
/// later without any of the watched ones ending.
const BACKSTOP: Duration = Duration::from_millis(100);

/// Block until one of `targets` ends, `until`, or [`BACKSTOP`], whichever
/// comes first. Each target is watched through a pidfd, which becomes
/// readable when its process ends, so an ending costs the process's own
/// exit time and no rescans of `/proc` in between. Without pidfds (Linux
/// before 5.3) this waits 20 ms, as a poll would.
fn wait_any(targets: &[Target], until: Instant) {
    let wait = until
        .saturating_duration_since(Instant::now())
        .min(BACKSTOP);
    let fds: Vec<OwnedFd> = targets.iter().filter_map(|t| pidfd(t.pid)).collect();
    if fds.len() < targets.len() || fds.is_empty() {
        std::thread::sleep(wait.min(Duration::from_millis(20)));
        return;
    }
    let mut polled: Vec<PollFd> = fds
        .iter()
        .map(|fd| PollFd::new(fd.as_fd(), PollFlags::POLLIN))
        .collect();
    let timeout = PollTimeout::try_from(wait).unwrap_or(PollTimeout::MAX);
    let _ = poll(&mut polled, timeout);
}

/// A pidfd for `pid`, or `None` (no such process, or no pidfds here).
fn pidfd(pid: u32) -> Option<OwnedFd> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // SAFETY: pidfd_open takes a pid and flags and returns a new file
        // descriptor (or -1); nothing else is read or written.
        let fd =
            unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid as nix::libc::pid_t, 0) };
        if fd < 0 {
            return None;
        }
        // SAFETY: the descriptor was just created and is owned by no one else.
        Some(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd as i32) })
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = pid;
        None
    }
}
