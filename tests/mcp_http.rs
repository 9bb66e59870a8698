//! The MCP client over HTTP against the fixture server on 127.0.0.1:
//! Streamable HTTP, bearer auth, web pages, refused connections, TLS.

mod support;

use std::time::Duration;

use mcpctl::defs::Transport;
use mcpctl::mcp::{self, ConnectError, DiscoverOptions, Phase};
use support::{free_port, http_fixture, remote};

fn opts() -> DiscoverOptions {
    let mut o = DiscoverOptions::default();
    o.connect.budget = Some(Duration::from_secs(10));
    o
}

#[tokio::test]
async fn streamable_http_discovers_paged_tools() {
    let (_srv, base) = http_fixture(&["--tools", "7", "--page-size", "3"]);
    let def = remote(
        "web",
        Transport::StreamableHttp,
        &format!("{base}/mcp"),
        &[],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.tools.len(), 7);
    assert_eq!(report.tool_pages, 3);
    assert_eq!(report.protocol_version, "2025-11-25");
}

#[tokio::test]
async fn bearer_required_shows_the_challenge() {
    let (_srv, base) = http_fixture(&["--bearer", "s3cret"]);
    let def = remote(
        "auth",
        Transport::StreamableHttp,
        &format!("{base}/mcp"),
        &[],
    );
    let err = mcp::discover(&def, &opts()).await.unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(
            err,
            ConnectError::AuthRequired {
                status: 401,
                phase: Phase::Initialize,
                ..
            }
        ),
        "{text}"
    );
    assert!(text.contains("this server needs authorization"), "{text}");
    assert!(
        text.contains(r#"WWW-Authenticate: Bearer realm="fixture""#),
        "{text}"
    );

    // With the header (expanded as from the environment) it works. The
    // value is provided in memory: setting the process environment would
    // race with other tests spawning children.
    mcpctl::defs::vars::provide("MCPCTL_TEST_BEARER", "s3cret");
    let def = remote(
        "auth",
        Transport::StreamableHttp,
        &format!("{base}/mcp"),
        &[("Authorization", "Bearer ${MCPCTL_TEST_BEARER}")],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.tools.len(), 3);
}

#[tokio::test]
async fn html_page_is_not_an_mcp_endpoint() {
    let (_srv, base) = http_fixture(&[]);
    let def = remote(
        "page",
        Transport::StreamableHttp,
        &format!("{base}/page"),
        &[],
    );
    let err = mcp::discover(&def, &opts()).await.unwrap_err();
    assert!(matches!(err, ConnectError::WebPage { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("is a web page, not an MCP endpoint"),
        "{err}"
    );
    // The same through the legacy SSE transport.
    let def = remote("page", Transport::Sse, &format!("{base}/"), &[]);
    let err = mcp::discover(&def, &opts()).await.unwrap_err();
    assert!(matches!(err, ConnectError::WebPage { .. }), "{err}");
}

#[tokio::test]
async fn connection_refused_is_named() {
    let port = free_port();
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let def = remote(
            "down",
            transport,
            &format!("http://127.0.0.1:{port}/mcp"),
            &[],
        );
        let err = mcp::discover(&def, &opts()).await.unwrap_err();
        assert!(
            matches!(err, ConnectError::ConnectionRefused { .. }),
            "{transport}: {err}"
        );
        assert!(err.to_string().contains("connection refused"), "{err}");
    }
}

#[tokio::test]
async fn tls_failure_is_named() {
    // https:// to a plain-HTTP port fails in the TLS handshake.
    let (_srv, base) = http_fixture(&[]);
    let url = base.replace("http://", "https://");
    let def = remote("tls", Transport::StreamableHttp, &format!("{url}/mcp"), &[]);
    let err = mcp::discover(&def, &opts()).await.unwrap_err();
    assert!(matches!(err, ConnectError::Tls { .. }), "{err}");
}

#[tokio::test]
async fn stateless_only_over_http_falls_back() {
    let (_srv, base) = http_fixture(&["--stateless-only"]);
    let def = remote(
        "stateless",
        Transport::StreamableHttp,
        &format!("{base}/mcp"),
        &[],
    );
    let report = mcp::discover(&def, &opts()).await.unwrap();
    assert_eq!(report.protocol_version, "2026-07-28");
    assert_eq!(report.tools.len(), 3);
}

/// A resolver that knows no names, standing in for a DNS failure without
/// sending a query anywhere.
struct NoSuchHost;

impl reqwest::dns::Resolve for NoSuchHost {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            Err(Box::new(std::io::Error::other(format!("{host}: NXDOMAIN")))
                as Box<dyn std::error::Error + Send + Sync>)
        })
    }
}

#[tokio::test]
async fn dns_failure_is_named() {
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let def = remote("nx", transport, "http://mcp.example.invalid:8080/mcp", &[]);
        let mut o = opts();
        o.connect.dns_resolver = Some(std::sync::Arc::new(NoSuchHost));
        let err = mcp::discover(&def, &o).await.unwrap_err();
        assert!(
            matches!(err, ConnectError::Dns { .. }),
            "{transport}: {err}"
        );
        assert!(
            err.to_string()
                .contains("cannot resolve host `mcp.example.invalid`"),
            "{err}"
        );
    }
}
