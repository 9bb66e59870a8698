//! One-shot commands stopped by SIGINT, SIGTERM or SIGHUP end every server
//! they started (and its grandchildren) and exit 130, 143 or 129.

mod support;

use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use support::Sandbox;

/// Poll `what` every 20 ms until it returns `Some`, or panic after `limit`.
fn poll<T>(limit: Duration, why: &str, mut what: impl FnMut() -> Option<T>) -> T {
    support::wait_for(support::after(limit), &mut what)
        .unwrap_or_else(|| panic!("gave up after {limit:?}: {why}"))
}

/// Live processes carrying `marker`, other than `except` (mcpctl itself).
fn servers(marker: &str, except: u32) -> Vec<(u32, String)> {
    support::processes_with(marker)
        .into_iter()
        .filter(|(pid, _)| *pid != except)
        .collect()
}

/// Start mcpctl with `args`, wait until the server and its TERM-ignoring
/// grandchild run, send `signal`, and check the exit code and that nothing
/// carrying `marker` survives.
fn stop_with(sandbox: &Sandbox, args: &[&str], marker: &str, signal: Signal, code: i32) -> String {
    let mut mcpctl = sandbox
        .command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mcpctl starts");
    let me = mcpctl.id();
    poll(
        Duration::from_secs(60),
        "the server and its grandchild to start",
        || (servers(marker, me).len() == 2).then_some(()),
    );
    kill(Pid::from_raw(me as i32), signal).expect("signal mcpctl");
    poll(Duration::from_secs(30), "mcpctl to exit", || {
        mcpctl.try_wait().expect("wait mcpctl")
    });
    let run = support::to_run(mcpctl.wait_with_output().expect("collect output"));
    run.expect_code(code)
        .stderr_has(&format!("stopped by {}", signal.as_str()));
    // mcpctl reaped them before it exited; allow the kernel a moment anyway.
    support::wait_until(support::within(5), || servers(marker, me).is_empty());
    let left = servers(marker, me);
    assert!(
        left.is_empty(),
        "left running after {signal}: {left:?}\n{run}"
    );
    run.stderr
}

fn hanging_server(sandbox: &Sandbox, marker: &str) -> String {
    let fx = support::fixture().to_string_lossy().into_owned();
    let path = sandbox.path("servers.json");
    let defs = serde_json::json!({"mcpServers": {"stuck": {
        "command": fx,
        "args": ["--grandchild", "--marker", marker, "--hang"],
        "connect_timeout": 120,
    }}});
    std::fs::write(&path, defs.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

fn marker(test: &str) -> String {
    format!("mcpctl-signal-{test}-{}", std::process::id())
}

/// `check` of a server that never answers, stopped by `signal`.
fn check_stopped_by(test: &str, signal: Signal, code: i32) {
    let sandbox = Sandbox::new();
    let m = marker(test);
    let file = hanging_server(&sandbox, &m);
    stop_with(&sandbox, &["--file", &file, "check"], &m, signal, code);
}

#[test]
fn check_stopped_by_sigint_exits_130_and_ends_its_servers() {
    check_stopped_by("check-int", Signal::SIGINT, 130);
}

#[test]
fn check_stopped_by_sigterm_exits_143_and_ends_its_servers() {
    check_stopped_by("check-term", Signal::SIGTERM, 143);
}

#[test]
fn check_stopped_by_sighup_exits_129_and_ends_its_servers() {
    check_stopped_by("check-hup", Signal::SIGHUP, 129);
}

#[test]
fn add_stopped_during_its_check_saves_nothing_and_ends_the_server() {
    let sandbox = Sandbox::new();
    let m = marker("add-term");
    let fx = support::fixture().to_string_lossy().into_owned();
    let file = sandbox.path("servers.json");
    let file_s = file.to_string_lossy().into_owned();
    let args = [
        "--file",
        &file_s,
        "add",
        "--name",
        "stuck",
        "--command",
        &fx,
        "--",
        "--grandchild",
        "--marker",
        &m,
        "--hang",
    ];
    stop_with(&sandbox, &args, &m, Signal::SIGTERM, 143);
    assert!(!file.exists(), "add saved although it was stopped");
}

#[test]
fn call_direct_stopped_by_sigint_ends_the_server() {
    let sandbox = Sandbox::new();
    let m = marker("call-int");
    let file = hanging_server(&sandbox, &m);
    stop_with(
        &sandbox,
        &[
            "--file",
            &file,
            "call",
            "stuck",
            "echo",
            "--direct",
            "--arg",
            "message=hi",
        ],
        &m,
        Signal::SIGINT,
        130,
    );
}

#[test]
fn check_stopped_by_sigterm_also_ends_a_setsid_escapee() {
    let sandbox = Sandbox::new();
    let m = marker("check-escape");
    let fx = support::fixture().to_string_lossy().into_owned();
    let pidfile = sandbox.path("escapee.pid");
    let path = sandbox.path("servers.json");
    // The server double-forks a TERM-ignoring sleeper into a new session
    // (carrying the marker), then never answers.
    let defs = serde_json::json!({"mcpServers": {"stuck": {
        "command": fx,
        "args": ["--escape", pidfile, "--marker", m, "--hang"],
        "connect_timeout": 120,
    }}});
    std::fs::write(&path, defs.to_string()).unwrap();
    let file = path.to_string_lossy().into_owned();
    stop_with(
        &sandbox,
        &["--file", &file, "check"],
        &m,
        Signal::SIGTERM,
        143,
    );
}

/// Attack (fresh pass, issue 20): `kill -9` of an mcpctl that connects to a
/// server itself (`check`, `lock`, `call --direct`) while that server is
/// still starting left the server running: nothing ends it once mcpctl is
/// gone, and this one (which never answers) runs for ever. The
/// supervisor's servers are recorded at spawn for this; these are not.
#[test]
fn kill_9_of_a_direct_connection_mid_start_leaves_no_server_behind() {
    for (i, verb) in [
        &["check"][..],
        &["lock"],
        &["call", "stuck", "echo", "--direct"],
    ]
    .into_iter()
    .enumerate()
    {
        let sandbox = Sandbox::new();
        let m = marker(&format!("kill9-{i}"));
        let fx = support::fixture().to_string_lossy().into_owned();
        let file = sandbox.path("servers.json");
        let defs = serde_json::json!({"mcpServers": {"stuck": {
            "command": fx, "args": ["--marker", m, "--hang"], "connect_timeout": 120,
        }}});
        std::fs::write(&file, defs.to_string()).unwrap();
        let mut mcpctl = sandbox
            .command()
            .arg("--file")
            .arg(&file)
            .args(verb)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mcpctl starts");
        let me = mcpctl.id();
        poll(Duration::from_secs(60), "the server to start", || {
            (servers(&m, me).len() == 1).then_some(())
        });
        mcpctl.kill().expect("SIGKILL mcpctl");
        mcpctl.wait().expect("wait mcpctl");
        support::wait_until(support::within(5), || servers(&m, me).is_empty());
        let left = servers(&m, me);
        for (pid, _) in &left {
            let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGKILL);
        }
        assert!(
            left.is_empty(),
            "{verb:?}: left running after kill -9: {left:?}"
        );
    }
}
