//! Real third-party servers, pinned: server-everything (npm) over stdio,
//! Streamable HTTP and legacy SSE, and mcp-server-time (PyPI) through uvx.
//! These fail, never skip, when the servers are not installed.

mod common;
mod support;

use std::process::Command;
use std::time::Duration;

use common::{Background, free_port, remote, require, stdio};
use mcpctl::defs::Transport;
use mcpctl::mcp::{self, DiscoverOptions};

const EVERYTHING: &str = "mcp-server-everything";
const EVERYTHING_HOW: &str =
    "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything@2026.8.31";

fn opts() -> DiscoverOptions {
    let mut o = DiscoverOptions::default();
    o.connect.budget = Some(Duration::from_secs(60));
    o
}

fn everything_http(mode: &str) -> (Background, u16) {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let port = free_port();
    let mut cmd = Command::new(bin);
    cmd.arg(mode).env("PORT", port.to_string());
    (Background::start(cmd, port), port)
}

fn assert_everything(report: &mcp::DiscoveryReport) {
    let names: Vec<_> = report.tools.iter().map(|t| t.name.to_string()).collect();
    assert!(names.contains(&"echo".to_string()), "{names:?}");
    assert!(report.tools.len() >= 10, "{names:?}");
    assert!(
        report.resources.unwrap_or(0) > 0,
        "resources: {:?}",
        report.resources
    );
    assert!(
        report.prompts.unwrap_or(0) > 0,
        "prompts: {:?}",
        report.prompts
    );
    // Its tools declare draft-07, which is respected: no dialect lint fires.
    assert_eq!(
        report.schema_dialects["echo"], "draft-07",
        "{:?}",
        report.schema_dialects
    );
    assert!(
        !report.lints.iter().any(|l| l.code.starts_with("schema")),
        "{:?}",
        report.lints
    );
}

#[tokio::test]
async fn server_everything_over_stdio() {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let def = stdio("everything", bin.to_str().unwrap(), &["stdio"]);
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_everything(&report);
    assert!(mcpctl::mcp::client::SUPPORTED_VERSIONS.contains(&report.protocol_version.as_str()));
}

