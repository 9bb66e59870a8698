//! Measures `mcpctl serve`: a call to the fixture's fast tool through
//! `serve --stdio` against the same call on the supervisor's socket (p50,
//! same run), calls/s with 16 agents over `serve --http`, and the RSS of
//! the `serve` process with its private share (USS). Driven by
//! `benches/serve.sh`, which starts the supervisor and grants `fast0`'s
//! `fast` tool first.
//!
//! Usage: serve_bench DEFS_FILE MCPCTL_BIN
//! (MCPCTL_STATE_DIR must point at the running daemon's directory.)

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpctl::defs::{Sources, sources::Origin};
use mcpctl::supervisor::client::Client;
use mcpctl::supervisor::protocol::{CallRequest, Op};
use serde_json::{Value, json};

const N: usize = 2000;

fn pct(mut v: Vec<Duration>, p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("cannot read /proc/{pid}/status: {e}"));
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .filter(|&kb| kb > 0)
        .unwrap_or_else(|| panic!("no VmRSS for pid {pid}"));
    kb as f64 / 1024.0
}

/// The memory only this process holds (USS: private clean and dirty pages,
/// from smaps_rollup), in MB: RSS minus the pages it shares, chiefly the
/// mcpctl executable's, which the supervisor maps too.
fn private_mb(pid: u32) -> f64 {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .unwrap_or_else(|e| panic!("cannot read /proc/{pid}/smaps_rollup: {e}"));
    let kb: u64 = rollup
        .lines()
        .filter(|l| l.starts_with("Private_Clean:") || l.starts_with("Private_Dirty:"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    kb as f64 / 1024.0
}

/// One JSON-RPC exchange over a stdio session; notifications are skipped.
fn exchange(out: &mut impl Write, input: &mut impl BufRead, request: &Value) -> Value {
    writeln!(out, "{request}").unwrap();
    out.flush().unwrap();
    loop {
        let mut line = String::new();
        assert!(
            input.read_line(&mut line).unwrap() > 0,
            "serve closed stdout"
        );
        let v: Value = serde_json::from_str(&line).unwrap();
        if v.get("id") == request.get("id") {
            assert!(v.get("result").is_some(), "{v}");
            return v;
        }
    }
}

/// `N` calls (after 200 warm-ups) through `serve --stdio` launched as an
/// agent host launches it; the latencies, then the process's RSS, USS and
/// the executable it ended up running.
fn stdio_run(bin: &PathBuf, file: &PathBuf, in_process: bool) -> (Vec<Duration>, f64, f64, String) {
    let mut command = Command::new(bin);
    if in_process {
        command.env("MCPCTL_SERVE_IN_PROCESS", "1");
    }
    let mut child = command
        .arg("--file")
        .arg(file)
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve --stdio");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    exchange(
        &mut to,
        &mut from,
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "serve_bench", "version": "1"}}}),
    );
    writeln!(
        to,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    let mut served = Vec::with_capacity(N);
    for i in 0..N + 200 {
        let request = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "fast0__fast", "arguments": {}}});
        let t = Instant::now();
        exchange(&mut to, &mut from, &request);
        if i >= 200 {
            served.push(t.elapsed());
        }
    }
    let rss = rss_mb(child.id());
    let private = private_mb(child.id());
    let exe = std::fs::read_link(format!("/proc/{}/exe", child.id()))
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_default();
    drop(to);
    let _ = child.wait();
    (served, rss, private, exe)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = PathBuf::from(args.next().expect("DEFS_FILE"));
    let bin = PathBuf::from(args.next().expect("MCPCTL_BIN"));
    let sources = Sources {
        files: vec![file.clone()],
        origin: Origin::Flag,
    };

    // The socket, as `mcpctl call` uses it.
    let mut client = Client::connect(&sources, false).expect("a running supervisor");
    let op = || {
        Op::Call(CallRequest {
            name: "fast0".into(),
            tool: "fast".into(),
            arguments: Default::default(),
            catalog_id: None,
            binding_id: None,
            timeout_ms: None,
            validate: true,
            relay: None,
        })
    };
    let mut socket = Vec::with_capacity(N);
    for i in 0..N + 200 {
        let t = Instant::now();
        client.request(op()).expect("call");
        if i >= 200 {
            socket.push(t.elapsed());
        }
    }

    // Through `serve --stdio`, as an agent host launches it: handed over
    // to mcpctl-serve, then (for comparison) served by mcpctl itself.
    let (served, stdio_rss, stdio_private, stdio_exe) = stdio_run(&bin, &file, false);
    let (_, inproc_rss, inproc_private, inproc_exe) = stdio_run(&bin, &file, true);

    // 16 agents over `serve --http` (stateless 2026-07-28 requests).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let token = String::from_utf8(
        Command::new(&bin)
            .arg("--file")
            .arg(&file)
            .args(["serve", "--print-token"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_string();
    let mut http = Command::new(&bin)
        .arg("--file")
        .arg(&file)
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve --http");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "serve --http did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    mcpctl::tls::install_crypto_provider();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (total, secs) = rt.block_on(async {
        let until = Instant::now() + Duration::from_secs(5);
        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (url, token) = (url.clone(), token.clone());
            tasks.push(tokio::spawn(async move {
                let http = reqwest::Client::new();
                let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {}});
                let mut n = 0u64;
                while Instant::now() < until {
                    let body = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                        "params": {"name": "fast0__fast", "arguments": {}, "_meta": meta}});
                    let text = http
                        .post(&url)
                        .bearer_auth(&token)
                        .header("Accept", "application/json, text/event-stream")
                        .header("MCP-Protocol-Version", "2026-07-28")
                        .header("Mcp-Method", "tools/call")
                        .header("Mcp-Name", "fast0__fast")
                        .json(&body)
                        .send()
                        .await
                        .expect("POST")
                        .text()
                        .await
                        .expect("body");
                    assert!(text.contains("\"result\""), "{text}");
                    n += 1;
                }
                n
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        (total, started.elapsed().as_secs_f64())
    });
    let http_rss = rss_mb(http.id());
    let http_private = private_mb(http.id());
    let _ = http.kill();
    let _ = http.wait();

    let (s50, v50) = (pct(socket.clone(), 0.5), pct(served.clone(), 0.5));
    println!("| `tools/call` p50, supervisor socket | {s50:.3} ms | |");
    println!("| `tools/call` p50, through `serve --stdio` | {v50:.3} ms | |");
    println!(
        "| `serve` overhead at p50 | **{:.3} ms** | < 0.3 ms |",
        v50 - s50
    );
    println!(
        "| `tools/call` p99, socket / serve | {:.3} / {:.3} ms | |",
        pct(socket, 0.99),
        pct(served, 0.99)
    );
    println!(
        "| calls/s, 16 agents over `serve --http` | **{:.0}** | ≥ 2,000 |",
        total as f64 / secs
    );
    println!(
        "| `serve --stdio` RSS after {N} calls (runs as `{stdio_exe}`) | **{stdio_rss:.1} MB** | < 10 MB |"
    );
    println!("| `serve --stdio` private memory (USS) after {N} calls | {stdio_private:.1} MB | |");
    println!(
        "| the same, `MCPCTL_SERVE_IN_PROCESS=1` (runs as `{inproc_exe}`): RSS / USS | {inproc_rss:.1} / {inproc_private:.1} MB | |"
    );
    println!("| `serve --http` RSS after the 16-agent run | {http_rss:.1} MB | |");
    println!(
        "| `serve --http` private memory (USS) after the 16-agent run | {http_private:.1} MB | |"
    );
}
