//! `mcpctl check` end to end: the real binary, a definition file, fixtures.

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
    let fx = support::fixture().to_string_lossy().into_owned();
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
    // The disabled one is listed as skipped, not checked and not left out.
    let off = run
        .stdout
        .lines()
        .find(|l| l.starts_with("off "))
        .unwrap_or_else(|| panic!("disabled server not listed\n{run}"));
    assert!(off.contains("skipped (disabled)"), "{run}");
    assert!(!run.stdout.contains("FAILED off"), "{run}");
    let doc = sandbox.run(&["--file", &file, "--json", "check"]).json();
    let off = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "off")
        .unwrap_or_else(|| panic!("disabled server not in --json: {doc}"));
    assert_eq!(off["skipped"], true, "{doc}");
    assert_eq!(off["reason"], "disabled", "{doc}");
    assert_eq!(
        (
            doc["passed"].as_u64(),
            doc["failed"].as_u64(),
            doc["skipped"].as_u64()
        ),
        (Some(1), Some(1), Some(1)),
        "{doc}"
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
    let fx = support::fixture().to_string_lossy().into_owned();
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
    let fx = support::fixture().to_string_lossy().into_owned();
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

/// Run `check` with `extra` over ten slow servers carrying `marker`, and
/// return the most of them seen running at once (counted from /proc, so
/// the proof does not depend on how fast the machine is).
fn most_at_once(sandbox: &Sandbox, marker: &str, extra: &[&str]) -> usize {
    let fx = support::fixture().to_string_lossy().into_owned();
    let mut servers = serde_json::Map::new();
    for i in 0..10 {
        servers.insert(
            format!("slow{i}"),
            serde_json::json!({"command": fx, "args": ["--slow-start", "500", "--marker", marker]}),
        );
    }
    let file = write_defs(sandbox, serde_json::Value::Object(servers));
    let mut check = sandbox
        .command()
        .args(["--file", &file, "check"])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("mcpctl runs");
    let mut most = 0;
    let status = loop {
        let running = support::processes_with(marker)
            .iter()
            .filter(|(_, line)| !line.starts_with('Z'))
            .count();
        most = most.max(running);
        if let Some(status) = check.try_wait().expect("wait for mcpctl") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(status.success(), "check {extra:?} failed: {status}");
    most
}

#[test]
fn slow_servers_are_checked_concurrently() {
    let sandbox = Sandbox::new();
    let marker = format!("mcpctl-concurrency-{}", std::process::id());
    // Each server takes 500 ms to answer: checked one by one, no two would
    // ever run at once.
    let most = most_at_once(&sandbox, &marker, &[]);
    assert!(most >= 3, "at most {most} servers ran at once");
    // --jobs 2 runs them two at a time, never more.
    let most = most_at_once(&sandbox, &marker, &["--jobs", "2"]);
    assert!(
        (1..=2).contains(&most),
        "{most} servers ran at once under --jobs 2"
    );
}

#[test]
fn add_checks_before_saving() {
    let sandbox = Sandbox::new();
    let fx = support::fixture().to_string_lossy().into_owned();
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

#[test]
fn children_inherit_only_safe_and_operator_listed_variables() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        serde_json::json!({"envdump": {"command": "sh", "args": ["-c", "env >&2; exit 7"]}}),
    );
    let run = sandbox.run_with(&["--file", &file, "check", "--json"], |cmd| {
        cmd.env("MCPCTL_INHERIT_ENV", "MCPCTL_TEST_LISTED")
            .env("MCPCTL_TEST_LISTED", "passed-through")
            .env("MCPCTL_TEST_UNLISTED", "kept-back");
    });
    run.expect_code(1)
        .stdout_has("MCPCTL_TEST_LISTED=passed-through");
    assert!(!run.stdout.contains("kept-back"), "{run}");
}

/// `capabilities: {}` is valid MCP (tools are optional): the server is
/// healthy, `tools/list` is never sent, and `add` saves it.
#[test]
fn a_server_without_the_tools_capability_passes() {
    let sandbox = Sandbox::new();
    // Answers initialize with no capabilities; any other request makes it exit 9.
    let script = r#"read line; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"bare","version":"1"}}}'; while read line; do case "$line" in *'"id"'*) echo "unexpected request: $line" >&2; exit 9;; esac; done"#;
    let fx = support::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({
            "bare": {"command": "sh", "args": ["-c", script]},
            "fx": {"command": fx, "args": ["--no-tools-capability"]},
        }),
    );
    let run = sandbox.run(&["--file", &file, "check"]);
    run.expect_code(0)
        .stdout_has("bare: ok, no tools capability")
        .stdout_has("fx: ok, no tools capability");
    let doc = sandbox.run(&["--file", &file, "--json", "check"]).json();
    assert_eq!(doc["servers"][0]["ok"], true, "{doc}");
    assert_eq!(doc["servers"][0]["tools_capability"], false, "{doc}");
    sandbox
        .run(&[
            "--file",
            &file,
            "add",
            "--name",
            "bare2",
            "--command",
            "sh",
            "--",
            "-c",
            script,
        ])
        .expect_code(0)
        .stderr_has("bare2: ok, no tools capability");
}

/// Tools advertised but none listed: a warning, a failure only with --strict.
#[test]
fn an_empty_tool_list_warns_and_fails_only_when_strict() {
    let sandbox = Sandbox::new();
    let fx = support::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({"empty": {"command": fx, "args": ["--tools", "0"]}}),
    );
    sandbox
        .run(&["--file", &file, "check"])
        .expect_code(0)
        .stdout_has(
            "empty: warning [no-tools]: advertises the tools capability but lists no tools",
        );
    sandbox
        .run(&["--file", &file, "check", "--strict"])
        .expect_code(1)
        .stdout_has("empty: error [no-tools]");
}

/// Garbage on stdout, then silence: named within moments, not at the end of
/// the 30 s budget.
#[test]
fn garbage_then_silence_is_named_without_waiting_for_the_budget() {
    let sandbox = Sandbox::new();
    let fx = support::fixture().to_string_lossy().into_owned();
    let file = write_defs(
        &sandbox,
        serde_json::json!({"noisy": {"command": fx, "args": ["--garbage-stdout", "--hang"]}}),
    );
    let start = Instant::now();
    let run = sandbox.run(&["--file", &file, "check", "--timeout", "30"]);
    let took = start.elapsed();
    run.expect_code(1).stdout_has(
        "noisy: the process printed non-JSON on stdout during initialize: \"Starting fixture server v1.0 on stdio...\"",
    );
    assert!(took < Duration::from_secs(5), "took {took:?}\n{run}");
}
