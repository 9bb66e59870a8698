//! Processes re-parented to the daemon, which is a child subreaper.

use std::time::Duration;

/// Reap zombies re-parented to the daemon (it is a subreaper) that are not
/// process-group leaders: leaders are tokio's children and tokio reaps
/// them; the rest are grandchildren of servers whose start was cancelled.
pub async fn reap_reparented() {
    use nix::sys::wait::{WaitPidFlag, waitpid};
    let me = std::process::id();
    for _ in 0..25 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return;
        };
        for pid in dir
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some((_, rest)) = stat.rsplit_once(')') else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            let zombie = f.first() == Some(&"Z");
            let ppid = f.get(1).and_then(|p| p.parse::<u32>().ok());
            let pgrp = f.get(2).and_then(|p| p.parse::<u32>().ok());
            if zombie && ppid == Some(me) && pgrp != Some(pid) {
                let _ = waitpid(
                    nix::unistd::Pid::from_raw(pid as i32),
                    Some(WaitPidFlag::WNOHANG),
                );
            }
        }
    }
}
