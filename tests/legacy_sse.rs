//! Older servers: a `url` with no transport follows the MCP spec's
//! backwards-compatibility procedure (POST `initialize`; on 400, 404 or 405
//! the legacy SSE stream), against the real server-everything in `sse` mode
//! on a loopback port, through the real binary. Fails, never skips, when
//! server-everything is not installed.

mod support;

use std::process::Command;

use support::{Background, Sandbox, free_port, require};

const EVERYTHING: &str = "mcp-server-everything";
const EVERYTHING_HOW: &str = "npm install -g @modelcontextprotocol/server-everything@2026.8.31";

fn everything(mode: &str) -> (Background, String) {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let port = free_port();
    let mut cmd = Command::new(bin);
    cmd.arg(mode).env("PORT", port.to_string());
    (
        Background::start(cmd, port),
        format!("http://127.0.0.1:{port}"),
    )
}

#[test]
fn a_url_without_a_transport_finds_legacy_sse_and_check_says_so() {
    let (_server, base) = everything("sse");
    let sandbox = Sandbox::new();
    let file = sandbox.path(".mcp.json");
    let url = format!("{base}/sse");
    std::fs::write(
        &file,
        format!(r#"{{"mcpServers": {{"old": {{"url": "{url}"}}, "wrong": {{"type": "http", "url": "{url}"}}}}}}"#),
    )
    .unwrap();
    let file = file.to_str().unwrap();

    let run = sandbox.run(&["--file", file, "--json", "check", "old"]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["servers"][0]["ok"], true, "{run}");
    assert_eq!(doc["servers"][0]["transport"], "sse", "{run}");

    let run = sandbox.run(&["--file", file, "check", "old"]);
    run.expect_code(0);
    let row = run.stdout.lines().find(|l| l.starts_with("old ")).unwrap();
    assert!(row.contains(" sse "), "{run}");

    // An explicit Streamable HTTP transport is not second-guessed; the
    // 404 on a /sse URL says which transport to use.
    let run = sandbox.run(&["--file", file, "check", "wrong"]);
    run.expect_code(1).stdout_has("--transport sse");
}

#[test]
fn add_url_saves_the_transport_that_answered() {
    let (_server, base) = everything("sse");
    let sandbox = Sandbox::new();
    let url = format!("{base}/sse");
    let run = sandbox.run(&[
        "--file",
        "servers.json",
        "add",
        "--name",
        "old",
        "--url",
        &url,
    ]);
    run.expect_code(0)
        .stdout_has("added `old`")
        .stdout_has("sse");
    let text = std::fs::read_to_string(sandbox.path("servers.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["mcpServers"]["old"]["type"], "sse", "{text}");
}

#[test]
fn a_current_server_is_reached_over_streamable_http_without_a_fallback() {
    let (_server, base) = everything("streamableHttp");
    let sandbox = Sandbox::new();
    let url = format!("{base}/mcp");
    let run = sandbox.run(&[
        "--file",
        "servers.json",
        "add",
        "--name",
        "new",
        "--url",
        &url,
    ]);
    run.expect_code(0);
    let text = std::fs::read_to_string(sandbox.path("servers.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["mcpServers"]["new"]["type"], "http", "{text}");
    let run = sandbox.run(&["--file", "servers.json", "--json", "check"]);
    run.expect_code(0);
    assert_eq!(run.json()["servers"][0]["transport"], "streamable-http");
}
