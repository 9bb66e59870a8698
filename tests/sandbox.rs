//! Issue 22, first milestone: a local server in a sandbox of its own.
//!
//! A hostile fixture (`--probe`) tries what a malicious package would:
//! read planted keys, the definitions file and mcpctl's token file, write
//! `~/.bashrc` and beside the definitions, reach loopback over TCP, UDP
//! and an abstract Unix socket, ask a DNS server, resolve a name, signal
//! mcpctl and the process that started it, and gain root through a setuid
//! program. Under `"sandbox": "none"` every attempt fails and the
//! server still answers; under `"off"` every one succeeds (so the probes
//! prove something). A kernel without Landlock or user namespaces
//! (simulated by the test-only switches) refuses to start the server.

mod support;

use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;

use serde_json::{Map, Value, json};
use support::World;

/// What a test planted for the probe to reach, kept alive while it runs.
struct Planted {
    args: Value,
    _dns: UdpSocket,
    _tcp: TcpListener,
    _udp: UdpSocket,
    _abstract: UnixListener,
    _socket: UnixListener,
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A DNS server on loopback that answers every query (with no records),
/// so the probe can tell a lookup that got through from one that did not.
fn dns_server() -> UdpSocket {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let answering = socket.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut packet = [0u8; 512];
        while let Ok((n, from)) = answering.recv_from(&mut packet) {
            if n > 3 {
                packet[2] |= 0x80;
                let _ = answering.send_to(&packet[..n], from);
            }
        }
    });
    socket
}

