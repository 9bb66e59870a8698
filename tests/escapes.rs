//! Item 7: a server that double-forks a `setsid` grandchild (a daemon that
//! leaves the server's session and process group, and ignores SIGTERM)
//! does not outlive `check`, `stop` or `supervisor stop`.

mod support;

use std::path::Path;

use mcpctl::procfs;
use serde_json::{Value, json};
use support::{World, fixture, wait_until, within};

/// A world of fixture servers that each leave an escapee.
fn escapes_world(names: &[&str]) -> World {
    escapes_world_with_args(names, &[])
}

/// Fixture servers that each leave an escapee, plus `extra` arguments.
fn escapes_world_with_args(names: &[&str], extra: &[&str]) -> World {
    build(|dir| {
        names
            .iter()
            .map(|name| {
                let pidfile = dir.join(format!("{name}.pid"));
                let mut args = vec![json!("--escape"), json!(pidfile)];
                args.extend(extra.iter().map(|a| json!(a)));
                (
                    name.to_string(),
                    json!({"command": fixture(), "args": args}),
                )
            })
            .collect()
    })
}

/// One server, `name`, whose escapee also clears its environment (so
/// it carries no tag) and ignores TERM: found only as an orphan of ours.
fn scrubbed(name: &str) -> World {
    build(|dir| {
        let escapee = dir.join("escapee.sh");
        std::fs::write(
            &escapee,
            "trap '' TERM\n\
             echo \"$$ $(cut -d' ' -f22 /proc/$$/stat)\" > \"$1.tmp\"\n\
             mv \"$1.tmp\" \"$1\"\n\
             while :; do sleep 1; done\n",
        )
        .unwrap();
        let pidfile = dir.join(format!("{name}.pid"));
        let script = format!(
            "( env -i PATH=/usr/bin:/bin setsid /bin/sh {} {} </dev/null >/dev/null 2>&1 & )\n\
             while [ ! -e {} ]; do sleep 0.05; done\n\
             exec {}\n",
            escapee.display(),
            pidfile.display(),
            pidfile.display(),
            fixture().display()
        );
        let mut servers = serde_json::Map::new();
        servers.insert(
            name.to_string(),
            json!({"command": "/bin/sh", "args": ["-c", script]}),
        );
        servers
    })
}

/// A world whose definitions file holds `servers(its directory)`.
fn build(servers: impl FnOnce(&Path) -> serde_json::Map<String, Value>) -> World {
    let w = World::short("esc");
    let servers = servers(w.dir.path());
    std::fs::write(
        &w.file,
        serde_json::to_vec(&json!({ "mcpServers": Value::Object(servers) })).unwrap(),
    )
    .unwrap();
    w
}

/// The escapee `name`'s server left (its pid file is written once it
/// runs and before the server answers, so it exists once `check` or
/// `start` succeeded).
fn escapee(w: &World, name: &str) -> Escapee {
    Escapee::read(&w.path(&format!("{name}.pid")))
}

/// One escaped process, named by pid and start time (so a reused pid is
/// never mistaken for it). Dropping it KILLs it if it is still there, so a
/// failing test leaves nothing behind.
struct Escapee {
    pid: u32,
    start_time: u64,
}

impl Escapee {
    fn read(pidfile: &Path) -> Escapee {
        let text = std::fs::read_to_string(pidfile)
            .unwrap_or_else(|e| panic!("{}: {e}", pidfile.display()));
        let (pid, start_time) = text.trim().split_once(' ').expect("`pid start-time`");
        Escapee {
            pid: pid.parse().unwrap(),
            start_time: start_time.parse().unwrap(),
        }
    }

    fn running(&self) -> bool {
        procfs::stat(self.pid).is_some_and(|s| s.start_time == self.start_time && !s.is_zombie())
    }

    /// Poll until it is gone; panic with `after` if it is not within 15 s.
    fn assert_ended(&self, after: &str) {
        let ended = wait_until(within(15), || !self.running());
        assert!(ended, "the setsid grandchild {} survived {after}", self.pid);
    }
}

