//! Processes re-parented to the daemon, which is a child subreaper.

use std::time::Duration;

use crate::procfs;

/// Reap zombies re-parented to the daemon (it is a subreaper) that are not
/// process-group leaders: leaders are tokio's children and tokio reaps
/// them; the rest are grandchildren of servers whose start was cancelled.
pub async fn reap_reparented() {
    use nix::sys::wait::{WaitPidFlag, waitpid};
    let me = std::process::id();
    for _ in 0..25 {
        tokio::time::sleep(Duration::from_millis(200)).await;
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
}
