//! `mcpctl serve`, `grant` and `revoke` end to end: a real supervisor per
//! test in its own short `MCPCTL_STATE_DIR`, the real binary, and the
//! official MCP Python SDK (`mcp==2.3.0`, installed by tests/run.sh) as
//! the agent, over stdio and Streamable HTTP (tests/peers/serve_client.py),
//! and the MCP Inspector CLI (`mcp-inspector --cli`) as a second one.
//! The SDK's Python is `MCPCTL_TEST_PYTHON`, else this checkout's
//! .peers/venv; without either, or without `mcp-inspector`, these tests
//! fail, naming how to set them up.

mod support;

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{World, fixture, free_port, python, require, wait_until, within};

/// A world for the serve tests: `servers` in its definitions file, and
/// uv trusting the system's certificates (as tests/run.sh sets).
fn world(servers: Value) -> World {
    let mut w = World::short("sv");
    w.set("UV_SYSTEM_CERTS", "1");
    w.set("MCPCTL_INHERIT_ENV", "UV_SYSTEM_CERTS");
    w.write(servers);
    w
}

fn fx(args: &[&str]) -> Value {
    json!({"command": "{fixture}", "args": args})
}

fn names(step: &Value) -> Vec<String> {
    step["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools in {step}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn text(step: &Value) -> String {
    step["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text result in {step}"))
        .to_string()
}

