//! Measures an MCP endpoint as an agent's HTTP client library uses it:
//! one session (2025-11-25 `initialize`, then `Mcp-Session-Id`) on one
//! kept-alive connection, calls one after another (p50/p99), then 16
//! such clients at once (calls/s). The same client drives `mcpctl serve
//! --http` and mcp-proxy (npm or PyPI) wrapping the same server, so the
//! figures compare. `stdio` drives a command over its pipes instead
//! (sequential only), for the `serve --stdio` figure beside them.
//! Driven by `benches/serve.sh`.
//!
//! Usage:
//!   keepalive_bench LABEL http URL TOKEN TOOL
//!   keepalive_bench LABEL stdio TOOL -- COMMAND [ARGS…]
//!
//! Prints one Markdown row: label, p50, p99 (ms) and, for http, calls/s
//! with 16 clients.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Sequential calls measured, after [`WARMUP`] unmeasured ones.
const N: usize = 2000;
const WARMUP: usize = 200;
/// Concurrent clients, and for how long they call.
const CLIENTS: usize = 16;
const SECS: u64 = 5;

fn pct(mut v: Vec<Duration>, p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

fn call_body(id: u64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": {}}})
}

fn initialize_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "keepalive_bench", "version": "1"}}})
}

/// The JSON-RPC message with `id` in a reply body, plain JSON or SSE.
fn find_reply(body: &str, id: u64) -> Option<Value> {
    let candidates: Vec<Value> = if body.trim_start().starts_with('{') {
        serde_json::from_str(body).ok().into_iter().collect()
    } else {
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    };
    candidates.into_iter().find(|v| v["id"] == json!(id))
}

/// One session on one kept-alive connection.
struct Session {
    http: reqwest::Client,
    url: String,
    token: String,
    session: Option<String>,
    version: String,
}

impl Session {
    async fn open(url: &str, token: &str) -> Session {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .build()
            .expect("HTTP client");
        let mut s = Session {
            http,
            url: url.to_string(),
            token: token.to_string(),
            session: None,
            version: "2025-11-25".into(),
        };
        let (reply, session) = s.post(&initialize_body()).await;
        let reply = find_reply(&reply, 0).expect("an initialize reply");
        s.version = reply["result"]["protocolVersion"]
            .as_str()
            .unwrap_or("2025-11-25")
            .to_string();
        s.session = session;
        s.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        s
    }

    /// POST `body`; the reply text and any session id it set.
    async fn post(&self, body: &Value) -> (String, Option<String>) {
        let mut request = self
            .http
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", &self.version)
            .json(body);
        if let Some(id) = &self.session {
            request = request.header("Mcp-Session-Id", id);
        }
        let response = request.send().await.expect("POST");
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        (response.text().await.expect("reply body"), session)
    }

    async fn call(&self, id: u64, tool: &str) {
        let (text, _) = self.post(&call_body(id, tool)).await;
        let reply = find_reply(&text, id).unwrap_or_else(|| panic!("no reply: {text}"));
        assert!(reply.get("result").is_some(), "{reply}");
    }
}

async fn http_sequential(url: &str, token: &str, tool: &str) -> Vec<Duration> {
    let session = Session::open(url, token).await;
    let mut times = Vec::with_capacity(N);
    for i in 0..(N + WARMUP) as u64 {
        let t = Instant::now();
        session.call(i + 1, tool).await;
        if i >= WARMUP as u64 {
            times.push(t.elapsed());
        }
    }
    times
}

async fn http_concurrent(url: &str, token: &str, tool: &str) -> f64 {
    let mut sessions = Vec::new();
    for _ in 0..CLIENTS {
        sessions.push(Session::open(url, token).await);
    }
    let started = Instant::now();
    let until = started + Duration::from_secs(SECS);
    let tasks: Vec<_> = sessions
        .into_iter()
        .map(|session| {
            let tool = tool.to_string();
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < until {
                    n += 1;
                    session.call(n, &tool).await;
                }
                n
            })
        })
        .collect();
    let mut total = 0;
    for task in tasks {
        total += task.await.expect("client task");
    }
    total as f64 / started.elapsed().as_secs_f64()
}

/// One exchange over a stdio session; other messages are skipped.
fn exchange(to: &mut impl Write, from: &mut impl BufRead, request: &Value) {
    writeln!(to, "{request}").expect("write");
    to.flush().expect("flush");
    loop {
        let mut line = String::new();
        assert!(
            from.read_line(&mut line).expect("read") > 0,
            "stdout closed"
        );
        let v: Value = serde_json::from_str(&line).expect("a JSON line");
        if v.get("id") == request.get("id") {
            assert!(v.get("result").is_some(), "{v}");
            return;
        }
    }
}

fn stdio_sequential(tool: &str, command: &[String]) -> Vec<Duration> {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the stdio command");
    let mut to = child.stdin.take().expect("stdin");
    let mut from = BufReader::new(child.stdout.take().expect("stdout"));
    exchange(&mut to, &mut from, &initialize_body());
    writeln!(
        to,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write");
    let mut times = Vec::with_capacity(N);
    for i in 0..(N + WARMUP) as u64 {
        let t = Instant::now();
        exchange(&mut to, &mut from, &call_body(i + 1, tool));
        if i >= WARMUP as u64 {
            times.push(t.elapsed());
        }
    }
    drop(to);
    let _ = child.wait();
    times
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: keepalive_bench LABEL http URL TOKEN TOOL | LABEL stdio TOOL -- COMMAND…";
    let label = args.first().expect(usage);
    match args.get(1).map(String::as_str) {
        Some("http") => {
            let [url, token, tool] = [2, 3, 4].map(|i| args.get(i).expect(usage).as_str());
            mcpctl::tls::install_crypto_provider();
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("runtime");
            let times = rt.block_on(http_sequential(url, token, tool));
            let rate = rt.block_on(http_concurrent(url, token, tool));
            println!(
                "| {label} | {:.3} ms | {:.3} ms | {rate:.0} |",
                pct(times.clone(), 0.5),
                pct(times, 0.99)
            );
        }
        Some("stdio") => {
            let tool = args.get(2).expect(usage);
            let command = args.get(4..).filter(|c| !c.is_empty()).expect(usage);
            let times = stdio_sequential(tool, command);
            println!(
                "| {label} | {:.3} ms | {:.3} ms | — |",
                pct(times.clone(), 0.5),
                pct(times, 0.99)
            );
        }
        _ => panic!("{usage}"),
    }
}
