//! The registry client against a real HTTP registry on loopback: paging,
//! defensive parsing, typed errors, timeouts and the cache.

mod support;

use std::time::{Duration, Instant};

use mcpctl::Diagnostic;
use mcpctl::error::ExitCode;
use mcpctl::registry::{Cache, ClientOptions, RegistryClient, RegistryError};
use support::TestRegistry;

fn client(url: &str, cache: Option<&std::path::Path>) -> RegistryClient {
    client_with_timeout(url, cache, Duration::from_secs(5))
}

fn client_with_timeout(
    url: &str,
    cache: Option<&std::path::Path>,
    timeout: Duration,
) -> RegistryClient {
    RegistryClient::new(ClientOptions {
        registry: Some(url.to_string()),
        refresh: false,
        cache: cache.map(Cache::new),
        timeout,
    })
    .unwrap()
}

#[tokio::test]
async fn search_follows_the_cursor_across_three_pages_and_skips_the_bad_entry() {
    let registry = TestRegistry::start();
    let client = client(&registry.url, None);
    let mut pages_seen = Vec::new();
    let outcome = client
        .search("io.github", None, false, &mut |n| pages_seen.push(n))
        .await
        .unwrap();
    assert_eq!(outcome.pages, 3, "{:?}", registry.requests());
    assert_eq!(pages_seen.len(), 3);
    let names: Vec<&str> = outcome
        .servers
        .iter()
        .map(|e| e.server.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "io.github.example/weather-mcp",
            "io.github.github/github-mcp-server",
            "io.github.joelverhagen/knapcode-samplemcpserver",
            "io.github.modelcontextprotocol/server-everything",
            "io.github.modelcontextprotocol/server-time",
            "io.github.upstash/context7",
        ]
    );
    assert_eq!(outcome.servers.len(), 6, "{names:?}");
    assert!(!names.contains(&"io.github.broken/entry"));
    assert!(
        !names.contains(&"io.github.example/old-weather"),
        "deprecated is hidden"
    );
    assert_eq!(outcome.hidden, 1);
    assert_eq!(outcome.warnings.len(), 1, "{:?}", outcome.warnings);
    assert!(outcome.warnings[0].contains("io.github.broken/entry"));
    // Only the latest version of server-everything is listed.
    let everything: Vec<_> = outcome
        .servers
        .iter()
        .filter(|e| e.server.name.ends_with("/server-everything"))
        .collect();
    assert_eq!(everything.len(), 1);
    assert_eq!(everything[0].server.version, "2026.8.31");
    // Every list request asked for the latest versions only.
    assert!(
        registry
            .requests()
            .iter()
            .all(|r| r.contains("version=latest"))
    );
}

#[tokio::test]
async fn include_deprecated_shows_the_deprecated_entry_with_its_status() {
    let registry = TestRegistry::start();
    let outcome = client(&registry.url, None)
        .search("weather", None, true, &mut |_| {})
        .await
        .unwrap();
    let old = outcome
        .servers
        .iter()
        .find(|e| e.server.name == "io.github.example/old-weather")
        .expect("deprecated entry shown");
    assert_eq!(old.status().as_str(), "deprecated");
    assert_eq!(outcome.hidden, 0);
}

#[tokio::test]
async fn a_limit_stops_paging_early_and_says_there_is_more() {
    let registry = TestRegistry::start();
    let outcome = client(&registry.url, None)
        .search("io.github", Some(2), false, &mut |_| {})
        .await
        .unwrap();
    // Page 1 holds the malformed and the deprecated entry, so two visible
    // results need a second page and no third.
    assert_eq!(outcome.servers.len(), 2);
    assert_eq!(outcome.pages, 2);
    assert!(outcome.more);
    assert!(registry.requests()[0].contains("limit=2"));
}

#[tokio::test]
async fn http_500_is_a_server_error_with_a_hint() {
    let registry = TestRegistry::start();
    let err = client(&registry.url, None)
        .search("boom", None, false, &mut |_| {})
        .await
        .unwrap_err();
    assert!(
        matches!(err, RegistryError::ServerError { status: 500, .. }),
        "{err}"
    );
    assert_eq!(err.exit_code(), ExitCode::Failed);
    assert!(err.hint().unwrap().contains("--registry"));
}