/// The argv an agent host's entry (`command`, `args`) launches.
fn entry_argv(entry: &Value) -> Vec<String> {
    let mut argv = vec![entry["command"].as_str().unwrap().to_string()];
    argv.extend(
        entry["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string()),
    );
    argv
}

/// One raw HTTP/1.1 POST of an `initialize`; the status code.
fn status_of(url: &str, headers: &[(&str, &str)]) -> u16 {
    let url = url::Url::parse(url).unwrap();
    let mut s =
        std::net::TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let mut req = format!(
        "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        url.path(),
        url.host_str().unwrap(),
        url.port().unwrap(),
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).unwrap();
    let line = String::from_utf8_lossy(&buf[..n]);
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn grant_writes_name_and_hash_in_the_entry_keeping_the_file() {
    let w = world(json!({}));
    let text = format!(
        "{{\n  // operator notes stay\n  \"mcpServers\": {{\n    \"fx\": {{\"command\": \"{}\", \"args\": [], \"x-unknown\": 1}}\n  }}\n}}\n",
        fixture().display()
    );
    std::fs::write(&w.file, &text).unwrap();
    w.ok(&["start", "fx"], 0);
    let out: Value =
        serde_json::from_str(&w.ok(&["grant", "fx", "echo", "fast", "--json"], 0)).unwrap();
    assert_eq!(out["granted"][0]["exposed"], "fx__echo");
    let hash = out["granted"][0]["hash"].as_str().unwrap().to_string();
    assert!(hash.starts_with("sha256:"), "{hash}");
    let after = std::fs::read_to_string(&w.file).unwrap();
    assert!(after.contains("// operator notes stay"), "{after}");
    assert!(after.contains("\"x-unknown\": 1"), "{after}");
    assert!(after.contains(&format!("\"echo\": \"{hash}\"")), "{after}");
    // A grant is not a launch change: the running server stays `ready`.
    let status: Value = serde_json::from_str(&w.ok(&["status", "fx", "--json"], 0)).unwrap();
    assert_eq!(status["servers"][0]["state"], "ready", "{status}");
    // Unknown tools and names agents could not use are refused.
    let err = w.output(&["grant", "fx", "nope"]);
    assert_eq!(err.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&err.stderr).contains("has no tool `nope`"));
    let bad = w.output(&["grant", "fx", "echo", "--separator", "/"]);
    assert_eq!(bad.status.code(), Some(2));
    // Revoke takes one back, then all; the key goes with the last.
    w.ok(&["revoke", "fx", "fast"], 0);
    let after = std::fs::read_to_string(&w.file).unwrap();
    assert!(
        after.contains("\"echo\"") && !after.contains("\"fast\":"),
        "{after}"
    );
    w.ok(&["revoke", "fx"], 0);
    let after = std::fs::read_to_string(&w.file).unwrap();
    assert!(!after.contains("\"tools\""), "{after}");
    assert!(after.contains("// operator notes stay"), "{after}");
}

#[test]
fn a_hostile_tool_name_is_refused_escaped_and_the_hint_fits_the_fault() {
    let w = world(json!({"hx": fx(&["--hostile"])}));
    let before = std::fs::read_to_string(&w.file).unwrap();
    w.ok(&["start", "hx"], 0);
    let out = w.output(&["grant", "hx", "--all-current"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "raw ESC reached the terminal: {stderr:?}"
    );
    assert!(stderr.contains("cannot grant `trap\\u{1b}"), "{stderr}");
    // The server chose the name: no separator or server name can mend it.
    assert!(
        stderr
            .contains("hint: the server names this tool so; grant the other tools of `hx` by name"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&w.file).unwrap(), before);
    // A separator that breaks the name is still the operator's to change.
    let bad = w.output(&["grant", "hx", "--all-current", "--separator", "/"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
}

#[test]
fn grant_in_yaml_keeps_comments() {
    let w = world(json!({}));
    let yaml = w.dir.path().join("servers.yaml");
    std::fs::write(
        &yaml,
        format!(
            "# top comment\nmcpServers:\n  # the fixture\n  fx:\n    command: {}\n    args: []\n",
            fixture().display()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcpctl"));
        cmd.env("MCPCTL_STATE_DIR", w.state())
            .arg("--file")
            .arg(&yaml)
            .args(args);
        cmd.output().unwrap()
    };
    assert!(run(&["start", "fx"]).status.success());
    let out = run(&["grant", "fx", "echo"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(
        text.contains("# top comment") && text.contains("# the fixture"),
        "{text}"
    );
    assert!(text.contains("echo: sha256:"), "{text}");
    let shown = run(&["show", "fx", "--json"]);
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert!(shown.to_string().contains("sha256:"), "{shown}");
    let _ = run(&["supervisor", "stop"]);
}

#[test]
fn python_sdk_over_stdio_sees_and_calls_only_granted_tools() {
    let w = world(json!({"fx": fx(&["--list-changed"])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "add_tool"], 0);
    let grant_fast = w.argv(&["grant", "fx", "fast"]);
    let steps = w.agent(
        json!([
            {"op": "list"},
            {"op": "call", "name": "fx__echo", "args": {"message": "hi"}},
            {"op": "call", "name": "fx__fast", "args": {}},
            {"op": "call", "name": "fx__echo", "args": {"message": 5}},
            // The server adds `added_0` and refreshes: not granted, so hidden.
            {"op": "call", "name": "fx__add_tool", "args": {}},
            {"op": "wait_changed", "timeout": 10},
            {"op": "list"},
            {"op": "call", "name": "fx__added_0", "args": {}},
            // A grant reaches the connected agent.
            {"op": "run", "argv": grant_fast},
            {"op": "wait_changed", "timeout": 10},
            {"op": "list"},
            {"op": "call", "name": "fx__fast", "args": {}},
        ]),
        &w.stdio(&[]),
    );
    assert_eq!(names(&steps[0]), ["fx__echo", "fx__add_tool"]);
    assert_eq!(
        steps[0]["tools"][0]["inputSchema"]["properties"]["message"]["type"],
        "string"
    );
    assert_eq!(steps[0]["tools"][0]["description"], "Echo back the message");
    assert_eq!(text(&steps[1]), "Echo: hi");
    assert_eq!(steps[2]["error"]["code"], -32602, "{}", steps[2]);
    // Arguments that fail the schema: a tool result the model can read.
    assert_eq!(steps[3]["result"]["isError"], true, "{}", steps[3]);
    assert!(text(&steps[3]).contains("not sent"), "{}", steps[3]);
    assert_eq!(text(&steps[4]), "added added_0");
    assert_eq!(steps[5]["changed"], true, "catalog change notified");
    assert_eq!(names(&steps[6]), ["fx__echo", "fx__add_tool"]);
    assert_eq!(steps[7]["error"]["code"], -32602, "{}", steps[7]);
    assert_eq!(steps[8]["code"], 0);
    assert_eq!(steps[9]["changed"], true, "grant notified");
    assert_eq!(names(&steps[10]), ["fx__echo", "fx__fast", "fx__add_tool"]);
    assert_eq!(text(&steps[11]), "ok");
    // The audit log has one JSON line per call, without argument values.
    let audit = std::fs::read_dir(w.state())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".audit.jsonl"))
        .expect("an audit log");
    assert_eq!(
        std::fs::metadata(&audit).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let lines: Vec<Value> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[0]["server"], "fx");
    assert_eq!(lines[0]["tool"], "echo");
    assert_eq!(lines[0]["outcome"], "ok");
    assert_eq!(lines[0]["session"], "stdio");
    assert_eq!(lines[0]["profile"], "default");
    assert!(lines[0]["argument_bytes"].as_u64().unwrap() > 0);
    assert!(lines[0].get("arguments").is_none());
    assert_eq!(lines[1]["outcome"], "refused");
    assert!(!std::fs::read_to_string(&audit).unwrap().contains("\"hi\""));
}

#[test]
fn a_tool_that_drifted_since_its_grant_is_hidden_until_granted_again() {
    let drift = tempfile::NamedTempFile::new().unwrap();
    let drift_path = drift.path().to_str().unwrap().to_string();
    let w = world(json!({"fx": fx(&["--drift", &drift_path])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "fast"], 0);
    std::fs::write(drift.path(), "description echo Now does something else\n").unwrap();
    w.ok(&["refresh", "fx"], 0);
    let steps = w.agent(
        json!([{"op": "list"}, {"op": "call", "name": "fx__echo", "args": {"message": "x"}}]),
        &w.stdio(&[]),
    );
    assert_eq!(names(&steps[0]), ["fx__fast"]);
    assert_eq!(steps[1]["error"]["code"], -32602);
    w.ok(&["grant", "fx", "echo"], 0);
    let steps = w.agent(json!([{"op": "list"}]), &w.stdio(&[]));
    assert_eq!(names(&steps[0]), ["fx__echo", "fx__fast"]);
}

#[test]
fn two_profiles_see_two_catalogs() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "--profile", "reader"], 0);
    w.ok(&["grant", "fx", "fast", "tool_2", "--profile", "runner"], 0);
    let reader = w.agent(json!([{"op": "list"}]), &w.stdio(&["--profile", "reader"]));
    let runner = w.agent(
        json!([{"op": "list"}, {"op": "call", "name": "fx__echo", "args": {"message": "x"}}]),
        &w.stdio(&["--profile", "runner"]),
    );
    let default = w.agent(json!([{"op": "list"}]), &w.stdio(&[]));
    assert_eq!(names(&reader[0]), ["fx__echo"]);
    assert_eq!(names(&runner[0]), ["fx__fast", "fx__tool_2"]);
    assert_eq!(runner[1]["error"]["code"], -32602);
    assert!(names(&default[0]).is_empty());
    let out = w.output(&["serve", "--stdio", "--profile", "nobody"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn an_upstream_crash_mid_call_is_a_json_rpc_error_not_a_hang() {
    let w = world(json!({"fx": fx(&["--crash-tool"])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "crash", "echo"], 0);
    let started = Instant::now();
    let steps = w.agent(
        json!([{"op": "call", "name": "fx__crash", "args": {}}, {"op": "list"}]),
        &w.stdio(&[]),
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(steps[0]["error"]["code"].is_i64(), "{}", steps[0]);
    assert!(
        steps[1]["tools"].is_array(),
        "the session survives: {}",
        steps[1]
    );
}

#[test]
fn supervisor_stop_ends_the_stdio_session() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let stop = w.argv(&["supervisor", "stop"]);
    let started = Instant::now();
    let steps = w.agent(
        json!([
            {"op": "list"},
            {"op": "run", "argv": stop},
            {"op": "wait_closed", "timeout": 15},
        ]),
        &w.stdio(&[]),
    );
    assert_eq!(names(&steps[0]), ["fx__echo"]);
    assert_eq!(steps[1]["code"], 0);
    assert_eq!(steps[2]["closed"], true, "{steps:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn serve_stdio_exits_5_when_the_supervisor_goes() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    let mut child = w
        .command()
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    w.ok(&["supervisor", "stop"], 0);
    let mut code = None;
    let ended = wait_until(within(10), || {
        code = child.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    });
    if !ended {
        let _ = child.kill();
    }
    assert!(ended, "serve did not end after the supervisor stopped");
    assert_eq!(code.flatten(), Some(5));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("the supervisor stopped"), "{err}");
}

#[test]
fn http_needs_the_token_and_a_loopback_origin() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let token = w.token();
    assert_eq!(token.len(), 64);
    let file = std::fs::read_dir(w.state())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".serve-token"))
        .expect("a token file");
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(w.token(), token, "the token is kept");
    let (_served, url) = w.http(&[]);
    let bearer = format!("Bearer {token}");
    assert_eq!(status_of(&url, &[]), 401);
    assert_eq!(status_of(&url, &[("Authorization", "Bearer wrong")]), 401);
    assert_eq!(
        status_of(
            &url,
            &[
                ("Authorization", &bearer),
                ("Origin", "https://evil.example")
            ]
        ),
        403
    );
    assert_eq!(
        status_of(
            &url,
            &[
                ("Authorization", &bearer),
                ("Origin", "http://localhost:3000")
            ]
        ),
        200
    );
    let steps = w.agent(
        json!([{"op": "list"}, {"op": "call", "name": "fx__echo", "args": {"message": "web"}}]),
        &["http".into(), url.clone(), token.clone()],
    );
    assert_eq!(names(&steps[0]), ["fx__echo"]);
    assert_eq!(text(&steps[1]), "Echo: web");
    // Rotation: the old token stops working at once.
    let rotated = w.ok(&["serve", "--rotate-token"], 0).trim().to_string();
    assert_ne!(rotated, token);
    let (_served2, url2) = w.http(&[]);
    assert_eq!(status_of(&url2, &[("Authorization", &bearer)]), 401);
    // A non-loopback bind needs --allow-remote.
    let out = w.output(&["serve", "--http", "0.0.0.0:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-remote"));
}

#[test]
fn fifty_agents_at_once_over_http() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let token = w.token();
    let (_served, url) = w.http(&[]);
    let steps = w.agent(
        json!([{"op": "swarm", "n": 50, "name": "fx__echo", "args": {"message": "m"}}]),
        &["http".into(), url, token],
    );
    assert_eq!(steps[0]["ok"], 50, "{}", steps[0]);
}

#[test]
fn the_upstream_never_sees_the_agents_token() {
    let port = free_port();
    let log = tempfile::NamedTempFile::new().unwrap();
    let log_path = log.path().to_str().unwrap().to_string();
    let w = world(json!({
        "up": {
            "type": "http",
            "url": format!("http://127.0.0.1:{port}/mcp"),
            "command": "{fixture}",
            "args": ["--http", port.to_string(), "--headers-log", log_path],
        }
    }));
    w.ok(&["start", "up"], 0);
    w.ok(&["grant", "up", "echo"], 0);
    let token = w.token();
    let (_served, url) = w.http(&[]);
    let steps = w.agent(
        json!([{"op": "call", "name": "up__echo", "args": {"message": "through"}}]),
        &["http".into(), url, token.clone()],
    );
    assert_eq!(text(&steps[0]), "Echo: through");
    let seen = std::fs::read_to_string(log.path()).unwrap();
    assert!(
        seen.lines().count() >= 2,
        "the fixture logged requests: {seen}"
    );
    assert!(
        !seen.contains(&token),
        "the agent's token reached the upstream: {seen}"
    );
    assert!(
        !seen.to_ascii_lowercase().contains("authorization"),
        "{seen}"
    );
}

#[test]
fn real_servers_through_serve_over_stdio_and_http() {
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31",
    );
    let uvx = require("uvx", "run `bash tests/run.sh`, which installs uv");
    let w = world(json!({
        "everything": {"command": everything.to_str().unwrap(), "args": ["stdio"]},
        "time": {"command": uvx.to_str().unwrap(), "args": ["mcp-server-time==2026.10.19"], "connect_timeout": 120},
    }));
    w.ok(&["start", "everything", "time"], 0);
    w.ok(
        &[
            "grant",
            "everything",
            "echo",
            "get-sum",
            "get-structured-content",
        ],
        0,
    );
    w.ok(&["grant", "time", "--all-current"], 0);
    let upstream: Value =
        serde_json::from_str(&w.ok(&["--json", "tools", "everything"], 0)).unwrap();
    let upstream_structured = upstream["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "get-structured-content")
        .unwrap()
        .clone();
    let plan = json!([
        {"op": "list"},
        {"op": "call", "name": "everything__echo", "args": {"message": "real"}},
        {"op": "call", "name": "time__get_current_time", "args": {"timezone": "UTC"}},
        {"op": "call", "name": "everything__get-env", "args": {}},
    ]);
    let check = |steps: &[Value]| {
        let mut listed = names(&steps[0]);
        listed.sort();
        assert_eq!(
            listed,
            [
                "everything__echo",
                "everything__get-structured-content",
                "everything__get-sum",
                "time__convert_time",
                "time__get_current_time"
            ]
        );
        // The server's own schemas and hints reach the agent unchanged.
        let listed = steps[0]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "everything__get-structured-content")
            .unwrap();
        for field in ["description", "inputSchema", "outputSchema", "annotations"] {
            assert_eq!(listed.get(field), upstream_structured.get(field), "{field}");
        }
        assert!(listed["outputSchema"].is_object(), "{listed}");
        assert!(text(&steps[1]).contains("real"), "{}", steps[1]);
        assert!(text(&steps[2]).contains("UTC"), "{}", steps[2]);
        assert_eq!(steps[3]["error"]["code"], -32602, "ungranted: {}", steps[3]);
    };
    check(&w.agent(plan.clone(), &w.stdio(&[])));
    let token = w.token();
    let (_served, url) = w.http(&[]);
    check(&w.agent(plan, &["http".into(), url, token]));
}

#[test]
fn print_config_gives_a_host_entry_that_launches_serve() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "--profile", "reader"], 0);
    let snippet: Value = serde_json::from_str(&w.ok(
        &[
            "serve",
            "--print-config",
            "claude-code",
            "--profile",
            "reader",
        ],
        0,
    ))
    .unwrap();
    let entry = &snippet["mcpServers"]["mcpctl-reader"];
    let argv = entry_argv(entry);
    // Launched as the host would, from elsewhere, it serves that profile.
    let steps = w.agent(json!([{"op": "list"}]), &argv);
    assert_eq!(names(&steps[0]), ["fx__echo"]);
    let vscode: Value =
        serde_json::from_str(&w.ok(&["serve", "--print-config", "vscode"], 0)).unwrap();
    assert_eq!(vscode["servers"]["mcpctl"]["type"], "stdio");
    let codex = w.ok(&["serve", "--print-config", "codex"], 0);
    assert!(codex.starts_with("[mcp_servers.mcpctl]"), "{codex}");
    let out = w.output(&["serve", "--print-config", "cursor", "--profile", "nobody"]);
    assert_eq!(out.status.code(), Some(3));
}

