//! Issue 22, the kernel's side of a sandbox (helper sbpid): the seccomp
//! filter and the PID namespace.
//!
//! The hostile fixture's kernel probes (`examples/fixture-server/
//! probe_kernel.rs`) try what a malicious package would next: trace a
//! process (a child of its own, which Landlock alone allows, and its
//! parent), make a user namespace by `unshare` and by `clone`, mount in
//! one, reach the user's keyring, load a BPF map. Under `"none"` each
//! fails and the server still answers; under `"off"` each an ordinary
//! user can do succeeds, so the probes prove something.

mod support;

use serde_json::{Map, Value, json};
use support::World;

/// The probe's answer to `args`, called directly under `sandbox`.
fn probe(sandbox: Value, args: Value) -> Map<String, Value> {
    let w = World::new();
    w.write(json!({"hostile": {"command": "{fixture}", "args": ["--probe"], "sandbox": sandbox}}));
    let file = w.file.to_string_lossy().into_owned();
    let args = args.to_string();
    let run = w.run(&[
        "--file", &file, "--json", "call", "hostile", "probe", "--direct", "--args", &args,
    ]);
    run.expect_code(0);
    let out = run.json();
    out["structuredContent"]
        .as_object()
        .or_else(|| out["result"]["structuredContent"].as_object())
        .unwrap_or_else(|| panic!("no structuredContent in the probe's answer\n{run}"))
        .clone()
}

fn kernel_probes() -> Value {
    json!({
        "ptrace": ["child", "ppid"],
        "unshare": true,
        "clone": true,
        "clone3": true,
        "personality": true,
        "mount": true,
        "keyctl": true,
        "bpf": true,
    })
}

const PROBES: usize = 9;

#[test]
fn under_none_the_kernel_probes_fail_and_the_server_still_answers() {
    let seen = probe(json!("none"), kernel_probes());
    assert_eq!(seen.len(), PROBES, "every probe ran: {seen:#?}");
    let escaped: Vec<_> = seen.iter().filter(|(_, v)| *v == "ok").collect();
    assert!(escaped.is_empty(), "escaped the sandbox: {escaped:#?}");
    // The filter's answer, not a crash or another boundary's.
    for key in [
        "ptrace child",
        "unshare",
        "clone",
        "personality",
        "keyctl",
        "bpf",
    ] {
        let said = seen[key].as_str().unwrap_or_default();
        assert!(said.contains("Operation not permitted"), "{key}: {said}");
    }
    // libc falls back to `clone` on ENOSYS, whose flags the filter reads.
    let said = seen["clone3"].as_str().unwrap_or_default();
    assert!(said.contains("Function not implemented"), "clone3: {said}");
}

/// Attack: the x32 ABI (same architecture value, bit 30 in the call
/// number) would reach every call the filter names under another number.
/// It kills the server instead, which `call` reports.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_x32_call_kills_a_sandboxed_server_and_not_an_unconfined_one() {
    let w = World::new();
    w.write(json!({
        "boxed": {"command": "{fixture}", "args": ["--probe"], "sandbox": "none"},
        "open": {"command": "{fixture}", "args": ["--probe"], "sandbox": "off"},
    }));
    let file = w.file.to_string_lossy().into_owned();
    let args = json!({"x32": true}).to_string();
    let call = |name: &str| {
        w.run(&[
            "--file", &file, "call", name, "probe", "--direct", "--args", &args,
        ])
    };
    let boxed = call("boxed");
    assert_ne!(boxed.code, 0, "{boxed}");
    let said = format!("{}{}", boxed.stdout, boxed.stderr);
    assert!(
        said.contains("SIGSYS") || said.contains("signal 31"),
        "{boxed}"
    );
    call("open").expect_code(0);
}

#[test]
fn under_network_the_kernel_probes_fail_too() {
    let seen = probe(json!("network"), kernel_probes());
    let escaped: Vec<_> = seen.iter().filter(|(_, v)| *v == "ok").collect();
    assert!(escaped.is_empty(), "escaped the sandbox: {escaped:#?}");
}

/// True when an ordinary process of this user may create a BPF map
/// (root, or unprivileged BPF allowed by the kernel).
fn bpf_is_open_here() -> bool {
    let sysctl = std::fs::read_to_string("/proc/sys/kernel/unprivileged_bpf_disabled");
    nix::unistd::geteuid().is_root() || sysctl.is_ok_and(|v| v.trim() == "0")
}

/// True when Yama lets a process trace its parent (scope 0 or no Yama).
fn parent_is_traceable_here() -> bool {
    std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope").map_or(true, |v| v.trim() == "0")
}

#[test]
fn under_off_the_kernel_probes_succeed_so_they_prove_something() {
    let seen = probe(json!("off"), kernel_probes());
    assert_eq!(seen.len(), PROBES, "every probe ran: {seen:#?}");
    let mut expected = vec![
        "ptrace child",
        "unshare",
        "clone",
        "clone3",
        "personality",
        "mount",
        "keyctl",
    ];
    if bpf_is_open_here() {
        expected.push("bpf");
    }
    if parent_is_traceable_here() {
        expected.push("ptrace ppid");
    }
    for key in expected {
        assert_eq!(seen[key], "ok", "{key} failed unconfined: {seen:#?}");
    }
}

