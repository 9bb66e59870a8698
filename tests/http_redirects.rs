//! Redirects never carry a definition's credentials to another origin.
//!
//! Real loopback servers: one answers with redirects, another records every
//! request it receives. `127.0.0.1` and `localhost` on different ports are
//! different origins, as a browser counts them.

mod support;

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::{Value, json};
use support::Sandbox;

const SECRET: &str = "redirect-secret-7f3a91";

/// One request as a server saw it.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: HeaderMap,
}

type Reply = Arc<dyn Fn(&Method, &Uri, &str) -> Response + Send + Sync>;

/// A loopback HTTP server that records every request; runs until the test
/// process ends.
struct Recorder {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Recorder {
    fn start(reply: Reply) -> Recorder {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let server = support::Loopback::serve(move |_| {
            axum::Router::new().fallback(
                move |method: Method, uri: Uri, headers: HeaderMap, body: String| {
                    log.lock().unwrap().push(Seen {
                        path: uri.path().to_string(),
                        headers,
                    });
                    let response = reply(&method, &uri, &body);
                    async move { response }
                },
            )
        });
        // It serves until the test process ends, as the tests expect.
        let port = server.addr.port();
        std::mem::forget(server);
        Recorder { port, seen }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn redirect(to: String) -> Reply {
    Arc::new(move |_: &Method, _: &Uri, _: &str| {
        (
            StatusCode::TEMPORARY_REDIRECT,
            [(header::LOCATION, to.clone())],
        )
            .into_response()
    })
}

/// Just enough Streamable HTTP MCP server (JSON answers) for `check`.
fn fake_mcp(method: &Method, body: &str) -> Response {
    if method != Method::POST {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let Ok(msg) = serde_json::from_str::<Value>(body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let result = match msg["method"].as_str().unwrap_or("") {
        "initialize" => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1.0.0"}
        }),
        "tools/list" => json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}),
        _ if msg.get("id").is_none() => return StatusCode::ACCEPTED.into_response(),
        _ => json!({}),
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}).to_string(),
    )
        .into_response()
}

/// A recorder answering as [`fake_mcp`].
fn mcp_server() -> Recorder {
    Recorder::start(Arc::new(|m: &Method, _: &Uri, body: &str| {
        fake_mcp(m, body)
    }))
}

fn write_defs(sandbox: &Sandbox, server: Value) -> String {
    let path = sandbox.path("servers.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json!({ "mcpServers": { "web": server } })).unwrap(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

fn check(sandbox: &Sandbox, file: &str) -> support::Run {
    sandbox.run_with(&["--file", file, "check", "--timeout", "10"], |cmd| {
        cmd.env("TOK", SECRET);
    })
}

/// No request the second origin received carries the secret or a Referer.
fn assert_clean(seen: &[Seen]) {
    for request in seen {
        for (name, value) in &request.headers {
            let value = String::from_utf8_lossy(value.as_bytes());
            assert!(
                !value.contains(SECRET),
                "{name} carried the secret to the other origin: {request:?}"
            );
        }
        assert!(
            request.headers.get(header::REFERER).is_none(),
            "a Referer was sent: {request:?}"
        );
    }
}

#[test]
fn check_refuses_a_cross_origin_redirect_and_the_other_origin_never_sees_the_header() {
    let other = mcp_server();
    let first = Recorder::start(redirect(format!(
        "http://localhost:{}/mcp?key=from-the-query",
        other.port
    )));
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "url": format!("http://127.0.0.1:{}/mcp", first.port),
            "headers": {"X-Api-Key": "${TOK}"}
        }),
    );
    let run = check(&sandbox, &file);
    assert_clean(&other.seen());
    assert!(
        other.seen().is_empty(),
        "the other origin was contacted: {:?}",
        other.seen()
    );
    run.expect_code(1).stdout_has(&format!(
        "the server redirected to http://localhost:{}; update the URL",
        other.port
    ));
    assert!(!run.stdout.contains("from-the-query"), "{run}");
    // The header did go where the operator sent it.
    let first_seen = first.seen();
    assert_eq!(first_seen[0].headers["x-api-key"], SECRET);
}

