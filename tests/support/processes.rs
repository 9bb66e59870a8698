//! Finding processes in /proc: by a marker on their command line, the
//! zombies a leaky reaper leaves, and the processes that belong to a world.

/// Pids of live (non-zombie) processes whose command line contains `marker`,
/// plus zombies whose name matches `comm` (zombies have no command line).
pub fn processes_with(marker: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or("?")
            .to_string();
        if cmdline.contains(marker) {
            found.push((pid, format!("{state} {cmdline}")));
        }
    }
    found
}

/// Zombie children of this test process (what a leaky reaper leaves behind).
pub fn my_zombies() -> Vec<u32> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str()) {
            found.push(pid);
        }
    }
    found
}

/// A process of a world: its pid and `STATE cmdline`.
pub type Found = (u32, String);

/// Live processes of this user that belong to a world: their command
/// line names the world's directory or carries its marker, or their
/// environment carries its state directory (a supervisor does). Zombies
/// and this test process are not counted.
pub fn world_processes(dir: &str, state: &str, marker: &str) -> Vec<Found> {
    let state_var = format!("MCPCTL_STATE_DIR={state}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == me || is_zombie(&entry.path()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let in_env = environ
            .split(|b| *b == 0)
            .any(|var| var == state_var.as_bytes());
        if in_env || cmdline.contains(dir) || cmdline.contains(marker) {
            found.push((pid, cmdline));
        }
    }
    found
}

fn is_zombie(proc_dir: &std::path::Path) -> bool {
    let stat = std::fs::read_to_string(proc_dir.join("stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|s| s.split_whitespace().next());
    matches!(state, Some("Z") | Some("X") | None)
}

/// Live (non-zombie) processes whose command line contains `marker`.
pub fn live(marker: &str) -> Vec<(u32, String)> {
    processes_with(marker)
        .into_iter()
        .filter(|(_, s)| !s.starts_with('Z'))
        .collect()
}
