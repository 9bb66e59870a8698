//! Every process group this process has started and not yet reaped.
//!
//! One-shot commands (`check`, `add`, `call --direct`) start servers in
//! their own process groups, so a Ctrl-C on the terminal never reaches them.
//! When such a command is stopped by a signal, [`end_all`] ends every group
//! still registered (TERM, a grace period, KILL, reap) before it exits, and
//! refuses to start new ones from then on. What a server left outside its
//! group (a `setsid` escapee carrying its tag) is ended with it.
//! [`terminate`] is the one TERM, grace, KILL sequence for groups, used by
//! a server's own shutdown too.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal as NixSignal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, Command};
use tokio::signal::unix::{Signal, SignalKind};

/// The live groups (with the escapee tag of the server leading each), and
/// whether the process is ending them for good.
struct Registry {
    live: BTreeMap<i32, String>,
    closing: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: BTreeMap::new(),
    closing: false,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Spawn `cmd` (which must start its own process group) and register the
/// group in one step, so [`end_all`] never misses a group being started.
/// `tag` is the [`super::escapes::TAG_VAR`] value `cmd` carries. Refused once
/// [`end_all`] has begun. The watchdog (see [`super::watchdog`]) is told
/// before and after.
pub fn spawn(cmd: &mut Command, tag: &str) -> std::io::Result<Child> {
    let mut registry = registry();
    if registry.closing {
        return Err(std::io::Error::other(
            "mcpctl is stopping on a signal; no new server is started",
        ));
    }
    super::watchdog::starting(tag);
    let child = cmd.spawn().inspect_err(|_| super::watchdog::ended(tag))?;
    if let Some(pid) = child.id() {
        registry.live.insert(pid as i32, tag.to_string());
        super::watchdog::started(tag, pid);
    }
    Ok(child)
}

/// Forget a group once it is gone (its owner reaped it or gave up on it).
pub fn unregister(pgid: Pid) {
    registry().live.remove(&pgid.as_raw());
}

/// Reap what can be reaped in `pgid` and say whether any process is left.
fn alive(pgid: Pid) -> bool {
    // Zombies still count for killpg; reap ours (we are subreaper, so
    // orphaned grandchildren are ours too).
    while let Ok(status) = waitpid(Pid::from_raw(-pgid.as_raw()), Some(WaitPidFlag::WNOHANG)) {
        if status == WaitStatus::StillAlive {
            break;
        }
    }
    !matches!(killpg(pgid, None), Err(Errno::ESRCH))
}

/// Longest sleep between two looks at what is left when no SIGCHLD came:
/// a backstop for a group member whose parent is outside both the group
/// and this process, whose end nobody here is told of.
const BACKSTOP: Duration = Duration::from_millis(100);

/// Wait until `groups` are all gone (by `gone`) or `until`. Woken by
/// SIGCHLD, not by a timer: every member of a group is either this
/// process's child or, once its parent is gone, re-parented to it (a
/// subreaper), so the end of the last one is signalled here.
async fn wait_gone(
    groups: &mut Vec<Pid>,
    until: Instant,
    sigchld: &mut Option<Signal>,
    gone: &mut impl FnMut(Pid) -> bool,
) {
    loop {
        groups.retain(|&pgid| !gone(pgid));
        let now = Instant::now();
        if groups.is_empty() || now >= until {
            return;
        }
        let wake = (until - now).min(BACKSTOP);
        match sigchld {
            Some(signal) => {
                let _ = tokio::time::timeout(wake, signal.recv()).await;
            }
            None => tokio::time::sleep(wake).await,
        }
    }
}

/// The one way a process group is ended: TERM, up to `grace`, KILL, then
/// wait for the kernel; `gone` says whether a group is gone (reaping what
/// it can). Returns how many of `groups` were still running at the start.
pub async fn terminate(
    mut groups: Vec<Pid>,
    grace: Duration,
    mut gone: impl FnMut(Pid) -> bool,
) -> usize {
    // Listen before looking, so no exit falls between the look and the wait.
    let mut sigchld = tokio::signal::unix::signal(SignalKind::child()).ok();
    groups.retain(|&pgid| !gone(pgid));
    let running = groups.len();
    if running == 0 {
        return 0;
    }
    for &pgid in &groups {
        let _ = killpg(pgid, NixSignal::SIGTERM);
    }
    wait_gone(&mut groups, Instant::now() + grace, &mut sigchld, &mut gone).await;
    if !groups.is_empty() {
        for &pgid in &groups {
            let _ = killpg(pgid, NixSignal::SIGKILL);
        }
        // KILL cannot be ignored; this only waits for the kernel.
        wait_gone(
            &mut groups,
            Instant::now() + Duration::from_secs(5),
            &mut sigchld,
            &mut gone,
        )
        .await;
    }
    running
}

/// End every registered group: TERM, up to `grace`, KILL, reap. No group is
/// started afterwards; then whatever escaped those groups is ended the same
/// way. Returns how many groups were still running.
pub async fn end_all(grace: Duration) -> usize {
    let (groups, tags): (Vec<Pid>, Vec<String>) = {
        let mut registry = registry();
        registry.closing = true;
        registry
            .live
            .iter()
            .map(|(&raw, tag)| (Pid::from_raw(raw), tag.clone()))
            .unzip()
    };
    let running = terminate(groups, grace, |pgid| !alive(pgid)).await;
    let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
    super::escapes::end(&tags, Instant::now() + grace).await;
    running
}
