//! Finding processes in /proc: by a marker on their command line, the
//! zombies a leaky reaper leaves, and the processes that belong to a world.

use std::path::PathBuf;

/// A process as /proc shows it (read once; it may be gone since).
struct Proc {
    pid: u32,
    dir: PathBuf,
    /// The one-letter state (`R`, `S`, `Z`, …) and the parent's pid, from
    /// `stat`; `?` and 0 when it could not be read.
    state: String,
    parent: u32,
}

impl Proc {
    /// The command line with its NULs as spaces (empty for a zombie).
    fn cmdline(&self) -> String {
        let raw = std::fs::read(self.dir.join("cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&raw).replace('\0', " ")
    }

    /// Whether its environment has exactly `var` (`NAME=value`); false when
    /// it cannot be read (another user's).
    fn has_env(&self, var: &str) -> bool {
        let raw = std::fs::read(self.dir.join("environ")).unwrap_or_default();
        raw.split(|b| *b == 0).any(|v| v == var.as_bytes())
    }

    fn is_zombie(&self) -> bool {
        matches!(self.state.as_str(), "Z" | "X" | "?")
    }
}

/// Every process but this test process.
fn others() -> Vec<Proc> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_string_lossy().parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
            Some(Proc {
                pid,
                dir: entry.path(),
                state: fields.first().unwrap_or(&"?").to_string(),
                parent: fields.get(1).and_then(|p| p.parse().ok()).unwrap_or(0),
            })
        })
        .filter(|p| p.pid != me)
        .collect()
}

/// Processes whose command line contains `marker`, each as its pid and
/// `STATE cmdline` (zombies have no command line, so they show only
/// while being reaped).
pub fn processes_with(marker: &str) -> Vec<(u32, String)> {
    others()
        .into_iter()
        .filter_map(|p| {
            let cmdline = p.cmdline();
            cmdline
                .contains(marker)
                .then(|| (p.pid, format!("{} {cmdline}", p.state)))
        })
        .collect()
}

/// Live (non-zombie) processes whose command line contains `marker`.
pub fn live(marker: &str) -> Vec<(u32, String)> {
    processes_with(marker)
        .into_iter()
        .filter(|(_, s)| !s.starts_with('Z'))
        .collect()
}

/// Zombie children of this test process (what a leaky reaper leaves behind).
pub fn my_zombies() -> Vec<u32> {
    let me = std::process::id();
    others()
        .into_iter()
        .filter(|p| p.state == "Z" && p.parent == me)
        .map(|p| p.pid)
        .collect()
}

/// A process of a world: its pid and command line.
pub type Found = (u32, String);

/// Live processes of this user that belong to a world: their command
/// line names the world's directory or carries its marker, or their
/// environment carries its state directory (a supervisor's does). Zombies
/// and this test process are not counted.
pub fn world_processes(dir: &str, state: &str, marker: &str) -> Vec<Found> {
    let state_var = format!("MCPCTL_STATE_DIR={state}");
    others()
        .into_iter()
        .filter(|p| !p.is_zombie())
        .filter_map(|p| {
            let cmdline = p.cmdline();
            let ours = cmdline.contains(dir) || cmdline.contains(marker) || p.has_env(&state_var);
            ours.then_some((p.pid, cmdline))
        })
        .collect()
}

/// The resident size of `pid` in KiB (`VmRSS` in /proc/PID/status), 0 when
/// it is gone: what a test bounds when a process must not grow.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
