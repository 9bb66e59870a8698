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
