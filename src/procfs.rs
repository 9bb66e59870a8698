//! Reading `/proc`: the one parser of `/proc/PID/stat`, shared by the
//! supervisor's records, its reaper and the ending of escaped processes.

/// The fields of `/proc/PID/stat` mcpctl relies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// The state letter (`R`, `S`, `Z`, …).
    pub state: char,
    /// The parent's pid.
    pub ppid: u32,
    /// The process group id.
    pub pgrp: i32,
    /// The session id: a process that called `setsid` leads a new one.
    pub session: i32,
    /// The start time in clock ticks since boot (field 22): with the pid it
    /// names one process, so a reused pid is never mistaken for it.
    pub start_time: u64,
}

impl Stat {
    /// True for a zombie (exited, not yet reaped).
    pub fn is_zombie(&self) -> bool {
        self.state == 'Z'
    }
}

/// Parse the text of a `/proc/PID/stat` file.
pub fn parse_stat(text: &str) -> Option<Stat> {
    // Fields after the command name, which may contain spaces and ')'.
    let rest = text.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state); field N is fields[N - 3].
    Some(Stat {
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        session: fields.get(3)?.parse().ok()?,
        start_time: fields.get(19)?.parse().ok()?,
    })
}

/// The stat of `pid`, if it exists.
pub fn stat(pid: u32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The user `pid` runs as (the owner of `/proc/PID`: its effective uid),
/// if it exists. Only a process of mcpctl's own user is ever taken for one
/// of its servers: a tag or a session is something another user can copy.
pub fn owner(pid: u32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}"))
        .ok()
        .map(|m| m.uid())
}

/// True when `pid` runs as mcpctl's own effective uid (see [`owner`]).
pub fn is_ours(pid: u32) -> bool {
    owner(pid) == Some(nix::unistd::geteuid().as_raw())
}

/// True while `pid` exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    stat(pid).is_some_and(|s| !s.is_zombie())
}

/// Every pid in `/proc` now (empty when `/proc` cannot be read).
pub fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_name_with_spaces_and_parens_is_skipped() {
        let text = "42 (a) b (c)) S 7 42 41 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0";
        assert_eq!(
            parse_stat(text),
            Some(Stat {
                state: 'S',
                ppid: 7,
                pgrp: 42,
                session: 41,
                start_time: 12345
            })
        );
    }

    #[test]
    fn a_truncated_line_is_none() {
        assert_eq!(parse_stat("42 (x) S 7 42"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn this_process_is_alive_and_has_a_parent() {
        let me = stat(std::process::id()).expect("own stat");
        assert!(!me.is_zombie());
        assert_eq!(me.ppid, std::os::unix::process::parent_id());
    }
}