// The PID namespace: `/proc` shows the server only its own namespace, and
// what it forks dies with it.

fn pids(seen: &Map<String, Value>) -> (Vec<u64>, u64) {
    let proc = &seen["proc"];
    let pids = proc["pids"].as_array().expect("pids");
    let pids = pids.iter().filter_map(Value::as_u64).collect();
    (pids, proc["self"].as_u64().expect("self"))
}

#[test]
fn under_none_proc_lists_only_the_servers_namespace() {
    let (pids, me) = pids(&probe(json!("none"), json!({"proc": true})));
    assert_eq!(pids, vec![1, me], "/proc shows other processes");
    let (pids, _) = pids_under_off();
    assert!(
        pids.contains(&u64::from(std::process::id())),
        "unconfined, the probe sees this test: {pids:?}"
    );
}

fn pids_under_off() -> (Vec<u64>, u64) {
    pids(&probe(json!("off"), json!({"proc": true})))
}

/// A sandboxed server whose launch script leaves a `setsid` escapee with
/// no environment (so no tag of mcpctl's), ignoring TERM, then runs the
/// fixture, which hangs at the first `tools/list` after writing `hung`
/// when `hang` says so.
fn escaping_server(w: &World, hang: bool) -> std::path::PathBuf {
    let out = w.path("out");
    std::fs::create_dir_all(&out).unwrap();
    let hung = out.join("hung");
    let script = format!(
        "( env -i PATH=/usr/bin:/bin setsid /bin/sh -c 'trap \"\" TERM; while :; do sleep 1; done' {m}-escapee \
           </dev/null >/dev/null 2>&1 & )\n\
         exec '{fx}' --marker {m} {hang_list} '{hung}'\n",
        m = w.marker,
        fx = support::fixture().display(),
        hung = hung.display(),
        hang_list = if hang { "--hang-list" } else { "--record" },
    );
    let fixture_dir = support::fixture().parent().unwrap();
    let sandbox = json!({"read": [fixture_dir], "write": [out]});
    w.write(json!({"s": {"command": "/bin/sh", "args": ["-c", script], "sandbox": sandbox}}));
    hung
}

#[test]
fn kill_9_of_check_or_call_direct_mid_call_leaves_no_escapee() {
    for verb in [&["check", "s"][..], &["call", "s", "echo", "--direct"]] {
        let w = World::new();
        let hung = escaping_server(&w, true);
        let file = w.file.to_string_lossy().into_owned();
        let mut mcpctl = w
            .command()
            .args(["--file", &file])
            .args(verb)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("mcpctl starts");
        let escaped = || support::live(&format!("{}-escapee", w.marker)).len() == 1;
        let ready = support::wait_until(support::within(60), || hung.exists() && escaped());
        assert!(
            ready,
            "{verb:?}: the server never hung mid-call with its escapee"
        );
        mcpctl.kill().expect("SIGKILL mcpctl");
        mcpctl.wait().expect("wait mcpctl");
        support::wait_until(support::within(10), || support::live(&w.marker).is_empty());
        let left = support::live(&w.marker);
        for (pid, _) in &left {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(*pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        assert!(left.is_empty(), "{verb:?}: left after kill -9: {left:?}");
    }
}

#[test]
fn a_sandboxed_server_stops_at_once_on_term() {
    let w = World::short("sbpid").marking_fixtures();
    w.write(json!({"h": {"command": "{fixture}", "args": [], "sandbox": "none"}}));
    w.ok(&["start", "h"], 0);
    let status = w.json(&["status"], 0);
    let started = std::time::Instant::now();
    w.ok(&["stop", "h"], 0);
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_millis(1500),
        "stop waited for the grace period ({took:?}): TERM did not reach the server; {status}"
    );
    w.assert_no_orphans();
}

/// Attack: `kill -9` of the supervisor leaves its sandboxed servers
/// running; the successor ends the relay's group, and the escapee (no
/// tag, its own session) goes with the namespace.
#[test]
fn a_successor_supervisor_ends_a_killed_ones_sandboxed_escapee() {
    let w = World::short("sbpk");
    escaping_server(&w, false);
    w.ok(&["start", "s"], 0);
    let escapee = format!("{}-escapee", w.marker);
    assert!(
        support::wait_until(support::within(10), || support::live(&escapee).len() == 1),
        "no escapee"
    );
    let daemon = nix::unistd::Pid::from_raw(w.daemon_pid() as i32);
    nix::sys::signal::kill(daemon, nix::sys::signal::Signal::SIGKILL).unwrap();
    support::wait_until(support::within(10), || {
        nix::sys::signal::kill(daemon, None).is_err()
    });
    w.ok(&["status"], 0);
    let gone = support::wait_until(support::within(15), || support::live(&w.marker).is_empty());
    let left = support::live(&w.marker);
    for (pid, _) in &left {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(*pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert!(gone, "left after the supervisor's kill -9: {left:?}");
}
