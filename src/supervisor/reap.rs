//! Processes re-parented to the daemon, which is a child subreaper.

use std::time::{Duration, Instant};

use tokio::signal::unix::{SignalKind, signal};

use crate::procfs;

/// How long after a cancelled start re-parented zombies are looked for.
const WINDOW: Duration = Duration::from_secs(5);

/// Reap zombies re-parented to the daemon (it is a subreaper) that are not
/// process-group leaders: leaders are tokio's children and tokio reaps
/// them; the rest are grandchildren of servers whose start was cancelled.
/// `/proc` is looked at when a child of the daemon ends (SIGCHLD), not on
/// a timer, for [`WINDOW`].
pub async fn reap_reparented() {
    let mut sigchld = signal(SignalKind::child()).ok();
    let until = Instant::now() + WINDOW;
    loop {
        reap_once();
        let now = Instant::now();
        if now >= until {
            return;
        }
        match sigchld.as_mut() {
            Some(sigchld) => {
                let _ = tokio::time::timeout(until - now, sigchld.recv()).await;
            }
            None => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

fn reap_once() {
    use nix::sys::wait::{WaitPidFlag, waitpid};
    let me = std::process::id();
    for pid in procfs::pids() {
        let Some(stat) = procfs::stat(pid) else {
            continue;
        };
        if stat.is_zombie() && stat.ppid == me && stat.pgrp != pid as i32 {
            let _ = waitpid(
                nix::unistd::Pid::from_raw(pid as i32),
                Some(WaitPidFlag::WNOHANG),
            );
        }
    }
}