impl Drop for Escapee {
    fn drop(&mut self) {
        if self.running() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(self.pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

#[test]
fn check_ends_a_setsid_grandchild() {
    let w = escapes_world(&["esc"]);
    w.ok(&["check", "esc"], 0);
    escapee(&w, "esc").assert_ended("`check`");
}

#[test]
fn stop_ends_a_setsid_grandchild_and_spares_another_servers() {
    let w = escapes_world(&["a", "b"]);
    w.ok(&["start", "a"], 0);
    w.ok(&["start", "b"], 0);
    let (a, b) = (escapee(&w, "a"), escapee(&w, "b"));
    assert!(a.running() && b.running(), "both escapees run");
    w.ok(&["stop", "a"], 0);
    a.assert_ended("`stop a`");
    assert!(b.running(), "`stop a` ended the escapee of `b`");
    w.ok(&["stop", "b"], 0);
    b.assert_ended("`stop b`");
}

#[test]
fn supervisor_stop_ends_a_setsid_grandchild() {
    let w = escapes_world(&["esc"]);
    w.ok(&["start", "esc"], 0);
    let escapee = escapee(&w, "esc");
    assert!(escapee.running(), "the escapee runs");
    w.ok(&["supervisor", "stop"], 0);
    escapee.assert_ended("`supervisor stop`");
}

/// SIGKILL the world's supervisor and wait until it is gone.
fn kill_the_daemon(w: &World) {
    let out = w.output(&["supervisor", "status", "--json"]);
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    let daemon = status["pid"].as_u64().expect("the daemon's pid") as i32;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(daemon),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let gone = wait_until(within(10), || !procfs::alive(daemon as u32));
    assert!(gone, "the daemon survived SIGKILL");
}

#[test]
fn the_next_supervisor_ends_the_escapee_of_one_killed_with_sigkill() {
    let w = escapes_world(&["esc"]);
    w.ok(&["start", "esc"], 0);
    let escapee = escapee(&w, "esc");
    assert!(escapee.running(), "the escapee runs");
    kill_the_daemon(&w);
    assert!(escapee.running(), "the escapee outlived its daemon");
    // The next supervisor, spawned by this start, ends what the last left.
    w.ok(&["supervisor", "start"], 0);
    escapee.assert_ended("the next supervisor's start");
}

#[test]
fn check_ends_an_escapee_that_cleared_its_environment() {
    let w = scrubbed("esc");
    w.ok(&["check", "esc"], 0);
    escapee(&w, "esc").assert_ended("`check`");
}

#[test]
fn stop_ends_an_escapee_that_cleared_its_environment() {
    let w = scrubbed("esc");
    w.ok(&["start", "esc"], 0);
    let escapee = escapee(&w, "esc");
    assert!(escapee.running(), "the escapee runs");
    w.ok(&["stop", "esc"], 0);
    escapee.assert_ended("`stop`");
}

#[test]
fn the_next_supervisor_answers_while_it_ends_what_the_last_left() {
    // Two servers whose grandchild (in the group) and escapee (outside it)
    // both ignore TERM: ending them takes a grace period and a KILL, which
    // must not make the first command after the SIGKILL give up (exit 5).
    let w = escapes_world_with_args(&["e1", "e2"], &["--grandchild"]);
    w.ok(&["start", "e1", "e2"], 0);
    let (e1, e2) = (escapee(&w, "e1"), escapee(&w, "e2"));
    kill_the_daemon(&w);
    w.ok(&["start", "e1"], 0);
    e1.assert_ended("the next supervisor's start");
    e2.assert_ended("the next supervisor's start");
}

/// Issue 21: the harness itself fails a test whose world is left with a
/// process of its own (here one carrying the world's state directory, as
/// a supervisor does), and ends that process rather than let it outlive
/// the test.
#[test]
fn a_world_fails_the_test_that_leaves_a_process_behind() {
    use std::os::unix::process::ExitStatusExt;
    let w = World::new();
    let mut left = std::process::Command::new("sleep")
        .arg("120")
        .env("MCPCTL_STATE_DIR", w.state())
        .spawn()
        .expect("sleep runs");
    let pid = left.id();
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(w)));
    let why = dropped.expect_err("dropping the world did not fail the test");
    let why = why.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(why.contains("processes left behind"), "{why}");
    assert!(why.contains(&pid.to_string()), "{why}");
    let status = left.wait().expect("reap sleep");
    assert_eq!(status.signal(), Some(9), "{status}");
}
