//! The supervisor a world owns, and the world's end: dropping a [`World`]
//! stops its supervisor (which stops its servers), waits for every
//! process of the world to go, and fails the test if one is left (after
//! killing it, so nothing outlives the test either way).

use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

use super::processes::{Found, live, world_processes};
use super::wait::{wait_until, within};
use super::world::World;

impl World {
    /// The `status --json` entry of server `name`.
    pub fn status(&self, name: &str) -> Value {
        self.json(&["status", name], 0)["servers"][0].clone()
    }

    /// The running supervisor's pid, from `supervisor status --json`.
    pub fn daemon_pid(&self) -> u32 {
        self.json(&["supervisor", "status"], 0)["pid"]
            .as_u64()
            .expect("a supervisor pid") as u32
    }

    /// The supervisor's socket in the state directory.
    pub fn socket(&self) -> PathBuf {
        let dir = std::fs::read_dir(self.state()).unwrap();
        dir.flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "sock"))
            .expect("a socket")
    }

    /// A connection to the supervisor's socket.
    pub fn connect(&self) -> UnixStream {
        UnixStream::connect(self.socket()).expect("connect to the supervisor")
    }

    /// Every live process of this world (see [`world_processes`]).
    pub fn processes(&self) -> Vec<Found> {
        let dir = self.dir.path().to_string_lossy();
        let state = self.state.to_string_lossy();
        world_processes(&dir, &state, &self.marker)
    }

    /// Panic unless every server carrying this world's marker is gone
    /// within 10 s (its supervisor may still run).
    #[track_caller]
    pub fn assert_no_orphans(&self) {
        wait_until(within(10), || live(&self.marker).is_empty());
        assert_eq!(live(&self.marker), vec![], "processes left behind");
    }

    /// End (KILL) every process of this world now: for a test whose own
    /// stand-ins deliberately outlive what it checks (a browser's idle
    /// connections), which the drop would otherwise count as left behind.
    pub fn end_processes(&self) {
        for (pid, _) in self.processes() {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
        wait_until(within(5), || self.processes().is_empty());
    }

    /// Stop the world's supervisor: `supervisor stop`, then TERM for one
    /// that did not listen (a test may have broken its state directory).
    fn stop_supervisor(&self) {
        let is_supervisor = |(_, cmdline): &Found| cmdline.contains("supervisor run");
        if !self.processes().iter().any(is_supervisor) {
            return;
        }
        let _ = self.output(&["supervisor", "stop"]);
        let stopped = wait_until(within(5), || !self.processes().iter().any(is_supervisor));
        if !stopped {
            for (pid, _) in self.processes().iter().filter(|p| is_supervisor(p)) {
                let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGTERM);
            }
        }
    }
}

/// What a test started ends with its world, and a process that outlives
/// its supervisor fails the test (never a second panic while panicking).
impl Drop for World {
    fn drop(&mut self) {
        self.stop_supervisor();
        let gone = wait_until(within(10), || self.processes().is_empty());
        if gone {
            return;
        }
        let left = self.processes();
        for (pid, _) in &left {
            let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGKILL);
        }
        let _ = wait_until(within(5), || self.processes().is_empty());
        if !std::thread::panicking() {
            panic!("processes left behind by the test: {left:?}");
        }
    }
}

/// A supervisor stand-in run by another user: answers `hello` like a real
/// one, fails every other request with "FORGED", and appends each request
/// it reads to `record`.
const IMPOSTOR: &str = r#"
import json, os, socket, struct, sys
sock, record = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX); s.bind(sock); os.chmod(sock, 0o777); s.listen(8)
print("listening", flush=True)
def frame(c):
    head = c.recv(4, socket.MSG_WAITALL)
    if len(head) < 4: return None
    return json.loads(c.recv(struct.unpack(">I", head)[0], socket.MSG_WAITALL))
while True:
    c, _ = s.accept()
    while (m := frame(c)) is not None:
        open(record, "a").write(json.dumps(m) + "\n")
        hello = {"type": "hello", "version": m["op"].get("version", 1), "daemon": "0", "pid": 4242}
        out = {"id": m["id"], "result": hello} if m["op"]["type"] == "hello" else {"id": m["id"], "error": {"code": "failed", "message": "FORGED"}}
        b = json.dumps(out).encode(); c.sendall(struct.pack(">I", len(b)) + b)
    c.close()
"#;

impl World {
    /// Run `call a fast --arg password=hunter2 --no-spawn` while
    /// [`IMPOSTOR`] listens on `socket` as uid 65534 (reached through a
    /// link at `link` when given); the call's output and what the impostor
    /// was sent.
    pub fn call_through_impostor(
        &self,
        socket: &std::path::Path,
        record: &std::path::Path,
        link: Option<&std::path::Path>,
    ) -> (std::process::Output, String) {
        let mut impostor = impostor_as_nobody(socket, record);
        if let Some(link) = link {
            std::os::unix::fs::symlink(socket, link).unwrap();
        }
        let args = [
            "call",
            "a",
            "fast",
            "--arg",
            "password=hunter2",
            "--no-spawn",
        ];
        let out = self.output(&args);
        let _ = impostor.kill();
        let _ = impostor.wait();
        (out, std::fs::read_to_string(record).unwrap_or_default())
    }
}

/// Start [`IMPOSTOR`] as uid 65534 (the caller is root) listening on
/// `socket` and recording what it is sent in `record`; returns once it
/// listens.
pub fn impostor_as_nobody(
    socket: &std::path::Path,
    record: &std::path::Path,
) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    let mut impostor = std::process::Command::new("python3")
        .args(["-c", IMPOSTOR])
        .arg(socket)
        .arg(record)
        .uid(65534)
        .gid(65534)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(impostor.stdout.take().unwrap()),
        &mut ready,
    )
    .unwrap();
    assert_eq!(ready.trim(), "listening");
    impostor
}

/// Fail, never pass unrun, unless the test runs as root: the tests that
/// act as another uid (65534) need it; `test` names the one to rerun.
pub fn require_root(test: &str) {
    assert!(
        nix::unistd::geteuid().is_root(),
        "this test acts as uid 65534 and needs root: run it as root (sudo -E cargo test --test supervisor -- --ignored {test})"
    );
}
