//! Real third-party servers, pinned: server-everything (npm) over stdio,
//! Streamable HTTP and legacy SSE, and mcp-server-time (PyPI) through uvx.
//! These fail, never skip, when the servers are not installed.

mod support;

use std::process::Command;
use std::time::Duration;

use mcpctl::defs::Transport;
use mcpctl::mcp::{self, DiscoverOptions};
use support::{Background, free_port, remote, require, stdio};

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
        support::processes_with(&marker).is_empty(),
        "the launched server must be gone after the check"
    );
}
