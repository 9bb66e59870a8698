//! Every process group this process has started and not yet reaped.
//!
//! One-shot commands (`check`, `add`, `call --direct`) start servers in
//! their own process groups, so a Ctrl-C on the terminal never reaches them.
//! When such a command is stopped by a signal, [`end_all`] ends every group
//! still registered (TERM, a grace period, KILL, reap) before it exits, and
//! refuses to start new ones from then on.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

/// The live groups, and whether the process is ending them for good.
struct Registry {
    live: BTreeSet<i32>,
    closing: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: BTreeSet::new(),
    closing: false,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Spawn `cmd` (which must start its own process group) and register the
/// group in one step, so [`end_all`] never misses a group being started.
/// Refused once [`end_all`] has begun.
pub fn spawn(cmd: &mut Command) -> std::io::Result<Child> {
    let mut registry = registry();
    if registry.closing {
        return Err(std::io::Error::other(
            "mcpctl is stopping on a signal; no new server is started",
        ));
    }
    let child = cmd.spawn()?;
    if let Some(pid) = child.id() {
        registry.live.insert(pid as i32);
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

async fn wait_gone(groups: &mut Vec<Pid>, until: Instant) {
    loop {
        groups.retain(|&pgid| alive(pgid));
        if groups.is_empty() || Instant::now() >= until {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// End every registered group: TERM, up to `grace`, KILL, reap. No group is
/// started afterwards. Returns how many groups were still running.
pub async fn end_all(grace: Duration) -> usize {
    let mut groups: Vec<Pid> = {
        let mut registry = registry();
        registry.closing = true;
        registry
            .live
            .iter()
            .map(|&raw| Pid::from_raw(raw))
            .collect()
    };
    groups.retain(|&pgid| alive(pgid));
    let running = groups.len();
    for &pgid in &groups {
        let _ = killpg(pgid, Signal::SIGTERM);
    }
    wait_gone(&mut groups, Instant::now() + grace).await;
    for &pgid in &groups {
        let _ = killpg(pgid, Signal::SIGKILL);
    }
    // KILL cannot be ignored; this only waits for the kernel.
    wait_gone(&mut groups, Instant::now() + Duration::from_secs(5)).await;
    running
}