/// The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, installed by
/// tests/run.sh) as the agent: `mcp-inspector --cli ARGS…`; its JSON answer
/// on success, or its exit code and stderr.
fn inspector(w: &World, args: &[&str]) -> Result<Value, (Option<i32>, String)> {
    let bin = require(
        "mcp-inspector",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/inspector@2.12.0",
    );
    // The Inspector launches a stdio server with a scrubbed environment:
    // hand it this world's state dir explicitly.
    let state = format!("MCPCTL_STATE_DIR={}", w.state().display());
    let out = Command::new(bin)
        .arg("--cli")
        .args(["-e", &state])
        .args(args)
        .env("HOME", w.dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("the Inspector CLI runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        return Err((out.status.code(), stderr));
    }
    Ok(serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "the Inspector printed no JSON\nstdout: {}\nstderr: {stderr}",
            String::from_utf8_lossy(&out.stdout)
        )
    }))
}

#[test]
fn mcp_inspector_cli_lists_and_calls_granted_tools_over_stdio_and_http() {
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31",
    );
    let w = world(json!({
        "everything": {"command": everything.to_str().unwrap(), "args": ["stdio"]},
        "fx": fx(&[]),
    }));
    w.ok(&["start", "everything", "fx"], 0);
    w.ok(&["grant", "everything", "echo"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let token = w.token();
    let (_served, url) = w.http(&[]);
    let auth = format!("Authorization: Bearer {token}");
    let stdio = w.stdio(&[]);
    let stdio: Vec<&str> = stdio.iter().map(String::as_str).collect();
    let http = [
        "--transport",
        "http",
        "--server-url",
        url.as_str(),
        "--header",
        auth.as_str(),
    ];
    for (how, target, before) in [("stdio", &stdio[..], true), ("http", &http[..], false)] {
        let with = |method: &[&str]| {
            let mut args = method.to_vec();
            if before {
                args.push("--");
            }
            args.extend_from_slice(target);
            inspector(&w, &args)
        };
        let listed = with(&["--method", "tools/list"]).unwrap_or_else(|e| panic!("{how}: {e:?}"));
        let mut listed = names(&listed);
        listed.sort();
        assert_eq!(listed, ["everything__echo", "fx__echo"], "{how}");
        let called = with(&[
            "--method",
            "tools/call",
            "--tool-name",
            "everything__echo",
            "--tool-arg",
            "message=from-inspector",
        ])
        .unwrap_or_else(|e| panic!("{how}: {e:?}"));
        assert!(
            called["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("from-inspector")),
            "{how}: {called}"
        );
        let called = with(&[
            "--method",
            "tools/call",
            "--tool-name",
            "fx__echo",
            "--tool-arg",
            "message=hi",
        ])
        .unwrap_or_else(|e| panic!("{how}: {e:?}"));
        assert_eq!(called["content"][0]["text"], "Echo: hi", "{how}");
        // Granted on neither side: not listed, so not callable.
        let (code, stderr) = with(&[
            "--method",
            "tools/call",
            "--tool-name",
            "everything__get-env",
        ])
        .expect_err("an ungranted tool is refused");
        assert_ne!(code, Some(0), "{how}");
        assert!(stderr.contains("not found"), "{how}: {stderr}");
    }
    // Without the token, the Inspector gets nowhere over HTTP.
    let refused = inspector(
        &w,
        &[
            "--method",
            "tools/list",
            "--transport",
            "http",
            "--server-url",
            url.as_str(),
        ],
    );
    let (code, stderr) = refused.expect_err("no token, no answer");
    assert_ne!(code, Some(0));
    // The Inspector answers a 401 with its sign-in attempt; the endpoint's
    // answer to that same request without a token is the 401 itself.
    assert!(
        stderr.contains("auth_required"),
        "not an auth refusal: {stderr}"
    );
    assert_eq!(status_of(&url, &[]), 401);
}

#[test]
fn prompts_and_resources_of_granted_servers_pass_through_under_the_prefix() {
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31",
    );
    let def = json!({"command": everything.to_str().unwrap(), "args": ["stdio"]});
    // `hidden` has the same prompts and resources, but no granted tool.
    let w = world(json!({"everything": def, "hidden": def, "fx": fx(&[])}));
    w.ok(&["start", "everything", "hidden", "fx"], 0);
    w.ok(&["grant", "everything", "echo"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let doc = "demo://resource/static/document/architecture.md";
    let plan = json!([
        {"op": "prompts"},
        {"op": "get_prompt", "name": "everything__args-prompt", "args": {"city": "Lisbon"}},
        {"op": "resources"},
        {"op": "templates"},
        {"op": "read", "uri": format!("mcpctl://everything/{doc}")},
        {"op": "get_prompt", "name": "hidden__simple-prompt"},
        {"op": "read", "uri": format!("mcpctl://hidden/{doc}")},
        {"op": "read", "uri": doc},
    ]);
    let check = |how: &str, steps: &[Value]| {
        let prompts: Vec<&str> = steps[0]["prompts"]
            .as_array()
            .unwrap_or_else(|| panic!("{how}: {}", steps[0]))
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(
            prompts.contains(&"everything__args-prompt"),
            "{how}: {prompts:?}"
        );
        assert!(
            prompts.iter().all(|p| p.starts_with("everything__")),
            "{how}: only the granted server's prompts: {prompts:?}"
        );
        let message = steps[1]["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{how}: {}", steps[1]));
        assert!(message.contains("Lisbon"), "{how}: {message}");
        let uris: Vec<&str> = steps[2]["resources"]
            .as_array()
            .unwrap_or_else(|| panic!("{how}: {}", steps[2]))
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        let exposed = format!("mcpctl://everything/{doc}");
        assert!(uris.contains(&exposed.as_str()), "{how}: {uris:?}");
        assert!(
            uris.iter().all(|u| u.starts_with("mcpctl://everything/")),
            "{how}: {uris:?}"
        );
        assert!(
            steps[3]["resourceTemplates"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["uriTemplate"]
                    .as_str()
                    .unwrap()
                    .starts_with("mcpctl://everything/")),
            "{how}: {}",
            steps[3]
        );
        assert!(
            !steps[3]["resourceTemplates"].as_array().unwrap().is_empty(),
            "{how}"
        );
        let contents = &steps[4]["result"]["contents"][0];
        assert_eq!(contents["uri"], exposed.as_str(), "{how}: {}", steps[4]);
        assert!(
            contents["text"].as_str().unwrap().contains("Architecture"),
            "{how}"
        );
        for refused in &steps[5..8] {
            assert_eq!(refused["error"]["code"], -32602, "{how}: {refused}");
        }
    };
    check("stdio", &w.agent(plan.clone(), &w.stdio(&[])));
    let token = w.token();
    let (_served, url) = w.http(&[]);
    check("http", &w.agent(plan, &["http".into(), url, token]));
}

/// The executable a running process was started from.
fn exe_of(pid: u32) -> PathBuf {
    std::fs::read_link(format!("/proc/{pid}/exe")).unwrap()
}

/// Launch `serve` (a `serve --stdio` command line), initialize and list its
/// tools over its own pipes, and end it: the exposed names, and the
/// executable the process ran by then.
fn serve_and_list(serve: &mut Command) -> (Vec<String>, PathBuf) {
    let mut child = serve
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (listed, session) = list_over_pipes(&mut child);
    // Read while the session is open: once its stdin closes, serve ends
    // (the agent left), and a loaded machine may reap it before the read
    // (this flaked once).
    let exe = exe_of(child.id());
    drop(session);
    let _ = child.kill();
    let _ = child.wait();
    (listed, exe)
}

/// Initialize and list tools over a `serve --stdio` child's own pipes; the
/// exposed names, and its stdin (the session ends when it is dropped).
fn list_over_pipes(child: &mut Child) -> (Vec<String>, std::process::ChildStdin) {
    use std::io::BufRead;
    let mut input = child.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str| {
        input.write_all(line.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
    };
    ask(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    let mut line = String::new();
    output.read_line(&mut line).unwrap();
    assert!(line.contains("\"result\""), "initialize: {line}");
    ask(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    ask(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    line.clear();
    output.read_line(&mut line).unwrap();
    let reply: Value = serde_json::from_str(&line).unwrap();
    (names(&reply["result"]), input)
}

#[test]
fn serve_runs_as_the_small_executable_and_starts_the_supervisor_from_mcpctl() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    w.ok(&["supervisor", "stop"], 0);
    // No supervisor runs now: serve spawns one, and `--start` starts fx.
    let (listed, serve_exe) = serve_and_list(w.command().args(["serve", "--stdio", "--start"]));
    assert_eq!(listed, ["fx__echo"]);
    assert_eq!(
        serve_exe.file_name().unwrap(),
        "mcpctl-serve",
        "`mcpctl serve` hands over to the small executable"
    );
    let status: Value =
        serde_json::from_str(&w.ok(&["supervisor", "status", "--json"], 0)).unwrap();
    let supervisor = exe_of(status["pid"].as_u64().unwrap() as u32);
    assert_eq!(
        supervisor.file_name().unwrap(),
        "mcpctl",
        "the supervisor mcpctl-serve started runs from mcpctl"
    );
}

#[test]
fn serve_in_process_when_asked() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let (listed, exe) = serve_and_list(
        w.command()
            .args(["serve", "--stdio"])
            .env("MCPCTL_SERVE_IN_PROCESS", "1"),
    );
    assert_eq!(listed, ["fx__echo"]);
    assert_eq!(exe.file_name().unwrap(), "mcpctl");
}

#[test]
fn agents_hear_when_the_servers_whose_prompts_pass_through_change() {
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31",
    );
    let def = json!({"command": everything.to_str().unwrap(), "args": ["stdio"]});
    let w = world(json!({"everything": def, "fx": fx(&[])}));
    w.ok(&["start", "everything", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let grant = w.argv(&["grant", "everything", "echo"]);
    let revoke = w.argv(&["revoke", "everything"]);
    let plan = json!([
        {"op": "prompts"},
        {"op": "run", "argv": grant},
        {"op": "wait_changed", "what": "prompts", "timeout": 10},
        {"op": "wait_changed", "what": "resources", "timeout": 10},
        {"op": "prompts"},
        {"op": "run", "argv": revoke},
        {"op": "wait_changed", "what": "prompts", "timeout": 10},
        {"op": "prompts"},
        // A grant of another tool of a server already passed through
        // changes the tools, not the prompts.
        {"op": "run", "argv": w.argv(&["grant", "fx", "fast"])},
        {"op": "wait_changed", "what": "tools", "timeout": 10},
        {"op": "wait_changed", "what": "prompts", "timeout": 2},
    ]);
    let prompts = |step: &Value| -> Vec<String> {
        step["prompts"]
            .as_array()
            .unwrap_or_else(|| panic!("no prompts in {step}"))
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    let token = w.token();
    let (_served, url) = w.http(&[]);
    for target in [w.stdio(&[]), vec!["http".into(), url, token]] {
        w.ok(&["revoke", "fx", "fast"], 0);
        let steps = w.agent(plan.clone(), &target);
        assert!(prompts(&steps[0]).is_empty(), "{:?}", steps[0]);
        assert_eq!(steps[1]["code"], 0);
        assert_eq!(steps[2]["changed"], true, "prompts/list_changed: {steps:?}");
        assert_eq!(
            steps[3]["changed"], true,
            "resources/list_changed: {steps:?}"
        );
        assert!(
            prompts(&steps[4])
                .iter()
                .any(|p| p == "everything__args-prompt"),
            "{:?}",
            steps[4]
        );
        assert_eq!(steps[5]["code"], 0);
        assert_eq!(steps[6]["changed"], true, "revoke: {steps:?}");
        assert!(prompts(&steps[7]).is_empty(), "{:?}", steps[7]);
        assert_eq!(steps[9]["changed"], true, "{steps:?}");
        assert_eq!(steps[10]["changed"], false, "{steps:?}");
    }
}

#[test]
fn write_config_puts_the_entry_into_the_hosts_own_file_keeping_the_rest() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "--profile", "reader"], 0);
    let project = w.dir.path().join("project");
    std::fs::create_dir_all(project.join(".vscode")).unwrap();
    let host_file = project.join(".vscode/mcp.json");
    let before = "{\n  // the team's own server\n  \"servers\": {\n    \"other\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}\n  }\n}\n";
    std::fs::write(&host_file, before).unwrap();
    let write = |extra: &[&str]| {
        let mut args = vec!["serve", "--write-config", "vscode", "--profile", "reader"];
        args.extend_from_slice(extra);
        w.command()
            .args(&args)
            .current_dir(&project)
            .output()
            .unwrap()
    };
    let out = write(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&host_file).unwrap();
    assert!(text.contains("// the team's own server"), "{text}");
    assert!(text.contains("\"other\""), "{text}");
    let printed: Value = serde_json::from_str(&w.ok(
        &["serve", "--print-config", "vscode", "--profile", "reader"],
        0,
    ))
    .unwrap();
    let written: Value = serde_json::from_str(
        &text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let entry = &written["servers"]["mcpctl-reader"];
    let wanted = &printed["servers"]["mcpctl-reader"];
    assert_eq!(entry["command"], wanted["command"], "{text}");
    assert_eq!(entry["args"], wanted["args"], "{text}");
    // The written entry launches serve for that profile, as the host would.
    let argv = entry_argv(entry);
    assert_eq!(
        names(&w.agent(json!([{"op": "list"}]), &argv)[0]),
        ["fx__echo"]
    );
    // Again: the same entry is there already, nothing changes.
    let again = write(&[]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&host_file).unwrap(), text);
    // mcpctl-serve itself does not write host files.
    let serve_exe = PathBuf::from(env!("CARGO_BIN_EXE_mcpctl")).with_file_name("mcpctl-serve");
    let out = Command::new(serve_exe)
        .args([
            "--file",
            w.file.to_str().unwrap(),
            "serve",
            "--write-config",
            "vscode",
        ])
        .env("MCPCTL_STATE_DIR", w.state())
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mcpctl serve --write-config"));
}

/// The first step of a plan for an agent host that offers elicitation
/// (answering `elicit`), sampling (answering `sample`) and these roots.
fn host(roots: &[&str], elicit: Value, sample: &str) -> Value {
    let roots: Vec<Value> = roots
        .iter()
        .map(|uri| json!({"uri": uri, "name": "agent-project"}))
        .collect();
    json!({"op": "host", "roots": roots, "elicit": elicit, "sample": sample})
}

/// All the text of a step's result.
fn all_text(step: &Value) -> String {
    step["result"]["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no result in {step}"))
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn an_agent_host_hears_and_answers_what_the_server_says_during_its_calls() {
    let everything = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31",
    );
    let w = world(json!({
        "ev": {"command": everything.to_str().unwrap(), "args": ["stdio"]},
    }));
    w.ok(&["start", "ev"], 0);
    // The tools a server lists only to a client offering elicitation,
    // sampling and roots are there to grant.
    w.ok(
        &[
            "grant",
            "ev",
            "trigger-long-running-operation",
            "trigger-elicitation-request",
            "trigger-sampling-request",
            "get-roots-list",
            "get-sum",
        ],
        0,
    );
    let plan = |root: &str| {
        json!([
            host(&[root], json!({"name": "Ada"}), "forty-two"),
            {"op": "set_level", "level": "debug"},
            {"op": "call", "name": "ev__trigger-long-running-operation",
             "args": {"duration": 1, "steps": 4}, "progress": true},
            {"op": "call", "name": "ev__trigger-elicitation-request", "args": {}},
            {"op": "call", "name": "ev__trigger-sampling-request", "args": {"prompt": "meaning?"}},
            {"op": "call", "name": "ev__get-roots-list", "args": {}},
            {"op": "events"},
            {"op": "call", "name": "ev__get-sum", "args": {"a": "x", "b": 2}},
            {"op": "call", "name": "ev__get-env", "args": {}},
        ])
    };
    let check = |how: &str, root: &str, steps: &[Value]| {
        // (the host step prints nothing: steps[0] is set_level's)
        // Progress under the agent's own token (the SDK drops any other).
        let progress = steps[1]["progress"].as_array().unwrap();
        // Every step, in order, before the result.
        let done: Vec<f64> = progress.iter().map(|p| p[0].as_f64().unwrap()).collect();
        assert_eq!(done, [1.0, 2.0, 3.0, 4.0], "{how}: {}", steps[1]);
        assert!(progress.iter().all(|p| p[1] == 4.0), "{how}: {progress:?}");
        let asked = all_text(&steps[2]);
        assert!(
            asked.contains("User provided") && asked.contains("Ada"),
            "{how}: {asked}"
        );
        assert!(
            all_text(&steps[3]).contains("forty-two"),
            "{how}: {}",
            steps[3]
        );
        // The agent's roots, not the supervisor's working directory.
        assert!(all_text(&steps[4]).contains(root), "{how}: {}", steps[4]);
        let events = steps[5]["events"].as_array().unwrap();
        let has = |key: &str, text: &str| {
            events
                .iter()
                .any(|e| e[key].as_str().is_some_and(|t| t.contains(text)))
        };
        assert!(has("elicit", "Please provide inputs"), "{how}: {events:?}");
        assert!(has("sample", "meaning?"), "{how}: {events:?}");
        assert!(
            has("log", "Roots updated"),
            "{how}: server logs: {events:?}"
        );
        // Bad arguments are a tool result the model can read; an ungranted
        // tool stays a protocol error.
        assert_eq!(steps[6]["result"]["isError"], true, "{how}: {}", steps[6]);
        assert!(
            all_text(&steps[6]).contains("inputSchema"),
            "{how}: {}",
            steps[6]
        );
        assert_eq!(steps[7]["error"]["code"], -32602, "{how}: {}", steps[7]);
    };
    check(
        "stdio",
        "file:///agent/stdio/",
        &w.agent(plan("file:///agent/stdio/"), &w.stdio(&[])),
    );
    let token = w.token();
    let (_served, url) = w.http(&[]);
    let steps = w.agent(plan("file:///agent/http/"), &["http".into(), url, token]);
    check("http", "file:///agent/http/", &steps);
    // An agent that offers neither: the question is declined, and the
    // sampling request refused (mcpctl has no model).
    let steps = w.agent(
        json!([
            {"op": "call", "name": "ev__trigger-elicitation-request", "args": {}},
            {"op": "call", "name": "ev__trigger-sampling-request", "args": {"prompt": "p"}},
        ]),
        &w.stdio(&[]),
    );
    assert!(all_text(&steps[0]).contains("declined"), "{}", steps[0]);
    let refused = format!("{}", steps[1]);
    assert!(refused.contains("no model"), "{refused}");
}

#[test]
fn input_required_rounds_cancellation_and_interleaved_agents_through_serve() {
    let rec = tempfile::NamedTempFile::new().unwrap();
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mrtr_server.py");
    let w = world(json!({"py": {
        "command": python(),
        "args": [server, rec.path()],
        "protocol": "2026-07-28",
    }}));
    w.ok(&["start", "py"], 0);
    w.ok(&["grant", "py", "ask", "progress", "slow"], 0);
    // Two agents at once, each held in its question for a moment: each
    // gets its own question and its own answer back.
    let agent = |name: &str, color: &str| {
        let mut host = host(&[], json!({"name": name, "color": color}), "");
        host["elicit_delay"] = json!(1.0);
        let plan = json!([host,
            {"op": "call", "name": "py__ask", "args": {}},
            {"op": "call", "name": "py__progress", "args": {}, "progress": true},
        ]);
        w.agent(plan, &w.stdio(&[]))
    };
    let (lin, ada) = std::thread::scope(|s| {
        let lin = s.spawn(|| agent("Lin", "red"));
        let ada = s.spawn(|| agent("Ada", "green"));
        (lin.join().unwrap(), ada.join().unwrap())
    });
    assert_eq!(text(&lin[0]), "python: Lin likes red", "{}", lin[0]);
    assert_eq!(text(&ada[0]), "python: Ada likes green", "{}", ada[0]);
    for steps in [&lin, &ada] {
        let progress = steps[1]["progress"].as_array().unwrap();
        assert!(
            progress
                .iter()
                .all(|p| p[2].as_str().is_some_and(|m| m.starts_with("py step")))
                && !progress.is_empty(),
            "{}",
            steps[1]
        );
    }
    // The agent gives up on a call: the server is told, through the supervisor.
    let steps = w.agent(
        json!([{"op": "cancel", "name": "py__slow", "args": {}, "after": 1.0}]),
        &w.stdio(&[]),
    );
    assert_eq!(steps[0]["cancelled"], true);
    let told = wait_until(within(15), || {
        std::fs::read_to_string(rec.path()).is_ok_and(|t| t.contains("cancelled slow"))
    });
    assert!(told, "the server never heard of the cancellation");
}

#[test]
fn serve_launched_with_nothing_running_starts_and_serves_the_granted_tools() {
    let w = world(json!({"fx": fx(&[])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    let snippet: Value =
        serde_json::from_str(&w.ok(&["serve", "--print-config", "claude-code"], 0)).unwrap();
    let argv = entry_argv(&snippet["mcpServers"]["mcpctl"]);
    // As after a reboot: no supervisor, no server.
    w.ok(&["supervisor", "stop"], 0);
    let steps = w.agent(
        json!([
            {"op": "list"},
            {"op": "wait_changed", "timeout": 30},
            {"op": "list"},
            {"op": "call", "name": "fx__echo", "args": {"message": "after a reboot"}},
        ]),
        &argv,
    );
    assert_eq!(names(&steps[2]), ["fx__echo"], "{steps:?}");
    assert_eq!(text(&steps[3]), "Echo: after a reboot");
    // --no-start serves what runs, and starts nothing.
    w.ok(&["supervisor", "stop"], 0);
    let steps = w.agent(
        json!([{"op": "wait_changed", "timeout": 2}, {"op": "list"}]),
        &w.stdio(&["--no-start"]),
    );
    assert_eq!(steps[1]["tools"], json!([]), "{steps:?}");
}

/// Found by hand (issue 20): an agent host that calls a granted tool, or
/// lists tools, as soon as `serve` answers `initialize` (as most do, once)
/// got "unknown tool … not granted" and an empty list while `serve` was
/// still starting the servers: faithful means what talking to the server
/// itself gives, which answers only once started.
#[test]
fn an_agent_that_asks_at_once_waits_for_the_servers_serve_is_starting() {
    let w = world(json!({"fx": fx(&["--slow-start", "1500"])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo"], 0);
    for plan in [
        json!([{"op": "call", "name": "fx__echo", "args": {"message": "at once"}}]),
        json!([{"op": "list"}]),
    ] {
        w.ok(&["supervisor", "stop"], 0);
        let steps = w.agent(plan, &w.stdio(&[]));
        match steps[0].get("tools") {
            Some(_) => assert_eq!(names(&steps[0]), ["fx__echo"], "{steps:?}"),
            None => assert_eq!(text(&steps[0]), "Echo: at once", "{steps:?}"),
        }
    }
}

/// Found by hand (issue 20): a call made just after the server's catalog
/// moved (a tool added on a refresh) failed with "catalog id … is stale",
/// though the tool called had not changed. The catalog id guards what the
/// agent was shown: an unchanged tool is called against the new catalog,
/// a changed one stays refused.
#[test]
fn a_call_after_the_catalog_moved_reaches_an_unchanged_tool_and_refuses_a_changed_one() {
    let drift = tempfile::NamedTempFile::new().unwrap();
    let path = drift.path().to_str().unwrap();
    let w = world(json!({"fx": fx(&["--drift", path])}));
    w.ok(&["start", "fx"], 0);
    w.ok(&["grant", "fx", "echo", "fast"], 0);
    std::fs::write(drift.path(), "add newcomer\n").unwrap();
    let moved = w.agent(
        json!([
            {"op": "list"},
            {"op": "run", "argv": w.argv(&["refresh", "fx"])},
            {"op": "call", "name": "fx__echo", "args": {"message": "still here"}},
        ]),
        &w.stdio(&[]),
    );
    assert_eq!(moved[1]["code"], 0, "{moved:?}");
    assert_eq!(text(&moved[2]), "Echo: still here", "{moved:?}");
    std::fs::write(
        drift.path(),
        "add newcomer\ndescription fast Return at once, and more.\n",
    )
    .unwrap();
    let changed = w.agent(
        json!([
            {"op": "list"},
            {"op": "run", "argv": w.argv(&["refresh", "fx"])},
            {"op": "call", "name": "fx__fast", "args": {}},
        ]),
        &w.stdio(&[]),
    );
    assert!(changed[2].get("error").is_some(), "{changed:?}");
}

#[test]
fn two_tools_are_never_exposed_under_one_name() {
    let drift_a = tempfile::NamedTempFile::new().unwrap();
    let drift_ab = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(drift_a.path(), "add b__x\n").unwrap();
    std::fs::write(drift_ab.path(), "add x\n").unwrap();
    let w = world(json!({
        "a": fx(&["--drift", drift_a.path().to_str().unwrap()]),
        "a__b": fx(&["--drift", drift_ab.path().to_str().unwrap()]),
    }));
    w.ok(&["start", "a", "a__b"], 0);
    w.ok(&["grant", "a", "b__x", "echo"], 0);
    // `a`'s `b__x` and `a__b`'s `x` would both be `a__b__x`.
    let out = w.output(&["grant", "a__b", "x"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("a__b__x") && stderr.contains("b__x") && stderr.contains("`a`"),
        "{stderr}"
    );
    // Granted under another separator, both grants exist; serving with the
    // default one exposes neither under the shared name.
    w.ok(&["grant", "a__b", "x", "--separator", "-"], 0);
    let steps = w.agent(
        json!([{"op": "list"}, {"op": "call", "name": "a__b__x", "args": {}}]),
        &w.stdio(&[]),
    );
    assert_eq!(names(&steps[0]), ["a__echo"], "{}", steps[0]);
    assert_eq!(steps[1]["error"]["code"], -32602, "{}", steps[1]);
}
