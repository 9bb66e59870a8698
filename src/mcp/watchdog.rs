//! A one-shot command's servers end with it, even when it is killed with
//! `kill -9`.
//!
//! `check`, `lock`, `add`'s check and `call --direct` start servers
//! themselves. SIGINT, SIGTERM and SIGHUP are caught and end them (see
//! `cli::interrupt`), but nothing runs in a process killed by SIGKILL (or
//! the OOM killer), so their end is arranged before: when such a command
//! ([`arm`]ed) starts its first server, it starts a watchdog, itself again
//! (`mcpctl` with the hidden first argument [`ARG`]). The watchdog's stdin
//! is one end of a socket pair whose other end only the command holds
//! (close-on-exec, so no server inherits it, and a server being spawned
//! holds it until its `exec`, when it already carries its tag). The
//! command tells it, one line each, of every server it is about to start
//! (its tag), has started (its pid and start time) and has ended. When
//! the socket reads end-of-file the command is gone, however it died, and
//! the watchdog ends what it was not told had ended, as a supervisor ends
//! what a killed predecessor recorded (see [`super::leftovers`]): each
//! process group whose leader still has its start time, and every process
//! carrying the server's tag (a grandchild behind `sh -c` or an `npx`
//! chain, a `setsid` escapee), TERM, a grace period, then KILL.
//!
//! Why not `PR_SET_PDEATHSIG(SIGKILL)` in the child: it fires when the
//! *thread* that spawned the child exits (tokio's blocking threads exit
//! when idle, killing healthy servers), it reaches only the direct child
//! (an `npx` chain or a forking server leaves grandchildren), and it
//! cannot send TERM first. The watchdog costs one spawn per command that
//! starts a server, made while that command's own work goes on, and one
//! small write per server event; it runs in its own process group (a kill
//! of the command's group spares it) with no environment and `/` as its
//! working directory, and is gone as soon as it has read end-of-file and
//! ended what was left (at once after a command that ended its servers).
//! A watchdog that cannot be started, or stops listening, costs the
//! command nothing but this guarantee.

use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::process::Stdio;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use super::leftovers::{self, Leader, Leftover};
use crate::procfs;

/// The hidden first argument that makes `mcpctl` a watchdog; the second
/// names the command it watches (for `ps` only).
pub const ARG: &str = "__watchdog";

/// TERM to KILL for what a dead command left (its servers' default grace).
const GRACE: Duration = Duration::from_secs(2);

/// The longest line the watchdog reads; a longer one is skipped.
const MAX_LINE: usize = 256;

/// The most servers the watchdog keeps track of at once; past that, a new
/// one is not recorded (a command does not start that many).
const MAX_SERVERS: usize = 100_000;

/// The command's side: whether it asked for a watchdog, and the socket to
/// it once started.
struct Watch {
    armed: bool,
    socket: Option<UnixStream>,
    /// The watchdog could not be started or stopped listening: say
    /// nothing more (the socket stays open, so it never takes the
    /// command for dead).
    deaf: bool,
}

static WATCH: Mutex<Watch> = Mutex::new(Watch {
    armed: false,
    socket: None,
    deaf: false,
});

fn watch() -> MutexGuard<'static, Watch> {
    WATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// Have every server this process starts from now on ended if the process
/// dies without ending it, even by SIGKILL. For one-shot commands (the
/// supervisor records its servers for its successor instead). Nothing is
/// started until the first server is.
pub fn arm() {
    watch().armed = true;
}

/// A server is about to be started with `tag` (the first starts the
/// watchdog).
pub fn starting(tag: &str) {
    tell(true, || format!("start {tag}\n"));
}

/// The server started with `tag` runs as `pid`, the leader of its group.
pub fn started(tag: &str, pid: u32) {
    tell(false, || {
        let start_time = procfs::stat(pid).map_or(0, |s| s.start_time);
        format!("pid {tag} {pid} {start_time}\n")
    });
}

/// The server started with `tag` is gone, with everything it started (or
/// never started at all).
pub fn ended(tag: &str) {
    tell(false, || format!("end {tag}\n"));
}

/// Send the line `say` makes, when armed; start the watchdog first if
/// `may_start` and it is not running. Never blocks and never raises
/// SIGPIPE: a watchdog that cannot keep up is no longer told anything.
fn tell(may_start: bool, say: impl FnOnce() -> String) {
    let mut watch = watch();
    if !watch.armed || watch.deaf {
        return;
    }
    if watch.socket.is_none() && may_start {
        match spawn_watchdog() {
            Ok(socket) => watch.socket = Some(socket),
            Err(_) => watch.deaf = true,
        }
    }
    let Some(socket) = watch.socket.as_ref() else {
        return;
    };
    let line = say();
    if !send_whole(socket, line.as_bytes()) {
        watch.deaf = true;
    }
}