#[tokio::test]
async fn a_slow_registry_times_out_instead_of_hanging() {
    let registry = TestRegistry::start();
    let started = Instant::now();
    let err = client_with_timeout(&registry.url, None, Duration::from_secs(1))
        .search("slow", None, false, &mut |_| {})
        .await
        .unwrap_err();
    assert!(matches!(err, RegistryError::Timeout { .. }), "{err}");
    assert!(
        started.elapsed() < support::registry::SLOW,
        "{:?}",
        started.elapsed()
    );
    assert!(err.to_string().contains("did not answer"), "{err}");
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_clear_error() {
    let registry = TestRegistry::start();
    let err = client(&registry.url, None)
        .search("garbage", None, false, &mut |_| {})
        .await
        .unwrap_err();
    assert!(matches!(err, RegistryError::BadJson { .. }), "{err}");
    assert!(err.hint().unwrap().contains("MCPCTL_REGISTRY_URL"));
}

#[tokio::test]
async fn an_unreachable_registry_says_so() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let err = client(&format!("http://127.0.0.1:{port}"), None)
        .search("x", None, false, &mut |_| {})
        .await
        .unwrap_err();
    assert!(matches!(err, RegistryError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("unreachable"), "{err}");
}

#[test]
fn a_base_url_that_is_not_http_is_refused() {
    let err = RegistryClient::new(ClientOptions {
        registry: Some("ftp://example.org".into()),
        ..ClientOptions::default()
    })
    .unwrap_err();
    assert_eq!(err.exit_code(), ExitCode::Usage);
}

#[tokio::test]
async fn names_are_url_encoded_as_one_path_segment() {
    let registry = TestRegistry::start();
    let client = client(&registry.url, None);
    let entry = client
        .get_version("io.github.modelcontextprotocol/server-everything", "latest")
        .await
        .unwrap()
        .expect("found");
    assert_eq!(entry.server.version, "2026.8.31");
    assert_eq!(entry.server.packages.len(), 2);
    assert!(registry.requests()[0].starts_with(
        "/v0.1/servers/io.github.modelcontextprotocol%2Fserver-everything/versions/latest"
    ));
    let versions = client
        .versions("io.github.modelcontextprotocol/server-everything")
        .await
        .unwrap()
        .expect("found");
    let mut listed: Vec<_> = versions
        .servers
        .iter()
        .map(|e| e.server.version.clone())
        .collect();
    listed.sort();
    assert_eq!(listed, ["2025.9.25", "2026.8.31"]);
    assert!(
        client
            .get_version("io.github.nobody/none", "latest")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        client
            .versions("io.github.nobody/none")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn the_cache_answers_repeat_searches_and_refresh_bypasses_it() {
    let registry = TestRegistry::start();
    let dir = tempfile::tempdir().unwrap();
    let first = client(&registry.url, Some(dir.path()))
        .search("io.github", None, false, &mut |_| {})
        .await
        .unwrap();
    let after_first = registry.hits();
    assert_eq!(after_first, 3);

    // A new process (new client) with the same cache: no requests at all.
    let second = client(&registry.url, Some(dir.path()))
        .search("io.github", None, false, &mut |_| {})
        .await
        .unwrap();
    assert_eq!(registry.hits(), after_first);
    assert_eq!(second.servers.len(), first.servers.len());
    assert_eq!(
        second.warnings, first.warnings,
        "the bad entry is still reported"
    );

    // --refresh goes to the network again.
    let refreshing = RegistryClient::new(ClientOptions {
        registry: Some(registry.url.clone()),
        refresh: true,
        cache: Some(Cache::new(dir.path())),
        timeout: Duration::from_secs(5),
    })
    .unwrap();
    refreshing
        .search("io.github", None, false, &mut |_| {})
        .await
        .unwrap();
    assert_eq!(registry.hits(), after_first + 3);
}

#[tokio::test]
async fn errors_are_never_cached() {
    let registry = TestRegistry::start();
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        let err = client(&registry.url, Some(dir.path()))
            .search("boom", None, false, &mut |_| {})
            .await
            .unwrap_err();
        assert!(
            matches!(err, RegistryError::ServerError { status: 500, .. }),
            "{err}"
        );
        let err = client(&registry.url, Some(dir.path()))
            .search("garbage", None, false, &mut |_| {})
            .await
            .unwrap_err();
        assert!(matches!(err, RegistryError::BadJson { .. }), "{err}");
    }
    assert_eq!(registry.hits(), 4);
    let files = std::fs::read_dir(dir.path())
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(files, 0);
}

#[tokio::test]
async fn an_expired_cache_entry_is_fetched_again() {
    let registry = TestRegistry::start();
    let dir = tempfile::tempdir().unwrap();
    client(&registry.url, Some(dir.path()))
        .search("context7", None, false, &mut |_| {})
        .await
        .unwrap();
    let expired = RegistryClient::new(ClientOptions {
        registry: Some(registry.url.clone()),
        refresh: false,
        cache: Some(Cache::new(dir.path()).with_ttl(Duration::ZERO)),
        timeout: Duration::from_secs(5),
    })
    .unwrap();
    expired
        .search("context7", None, false, &mut |_| {})
        .await
        .unwrap();
    assert_eq!(registry.hits(), 2);
}
