//! Every process group this process has started and not yet reaped.
//!
//! One-shot commands (`check`, `add`, `call --direct`) start servers in
//! their own process groups, so a Ctrl-C on the terminal never reaches them.
//! When such a command is stopped by a signal, [`end_all`] ends every group
//! still registered (TERM, a grace period, KILL, reap) before it exits, and
//! refuses to start new ones from then on. What a server left outside its
//! group (a `setsid` escapee carrying its tag) is ended with it.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

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
/// [`end_all`] has begun.
pub fn spawn(cmd: &mut Command, tag: &str) -> std::io::Result<Child> {
    let mut registry = registry();
    if registry.closing {
        return Err(std::io::Error::other(
            "mcpctl is stopping on a signal; no new server is started",
        ));
    }
    let child = cmd.spawn()?;
    if let Some(pid) = child.id() {
        registry.live.insert(pid as i32, tag.to_string());
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
/// started afterwards; then whatever escaped those groups is ended the same
/// way. Returns how many groups were still running.
pub async fn end_all(grace: Duration) -> usize {
    let (mut groups, tags): (Vec<Pid>, Vec<String>) = {
        let mut registry = registry();
        registry.closing = true;
        registry
            .live
            .iter()
            .map(|(&raw, tag)| (Pid::from_raw(raw), tag.clone()))
            .unzip()
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
    let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
    super::escapes::end(&tags, Instant::now() + grace).await;
    running
}