#[test]
fn check_follows_a_redirect_within_the_same_origin() {
    let server = Recorder::start(Arc::new(|m: &Method, uri: &Uri, body: &str| {
        if uri.path() == "/old" {
            (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, "/mcp")]).into_response()
        } else {
            fake_mcp(m, body)
        }
    }));
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "url": format!("http://127.0.0.1:{}/old", server.port),
            "headers": {"X-Api-Key": "${TOK}"}
        }),
    );
    check(&sandbox, &file).expect_code(0);
    let seen = server.seen();
    let moved: Vec<_> = seen.iter().filter(|s| s.path == "/mcp").collect();
    assert!(!moved.is_empty(), "{seen:?}");
    for request in moved {
        assert_eq!(request.headers["x-api-key"], SECRET, "{request:?}");
        assert!(
            request.headers.get(header::REFERER).is_none(),
            "{request:?}"
        );
    }
}

#[test]
fn a_redirect_loop_stops_at_the_cap() {
    let server = Recorder::start(Arc::new(|_: &Method, uri: &Uri, _: &str| {
        let n: u32 = uri.path().trim_start_matches("/mcp").parse().unwrap_or(0);
        let to = format!("/mcp{}", n + 1);
        (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response()
    }));
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({"url": format!("http://127.0.0.1:{}/mcp", server.port)}),
    );
    check(&sandbox, &file)
        .expect_code(1)
        .stdout_has("the server redirected more than 5 times");
    // The first request and five redirects, then nothing more.
    assert_eq!(server.seen().len(), 6, "{:?}", server.seen());
}

#[test]
fn sse_refuses_a_cross_origin_redirect_of_its_stream() {
    let other = mcp_server();
    let first = Recorder::start(redirect(format!("http://localhost:{}/sse", other.port)));
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "type": "sse",
            "url": format!("http://127.0.0.1:{}/sse", first.port),
            "headers": {"X-Api-Key": "${TOK}"}
        }),
    );
    let run = check(&sandbox, &file);
    assert!(other.seen().is_empty(), "{:?}", other.seen());
    run.expect_code(1).stdout_has(&format!(
        "the server redirected to http://localhost:{}; update the URL",
        other.port
    ));
}

#[test]
fn sse_refuses_an_endpoint_on_another_origin() {
    let other = mcp_server();
    let endpoint = format!("http://localhost:{}/message", other.port);
    let first = Recorder::start(Arc::new(move |_: &Method, _: &Uri, _: &str| {
        let event = format!("event: endpoint\ndata: {endpoint}\n\n");
        let stream = futures::stream::once(async move { Ok::<_, std::io::Error>(event) })
            .chain(futures::stream::pending());
        (
            [(header::CONTENT_TYPE, "text/event-stream")],
            Body::from_stream(stream),
        )
            .into_response()
    }));
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "type": "sse",
            "url": format!("http://127.0.0.1:{}/sse", first.port),
            "headers": {"X-Api-Key": "${TOK}"}
        }),
    );
    let run = check(&sandbox, &file);
    assert!(other.seen().is_empty(), "{:?}", other.seen());
    run.expect_code(1).stdout_has(&format!(
        "the server redirected to http://localhost:{}; update the URL",
        other.port
    ));
}

fn search(sandbox: &Sandbox, registry: u16) -> support::Run {
    sandbox.run(&[
        "search",
        "anything",
        "--refresh",
        "--registry",
        &format!("http://127.0.0.1:{registry}"),
    ])
}

#[test]
fn the_registry_follows_a_redirect_to_a_mirror_without_a_referer() {
    let mirror = Recorder::start(Arc::new(|_: &Method, _: &Uri, _: &str| {
        axum::Json(json!({"servers": [], "metadata": {"count": 0}})).into_response()
    }));
    let port = mirror.port;
    let registry = Recorder::start(Arc::new(move |_: &Method, uri: &Uri, _: &str| {
        let to = format!("http://localhost:{port}{uri}");
        (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response()
    }));
    let sandbox = Sandbox::new();
    let run = search(&sandbox, registry.port);
    run.expect_code(0);
    let seen = mirror.seen();
    assert!(!seen.is_empty(), "the mirror was never asked\n{run}");
    assert_clean(&seen);
}

#[test]
fn the_registry_stops_a_redirect_loop_at_the_cap() {
    let registry = Recorder::start(Arc::new(|_: &Method, uri: &Uri, _: &str| {
        let to = format!("{}x", uri.path());
        (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response()
    }));
    let sandbox = Sandbox::new();
    search(&sandbox, registry.port)
        .expect_code(1)
        .stderr_has("the server redirected more than 5 times");
    assert_eq!(registry.seen().len(), 6, "{:?}", registry.seen());
}
