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
        "mount": true,
        "keyctl": true,
        "bpf": true,
    })
}

const PROBES: usize = 7;

#[test]
fn under_none_the_kernel_probes_fail_and_the_server_still_answers() {
    let seen = probe(json!("none"), kernel_probes());
    assert_eq!(seen.len(), PROBES, "every probe ran: {seen:#?}");
    let escaped: Vec<_> = seen.iter().filter(|(_, v)| *v == "ok").collect();
    assert!(escaped.is_empty(), "escaped the sandbox: {escaped:#?}");
    // The filter's answer, not a crash or another boundary's.
    for key in ["ptrace child", "unshare", "clone", "keyctl", "bpf"] {
        let said = seen[key].as_str().unwrap_or_default();
        assert!(said.contains("Operation not permitted"), "{key}: {said}");
    }
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
    let mut expected = vec!["ptrace child", "unshare", "clone", "mount", "keyctl"];
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
