//! `mcpctl check` end to end: the real binary, a definition file, fixtures.

mod common;
mod support;

use std::time::{Duration, Instant};

use support::Sandbox;

fn write_defs(sandbox: &Sandbox, servers: serde_json::Value) -> String {
    let path = sandbox.path("servers.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&serde_json::json!({ "mcpServers": servers })).unwrap(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn check_reports_a_table_and_fails_when_one_server_fails() {
    let sandbox = Sandbox::new();
    let fx = common::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({
            "good": {"command": fx, "args": ["--tools", "4"]},
            "crash": {"command": fx, "args": ["--exit-at-once"]},
            "off": {"command": fx, "args": ["--exit-at-once"], "disabled": true},
        }),
    );
    let run = sandbox.run(&["--file", &file, "check", "--tools"]);
    run.expect_code(1)
        .stdout_has("NAME")
        .stdout_has("PROTOCOL")
        .stdout_has("mcpctl-fixture 1.0.0")
        .stdout_has("good tools: echo, fast, tool_2, tool_3")
        .stdout_has("FAILED (initialize)")
        .stdout_has("crash: the process exited during initialize (exit code 3)")
        .stdout_has("configuration file not found");
    assert!(
        !run.stdout.contains("off"),
        "disabled server was checked\n{run}"
    );

    // Only the healthy one: exit 0.
    sandbox
        .run(&["--file", &file, "check", "good"])
        .expect_code(0);
    // An unknown name is "not found" (3).
    sandbox
        .run(&["--file", &file, "check", "nosuch"])
        .expect_code(3);
}

#[test]
fn check_json_has_the_full_report() {
    let sandbox = Sandbox::new();
    let fx = common::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({
            "good": {"command": fx, "args": ["--tools", "3"]},
            "hang": {"command": fx, "args": ["--hang"]},
        }),
    );
    let run = sandbox.run(&["--file", &file, "--json", "check", "--timeout", "1"]);
    run.expect_code(1);
    let doc = run.json();
    let good = &doc["servers"][0];
    assert_eq!(good["ok"], true, "{run}");
    assert_eq!(good["protocol_version"], "2025-11-25");
    assert_eq!(good["tools"][0]["name"], "echo");
    assert_eq!(good["tools"][0]["inputSchema"]["type"], "object");
    assert!(good["timings"]["initialize_ms"].as_f64().unwrap() > 0.0);
    let hang = &doc["servers"][1];
    assert_eq!(hang["error"]["kind"], "timeout", "{run}");
    assert_eq!(hang["error"]["phase"], "initialize");
    assert_eq!(
        (doc["passed"].as_u64(), doc["failed"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn strict_turns_lints_into_failures() {
    let sandbox = Sandbox::new();
    let fx = common::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({"bad": {"command": fx, "args": ["--bad-schema"]}}),
    );
    sandbox
        .run(&["--file", &file, "check"])
        .expect_code(0)
        .stdout_has("warning [schema-invalid]: tool `pairs`");
    sandbox
        .run(&["--file", &file, "check", "--strict"])
        .expect_code(1)
        .stdout_has("error [schema-invalid]");
}

#[test]
fn slow_servers_are_checked_concurrently() {
    let sandbox = Sandbox::new();
    let fx = common::fixture().to_string_lossy().into_owned();
    let mut servers = serde_json::Map::new();
    for i in 0..10 {
        servers.insert(
            format!("slow{i}"),
            serde_json::json!({"command": fx, "args": ["--slow-start", "500"]}),
        );
    }
    let file = write_defs(&sandbox, serde_json::Value::Object(servers));
    let start = Instant::now();
    sandbox.run(&["--file", &file, "check"]).expect_code(0);
    // Serially this would take at least 5 s.
    assert!(
        start.elapsed() < Duration::from_millis(2500),
        "took {:?}",
        start.elapsed()
    );
    // --jobs 2 runs them two at a time: at least five rounds of 500 ms.
    let start = Instant::now();
    sandbox
        .run(&["--file", &file, "check", "--jobs", "2"])
        .expect_code(0);
    assert!(
        start.elapsed() >= Duration::from_millis(2500),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn add_checks_before_saving() {
    let sandbox = Sandbox::new();
    let fx = common::fixture().to_string_lossy().into_owned();
    let file = sandbox.path("servers.json");
    let file_s = file.to_string_lossy().into_owned();

    // A working server is saved, with the verdict on stderr.
    sandbox
        .run(&[
            "--file",
            &file_s,
            "add",
            "--name",
            "good",
            "--command",
            &fx,
            "--",
            "--tools",
            "3",
        ])
        .expect_code(0)
        .stderr_has("good: ok, 3 tools: echo, fast, tool_2");
    assert!(std::fs::read_to_string(&file).unwrap().contains("\"good\""));

    // A broken one is refused, the file is untouched, and --force is suggested.
    let before = std::fs::read(&file).unwrap();
    sandbox
        .run(&[
            "--file",
            &file_s,
            "add",
            "--name",
            "broken",
            "--command",
            &fx,
            "--",
            "--exit-at-once",
        ])
        .expect_code(1)
        .stderr_has("not saved: broken: the process exited during initialize (exit code 3)")
        .stderr_has("--force");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "file changed although add refused"
    );

    // --force saves it anyway; --no-check does not connect at all.
    sandbox
        .run(&[
            "--file",
            &file_s,
            "add",
            "--force",
            "--name",
            "broken",
            "--command",
            &fx,
            "--",
            "--exit-at-once",
        ])
        .expect_code(0)
        .stderr_has("saving anyway because of --force");
    sandbox
        .run(&[
            "--file",
            &file_s,
            "add",
            "--no-check",
            "--name",
            "unchecked",
            "--command",
            &fx,
            "--",
            "--hang",
        ])
        .expect_code(0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\"broken\"") && text.contains("\"unchecked\""),
        "{text}"
    );
}

/// Regression: with SIGPIPE at its default (for `mcpctl list | head`), a
/// server that closed its stdin after answering `initialize` made mcpctl die
/// by signal when it sent `notifications/initialized`.
#[test]
fn server_closing_stdin_does_not_kill_mcpctl_with_sigpipe() {
    let sandbox = Sandbox::new();
    let script = r#"read line; exec 0<&-; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"closer","version":"1"}}}'; echo closing stdin >&2; sleep 0.2; exit 5"#;
    let file = write_defs(
        &sandbox,
        serde_json::json!({"closer": {"command": "sh", "args": ["-c", script]}}),
    );
    sandbox
        .run(&["--file", &file, "check"])
        .expect_code(1)
        .stdout_has("closer: the process exited during initialize (exit code 5)")
        .stdout_has("closing stdin");
    sandbox
        .run(&[
            "--file",
            &file,
            "add",
            "--name",
            "closer2",
            "--command",
            "sh",
            "--",
            "-c",
            script,
        ])
        .expect_code(1)
        .stderr_has("not saved");
}