#[tokio::test]
async fn server_everything_over_streamable_http() {
    let (_srv, port) = everything_http("streamableHttp");
    let def = remote(
        "everything-http",
        Transport::StreamableHttp,
        &format!("http://localhost:{port}/mcp"),
        &[],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_everything(&report);
}

#[tokio::test]
async fn server_everything_over_legacy_sse() {
    let (_srv, port) = everything_http("sse");
    let def = remote(
        "everything-sse",
        Transport::Sse,
        &format!("http://localhost:{port}/sse"),
        &[],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_everything(&report);
    assert_eq!(report.transport, Transport::Sse);
}

#[tokio::test]
async fn server_everything_echo_call() {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let def = stdio("everything", bin.to_str().unwrap(), &["stdio"]);
    let (mut conn, _) = mcp::Connection::connect(&def, &opts().connect)
        .await
        .unwrap();
    let args = serde_json::json!({"message": "hello"})
        .as_object()
        .unwrap()
        .clone();
    let result = conn
        .call_tool("echo", Some(args), Duration::from_secs(10))
        .await
        .unwrap();
    let text = serde_json::to_string(&result).unwrap();
    assert!(text.contains("hello"), "{text}");
    conn.close().await;
}

#[tokio::test]
async fn mcp_server_time_through_uvx() {
    let uvx = require("uvx", "run `bash tests/run.sh`, which installs uv==0.13.9");
    let mut def = stdio(
        "time",
        uvx.to_str().unwrap(),
        &["mcp-server-time==2026.10.19"],
    );
    // uv bundles its own CA roots; use the system's so that a TLS-inspecting
    // proxy's CA (as on the build machines) is trusted too.
    if let mcpctl::defs::Launch::Stdio { env, .. } = &mut def.launch {
        env.insert("UV_SYSTEM_CERTS".into(), "1".into());
    }
    let report = mcp::discover(&def, &opts()).await.unwrap();
    let mut names: Vec<_> = report.tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, ["convert_time", "get_current_time"]);
}

#[tokio::test]
async fn server_everything_launched_by_mcpctl_over_streamable_http() {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let port = free_port();
    let mut def = remote(
        "everything-local",
        Transport::StreamableHttp,
        &format!("http://localhost:{port}/mcp"),
        &[],
    );
    let marker = format!("MCPCTL_LAUNCHED_MARKER_{port}");
    if let mcpctl::defs::Launch::Remote { process, .. } = &mut def.launch {
        *process = Some(mcpctl::defs::LocalProcess {
            command: bin.to_string_lossy().into_owned(),
            args: vec!["streamableHttp".into(), marker.clone()],
            env: [("PORT".to_string(), port.to_string())]
                .into_iter()
                .collect(),
            cwd: None,
        });
    }
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_everything(&report);
    assert!(
        common::processes_with(&marker).is_empty(),
        "the launched server must be gone after the check"
    );
}

/// `mcpctl --file FILE ARGS…` in `sb`, asserting the exit code.
#[track_caller]
fn run_ok(sb: &support::Sandbox, file: &str, args: &[&str], code: i32) -> support::Run {
    let mut all = vec!["--file", file];
    all.extend_from_slice(args);
    let run = sb.run(&all);
    run.expect_code(code);
    run
}

/// server-everything lists its elicitation, sampling and roots tools only
/// to a client that offers those capabilities. Once `lock` (offering none)
/// recorded 14 tools and the supervisor (offering elicitation) saw 16, so
/// a locked server-everything came up `drifted` and its elicitation tools
/// were never callable. Now `check`, `lock`, `status` and `tools` agree,
/// it comes up `ready`, its tools are callable, and its progress arrives
/// whole through the supervisor.
#[test]
fn server_everything_locked_then_started_is_ready_with_every_tool() {
    let bin = require(EVERYTHING, EVERYTHING_HOW);
    let sb = support::Sandbox::new();
    let file = sb.path("servers.json");
    let defs = serde_json::json!({"mcpServers": {"ev": {"command": bin, "args": ["stdio"]}}});
    std::fs::write(&file, defs.to_string()).unwrap();
    let file = file.to_str().unwrap();
    let checked = run_ok(&sb, file, &["check", "ev", "--json"], 0).json()["servers"][0]["tools"]
        .as_array()
        .unwrap()
        .len();
    run_ok(&sb, file, &["lock"], 0);
    let lock = std::fs::read_to_string(sb.path("servers.lock")).unwrap();
    let tools_locked: Vec<&str> = lock
        .split("[servers.ev.tools]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.contains("hash = \"sha256:"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(tools_locked.len(), checked, "{lock}");
    for gated in [
        "trigger-elicitation-request",
        "trigger-url-elicitation",
        "trigger-sampling-request",
        "get-roots-list",
    ] {
        assert!(
            tools_locked.contains(&gated),
            "{gated} not locked: {tools_locked:?}"
        );
    }
    run_ok(&sb, file, &["start", "ev"], 0);
    // It says `tools/list_changed` once it knows the client's capabilities.
    let status = || run_ok(&sb, file, &["status", "ev", "--json"], 0).json();
    common::wait_until(common::within(10), || {
        status()["servers"][0]["state"] != "refreshing"
    });
    let status = status();
    assert_eq!(status["servers"][0]["state"], "ready", "{status}");
    assert_eq!(status["servers"][0]["tools"], checked, "{status}");
    let tools = run_ok(&sb, file, &["tools", "ev", "--json"], 0).json();
    assert_eq!(tools["tools"].as_array().unwrap().len(), checked, "{tools}");
    assert!(
        tools["held"].as_array().is_none_or(Vec::is_empty),
        "{tools}"
    );
    run_ok(&sb, file, &["call", "ev", "echo", "--arg", "message=hi"], 0).stdout_has("hi");
    run_ok(
        &sb,
        file,
        &[
            "call",
            "ev",
            "trigger-elicitation-request",
            "--answers",
            r#"{"name": "Ada"}"#,
        ],
        0,
    )
    .stdout_has("Ada");
    run_ok(&sb, file, &["call", "ev", "get-roots-list"], 0).stdout_has("file://");
    // Sampling is listed, and refused: mcpctl has no model.
    run_ok(
        &sb,
        file,
        &[
            "call",
            "ev",
            "trigger-sampling-request",
            "--arg",
            "prompt=hi",
        ],
        1,
    )
    .stdout_has("no model");
    for _ in 0..3 {
        let run = run_ok(
            &sb,
            file,
            &[
                "call",
                "ev",
                "trigger-long-running-operation",
                "--arg",
                "duration=0.2",
                "--arg",
                "steps=4",
                "--progress",
                "json",
            ],
            0,
        );
        let seen: Vec<f64> = run
            .stderr
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["progress"].as_f64())
            .collect();
        assert_eq!(seen, [1.0, 2.0, 3.0, 4.0], "{run}");
    }
    run_ok(&sb, file, &["approve", "ev"], 0).stdout_has("nothing to approve");
    run_ok(&sb, file, &["supervisor", "stop"], 0);
}