/// Send `bytes` in one non-blocking `send` that never raises SIGPIPE (the
/// CLI restores SIGPIPE's default, and a killed watchdog must not kill the
/// command); false when not all of it went (the watchdog is gone or does
/// not keep up).
fn send_whole(socket: &UnixStream, bytes: &[u8]) -> bool {
    let flags = nix::libc::MSG_NOSIGNAL | nix::libc::MSG_DONTWAIT;
    // SAFETY: `bytes` is a live buffer of `bytes.len()` bytes, and the
    // descriptor is the socket's own, open while `socket` is borrowed.
    let sent = unsafe {
        nix::libc::send(
            socket.as_raw_fd(),
            bytes.as_ptr().cast(),
            bytes.len(),
            flags,
        )
    };
    usize::try_from(sent) == Ok(bytes.len())
}

/// Start the watchdog and return the command's end of its socket.
fn spawn_watchdog() -> std::io::Result<UnixStream> {
    // Both ends close-on-exec (as std opens every descriptor).
    let (mine, theirs) = UnixStream::pair()?;
    use std::os::unix::process::CommandExt;
    std::process::Command::new("/proc/self/exe")
        .arg0("mcpctl")
        .arg(ARG)
        .arg(std::process::id().to_string())
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    Ok(mine)
}

/// Be the watchdog when the process was started as one ([`ARG`]): read
/// what the command says until it is gone, end what it left and return the
/// exit code. `None` for every other command line.
pub fn run_if_asked() -> Option<u8> {
    if std::env::args_os().nth(1).as_deref() != Some(ARG.as_ref()) {
        return None;
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("mcpctl: {ARG} is started by mcpctl itself, not by hand");
        return Some(2);
    }
    let left = Ledger::read(stdin.lock()).left();
    if !left.is_empty() {
        leftovers::end(&left, GRACE);
    }
    Some(0)
}

/// What the watchdog knows of the command's servers: each tag not yet
/// ended, with its group's leader once started.
#[derive(Debug, Default)]
struct Ledger {
    servers: BTreeMap<String, Option<Leader>>,
}

/// A tag as [`super::escapes::new_tag`] makes it: digits and dots.
fn valid_tag(tag: &str) -> bool {
    !tag.is_empty() && tag.len() <= 64 && tag.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// The next whole line, read [`MAX_LINE`] bytes at most at a time:
/// `Some(None)` for one too long (skipped to its end), `None` at the end
/// of the input (a last line without its newline is dropped).
fn next_line(input: &mut impl BufRead) -> Option<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        line.clear();
        let limit = MAX_LINE as u64 + 1;
        let n = std::io::Read::take(&mut *input, limit)
            .read_until(b'\n', &mut line)
            .ok()?;
        if line.last() == Some(&b'\n') {
            return Some((!too_long).then_some(line));
        }
        if n <= MAX_LINE {
            return None;
        }
        too_long = true;
    }
}

impl Ledger {
    /// Read lines until end-of-file (or a read error: either way the
    /// command is gone).
    fn read(mut input: impl BufRead) -> Ledger {
        let mut ledger = Ledger::default();
        while let Some(line) = next_line(&mut input) {
            if let Some(line) = line {
                ledger.note(&String::from_utf8_lossy(&line));
            }
        }
        ledger
    }

    /// Take in one line: `start TAG`, `pid TAG PID START_TIME` or `end
    /// TAG`; anything else is ignored.
    fn note(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["start", tag] if valid_tag(tag) && self.servers.len() < MAX_SERVERS => {
                self.servers.insert(tag.to_string(), None);
            }
            ["pid", tag, pid, start_time] => {
                let leader = pid.parse().ok().zip(start_time.parse().ok());
                if let (Some(slot), Some((pid, start_time))) = (self.servers.get_mut(*tag), leader)
                {
                    *slot = Some(Leader { pid, start_time });
                }
            }
            ["end", tag] => {
                self.servers.remove(*tag);
            }
            _ => {}
        }
    }

    /// What may still run: every server not ended.
    fn left(self) -> Vec<Leftover> {
        self.servers
            .into_iter()
            .map(|(tag, leader)| Leftover {
                leader,
                tag: Some(tag),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Leftover> {
        Ledger::read(text.as_bytes()).left()
    }

    #[test]
    fn an_ended_server_is_not_left_and_a_started_one_has_its_leader() {
        let left = read("start 1.2.1\npid 1.2.1 40 7\nstart 1.2.2\nend 1.2.1\nstart 1.2.3\n");
        let tags: Vec<_> = left.iter().map(|l| l.tag.clone().unwrap()).collect();
        assert_eq!(tags, ["1.2.2", "1.2.3"]);
        assert!(left.iter().all(|l| l.leader.is_none()));
        let left = read("start 9.9.1\npid 9.9.1 40 7\n");
        let leader = Some(Leader {
            pid: 40,
            start_time: 7,
        });
        assert_eq!(left[0].leader, leader);
    }

    #[test]
    fn garbage_overlong_lines_and_a_cut_last_line_are_ignored() {
        let long = format!("start {}\n", "1".repeat(10_000));
        let text = format!("{long}bogus\npid 5.5.5 1 2\nstart ../x\nstart 3.3.3\nstart 4.4.4");
        let left = read(&text);
        let tags: Vec<_> = left.iter().map(|l| l.tag.clone().unwrap()).collect();
        assert_eq!(tags, ["3.3.3"]);
    }

    #[test]
    fn nothing_is_said_unless_armed() {
        // This test process never arms: no watchdog is started.
        starting("1.1.1");
        assert!(watch().socket.is_none());
    }
}