/// Secrets in the world's home and state, listeners on loopback, and the
/// probe's arguments naming all of them.
fn plant(w: &World) -> Planted {
    use std::os::linux::net::SocketAddrExt;
    let home = w.dir.path();
    write(&home.join(".ssh/id_rsa"), "PRIVATE KEY\n");
    write(&home.join(".aws/credentials"), "[default]\nkey = AKIA\n");
    write(&home.join(".bashrc"), "# rc\n");
    std::fs::create_dir_all(w.state()).unwrap();
    std::fs::set_permissions(
        w.state(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let token = w.state().join("oauth.json");
    write(&token, "{}\n");
    let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    let name = format!("mcpctl-probe-{}", w.marker);
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let abstract_socket = UnixListener::bind_addr(&addr).unwrap();
    // Where the supervisor's socket lives (mcpctl's state directory).
    let socket = UnixListener::bind(w.state().join("s.sock")).unwrap();
    let dns = dns_server();
    // Another server's private data.
    let other = w.path("cache/mcpctl/sandbox/other/data/secret");
    write(&other, "other's\n");
    let s = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let args = json!({
        "read": [s(&home.join(".ssh/id_rsa")), s(&home.join(".aws/credentials")), s(&w.file), s(&token),
                 "/proc/{ppid}/environ", s(&other)],
        "unix": s(&w.state().join("s.sock")),
        "write": [s(&home.join(".bashrc")), s(&w.path("beside.json"))],
        "tcp": tcp.local_addr().unwrap().to_string(),
        "udp": udp.local_addr().unwrap().to_string(),
        "abstract": name,
        "signal": ["ppid", std::process::id().to_string()],
        "dns": dns.local_addr().unwrap().to_string(),
    });
    Planted {
        args,
        _dns: dns,
        _tcp: tcp,
        _udp: udp,
        _abstract: abstract_socket,
        _socket: socket,
    }
}

/// The probe's answer, called directly (no supervisor) under `sandbox`,
/// to everything [`plant`] set up.
fn probe(sandbox: Value) -> Map<String, Value> {
    let w = World::new();
    let planted = plant(&w);
    let seen = probe_with(&w, sandbox, planted.args.clone(), |_| {});
    assert_eq!(seen.len(), 15, "every probe ran: {seen:#?}");
    seen
}

/// The probe's answer for `args`, called directly (no supervisor) under
/// `sandbox`, as whoever `tweak` makes mcpctl run as.
fn probe_with(
    w: &World,
    sandbox: Value,
    args: Value,
    tweak: impl FnOnce(&mut std::process::Command),
) -> Map<String, Value> {
    w.write(json!({"hostile": {"command": "{fixture}", "args": ["--probe"], "sandbox": sandbox}}));
    let file = w.file.to_string_lossy().into_owned();
    let args = args.to_string();
    let run = w.run_with(
        &[
            "--file", &file, "--json", "call", "hostile", "probe", "--direct", "--args", &args,
        ],
        tweak,
    );
    run.expect_code(0);
    run.json()["result"]["structuredContent"]
        .as_object()
        .unwrap_or_else(|| panic!("no structuredContent in the probe's answer\n{run}"))
        .clone()
}

#[test]
fn under_none_every_probe_fails_and_the_server_still_answers() {
    let seen = probe(json!("none"));
    let escaped: Vec<_> = seen.iter().filter(|(_, v)| *v == "ok").collect();
    assert!(escaped.is_empty(), "escaped the sandbox: {escaped:#?}");
}

#[test]
fn under_network_only_the_network_is_open() {
    let seen = probe(json!("network"));
    let escaped: Vec<_> = seen
        .iter()
        .filter(|(k, v)| {
            *v == "ok"
                && !["tcp ", "udp ", "dns "]
                    .iter()
                    .any(|net| k.starts_with(net))
        })
        .collect();
    assert!(escaped.is_empty(), "escaped the sandbox: {escaped:#?}");
    let tcp = seen.iter().find(|(k, _)| k.starts_with("tcp ")).unwrap();
    assert_eq!(tcp.1, "ok", "outbound is open under network: {seen:#?}");
}

#[test]
fn under_off_every_probe_succeeds_so_the_probes_prove_something() {
    let seen = probe(json!("off"));
    let failed: Vec<_> = seen.iter().filter(|(_, v)| *v != "ok").collect();
    assert!(failed.is_empty(), "a probe failed unconfined: {failed:#?}");
}

/// A definition whose launch leaves a file behind when it starts.
fn marked_launch(w: &World, sandbox: &str) -> std::path::PathBuf {
    let started = w.path("started");
    let script = format!(
        "touch '{}'; exec '{}'",
        started.display(),
        support::fixture().display()
    );
    w.write(json!({"s": {"command": "sh", "args": ["-c", script], "sandbox": sandbox}}));
    started
}

#[test]
fn a_kernel_without_landlock_refuses_the_start_and_names_what_is_missing() {
    for switch in ["MCPCTL_TEST_NO_LANDLOCK", "MCPCTL_TEST_NO_USERNS"] {
        let mut w = World::new();
        let started = marked_launch(&w, "none");
        w.set(switch, "1");
        let file = w.file.to_string_lossy().into_owned();
        let run = w.run(&["--file", &file, "check"]);
        run.expect_code(1);
        let said = format!("{}{}", run.stdout, run.stderr);
        let missing = if switch.ends_with("LANDLOCK") {
            "Landlock"
        } else {
            "user namespaces"
        };
        assert!(
            said.contains("not started") && said.contains(missing),
            "{run}"
        );
        assert!(said.contains("\"sandbox\": \"off\""), "no hint: {run}");
        assert!(
            !started.exists(),
            "{switch}: the server was started unconfined"
        );
    }
}

#[test]
fn off_runs_unconfined_even_without_landlock() {
    let mut w = World::new();
    let started = marked_launch(&w, "off");
    w.set("MCPCTL_TEST_NO_LANDLOCK", "1");
    let file = w.file.to_string_lossy().into_owned();
    w.run(&["--file", &file, "check"]).expect_code(0);
    assert!(started.exists());
}

/// `check` on one entry whose `sandbox` is `value`: the refusal's text.
fn refused(value: Value) -> String {
    let w = World::new();
    let text = format!(
        "{{\n  \"mcpServers\": {{\n    \"ok\": {{\"command\": \"sh\"}},\n    \"bad\": {{\n      \"command\": \"sh\",\n      \"sandbox\": {value}\n    }}\n  }}\n}}\n"
    );
    std::fs::write(&w.file, text).unwrap();
    let file = w.file.to_string_lossy().into_owned();
    let run = w.run(&["--file", &file, "list"]);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains(&format!("{file}:4")),
        "no FILE:LINE of the entry: {run}"
    );
    said
}

#[test]
fn bad_profiles_are_refused_with_file_and_line() {
    let cases = [
        (json!("sometimes"), "unknown sandbox"),
        (json!({"read": ["data"]}), "relative"),
        (json!({"reed": ["/data"]}), "unknown key `reed`"),
        (json!({"read": ["/srv/../etc"]}), "`..`"),
        (
            json!({"network": {"outbound": {"allow_hosts": []}}}),
            "unknown key `allow_hosts`",
        ),
        (
            json!({"network": {"outbound": {"allow_host": ["https://api.example.com"]}}}),
            "scheme",
        ),
        (
            json!({"network": {"outbound": {"allow_host": ["api.example.com/v1"]}}}),
            "path",
        ),
        (
            json!({"network": {"outbound": {"allow_port": [0]}}}),
            "allow_port",
        ),
        (json!({"privileged": true}), "privileged"),
        (json!(42), "string or an object"),
    ];
    for (value, needle) in cases {
        let said = refused(value.clone());
        assert!(
            said.contains(needle),
            "{value}: `{needle}` not said:\n{said}"
        );
        assert!(
            said.contains("hint") || said.contains("use "),
            "{value}: no hint\n{said}"
        );
    }
}

#[test]
fn a_write_inside_or_over_mcpctl_state_is_refused() {
    let w = World::new();
    let state = w.state().to_string_lossy().into_owned();
    for write in [format!("{state}/sandbox"), state.clone(), "~".to_string()] {
        let text = json!({"mcpServers": {"bad": {"command": "sh", "sandbox": {"write": [write]}}}});
        std::fs::write(&w.file, serde_json::to_string_pretty(&text).unwrap()).unwrap();
        let file = w.file.to_string_lossy().into_owned();
        let run = w.run(&["--file", &file, "list"]);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(said.contains("mcpctl's state"), "{write}: {run}");
    }
}

#[test]
fn profile_paths_over_mcpctl_state_are_refused_at_launch_too() {
    // `${MCPCTL_STATE_DIR}` is expanded only at launch; `/` holds the state.
    for profile in [
        json!({"write": ["${MCPCTL_STATE_DIR}/x"]}),
        json!({"read": ["${MCPCTL_STATE_DIR}"]}),
        json!({"read": ["/"]}),
    ] {
        let w = World::new();
        let started = w.path("started");
        let script = format!("touch '{}'", started.display());
        w.write(json!({"s": {"command": "sh", "args": ["-c", script], "sandbox": profile}}));
        let file = w.file.to_string_lossy().into_owned();
        let run = w.run(&["--file", &file, "check"]);
        assert_ne!(run.code, 0, "{profile}: {run}");
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(said.contains("mcpctl's state"), "{profile}: {run}");
        assert!(!started.exists(), "{profile}: started");
    }
}

#[test]
fn show_and_json_print_the_policy() {
    let w = World::new();
    let profile = json!({"read": ["~/projects"], "write": ["/srv/out"], "network": {"outbound": {"insecure_allow_all": true}}});
    w.write(json!({
        "a": {"command": "sh", "sandbox": "none"},
        "b": {"command": "sh", "sandbox": profile},
        "c": {"command": "sh"},
    }));
    let file = w.file.to_string_lossy().into_owned();
    let shown = w.ok(&["--file", &file, "show", "a"], 0);
    assert!(shown.contains("sandbox:    none"), "{shown}");
    let shown = w.ok(&["--file", &file, "show", "c"], 0);
    assert!(shown.contains("sandbox:    unset (unconfined)"), "{shown}");
    let shown = w.ok(&["--file", &file, "show", "b"], 0);
    assert!(
        shown.contains("sandbox:    profile") && shown.contains("~/projects"),
        "{shown}"
    );
    let json = w.json(&["--file", &file, "show", "b"], 0);
    assert_eq!(json["sandbox"]["kind"], "profile", "{json}");
    assert_eq!(
        json["sandbox"]["profile"]["read"],
        json!(["~/projects"]),
        "{json}"
    );
}

#[test]
fn the_field_survives_edits_byte_for_byte_in_every_format() {
    let files = [
        (
            "servers.json",
            "{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"sh\",\n      \"sandbox\": {\"read\": [\"~/a\"], \"network\": {\"outbound\": {\"allow_port\": [443]}}}\n    }\n  }\n}\n",
            "\"sandbox\": {\"read\": [\"~/a\"], \"network\": {\"outbound\": {\"allow_port\": [443]}}}",
        ),
        (
            "servers.yaml",
            "mcpServers:\n  s:\n    command: sh\n    sandbox:\n      read: [\"~/a\"]   # kept\n      network: {outbound: {allow_port: [443]}}\n",
            "    sandbox:\n      read: [\"~/a\"]   # kept\n      network: {outbound: {allow_port: [443]}}\n",
        ),
        (
            "config.toml",
            "[mcp_servers.s]\ncommand = \"sh\"\nsandbox = { read = [\"~/a\"] }  # kept\n",
            "sandbox = { read = [\"~/a\"] }  # kept\n",
        ),
    ];
    for (name, text, kept) in files {
        let w = World::new().file_named(name);
        std::fs::write(&w.file, text).unwrap();
        let file = w.file.to_string_lossy().into_owned();
        w.ok(&["--file", &file, "disable", "s"], 0);
        w.ok(&["--file", &file, "enable", "s"], 0);
        let after = std::fs::read_to_string(&w.file).unwrap();
        assert!(
            after.contains(kept),
            "{name}: the sandbox changed:\n{after}"
        );
    }
}

#[test]
fn the_supervisor_runs_a_sandboxed_server_that_cannot_reach_it() {
    let w = World::short("sb").marking_fixtures();
    w.write(json!({"h": {"command": "{fixture}", "args": ["--probe"], "sandbox": "none"}}));
    w.ok(&["start", "h"], 0);
    let socket = w.socket().to_string_lossy().into_owned();
    let daemon = w.daemon_pid().to_string();
    let args = json!({
        "unix": socket,
        "read": ["/proc/{ppid}/environ"],
        "signal": ["ppid", daemon],
    })
    .to_string();
    let out = w.json(&["call", "h", "probe", "--args", &args], 0);
    let seen = out["structuredContent"]
        .as_object()
        .or_else(|| out["result"]["structuredContent"].as_object())
        .unwrap_or_else(|| panic!("no structuredContent: {out}"));
    assert_eq!(seen.len(), 4, "{seen:#?}");
    let escaped: Vec<_> = seen.iter().filter(|(_, v)| *v == "ok").collect();
    assert!(escaped.is_empty(), "reached the supervisor: {escaped:#?}");
    w.ok(&["stop", "h"], 0);
    w.assert_no_orphans();
}

// DNS and setuid: the last of the probes.

#[test]
fn under_none_a_name_is_not_resolved_through_the_system_resolver() {
    // A name the machine resolves through DNS (the registry CI installs
    // from): resolved here, it must not be resolved from inside.
    let name = "registry.npmjs.org";
    let here = std::net::ToSocketAddrs::to_socket_addrs(&(name, 0));
    assert!(
        here.is_ok_and(|mut a| a.next().is_some()),
        "this machine cannot resolve {name}, so the probe would prove nothing"
    );
    let w = World::new();
    let seen = probe_with(&w, json!("none"), json!({"resolve": name}), |_| {});
    let got = &seen[&format!("resolve {name}")];
    assert!(got.as_str().unwrap().starts_with("denied"), "{seen:#?}");
    let seen = probe_with(&w, json!("off"), json!({"resolve": name}), |_| {});
    assert_eq!(seen[&format!("resolve {name}")], "ok", "{seen:#?}");
}

#[test]
#[ignore = "needs root to make a setuid-root program and run mcpctl as uid 65534; tests/run.sh runs it when root, as CI is"]
fn a_setuid_program_raises_no_privileges_inside() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    support::require_root("a_setuid_program_raises_no_privileges_inside");
    let w = World::new();
    w.give_to(65534);
    // A setuid-root `whoami`: it names the effective user, so `root`
    // means the bit raised the caller's privileges.
    let bin = w.path("suid");
    std::fs::create_dir_all(&bin).unwrap();
    let euid = bin.join("whoami");
    std::fs::copy("/usr/bin/whoami", &euid).unwrap();
    std::fs::set_permissions(&euid, std::fs::Permissions::from_mode(0o4755)).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let nobody = |cmd: &mut std::process::Command| {
        cmd.uid(65534).gid(65534);
    };
    let args = json!({"exec": euid.to_string_lossy()});
    let key = format!("exec {}", euid.display());
    let profile = json!({"read": [bin.to_string_lossy()]});
    let inside = probe_with(&w, profile, args.clone(), nobody);
    assert_eq!(inside[&key], "ok: nobody", "{inside:#?}");
    let outside = probe_with(&w, json!("off"), args, nobody);
    assert_eq!(
        outside[&key], "ok: root",
        "the setuid bit works unconfined: {outside:#?}"
    );
}
