//! A real HTTP registry on 127.0.0.1 for tests, serving the `server.json`
//! documents in `tests/fixtures/registry/` through the `v0.1` API.
//!
//! It pages every list at [`PAGE_SIZE`] entries whatever `limit` asks for
//! (as the real registry caps pages), so a broad search spans several
//! pages. Some search terms misbehave on purpose:
//! - `boom`: HTTP 500;
//! - `slow`: answers after [`SLOW`];
//! - `garbage`: HTTP 200 with a body that is not JSON.
//!
//! Every request is counted, so tests can prove the cache answered.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Entries per page, whatever the client asks for.
pub const PAGE_SIZE: usize = 3;
/// How long the `slow` search takes.
pub const SLOW: Duration = Duration::from_secs(3);

/// Ways the registry can deviate from the official one.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quirks {
    /// `versions/latest` answers 404 (only exact versions are served).
    pub no_latest_endpoint: bool,
    /// `version=latest` is ignored: lists carry every version.
    pub ignore_version_filter: bool,
}

/// A running loopback registry; stops when dropped.
pub struct TestRegistry {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    hits: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestRegistry {
    /// Start serving the fixture directory.
    pub fn start() -> TestRegistry {
        TestRegistry::start_with(Quirks::default())
    }

    /// Start serving the fixture directory with some quirks.
    pub fn start_with(quirks: Quirks) -> TestRegistry {
        TestRegistry::start_with_entries(load_fixtures(), quirks)
    }

    /// Serve the fixture directory plus `extra` entries (`server.json`
    /// documents as the registry lists them).
    pub fn start_with_extra(extra: Vec<Value>) -> TestRegistry {
        let mut entries = load_fixtures();
        entries.extend(extra);
        entries.sort_by_key(name_of);
        TestRegistry::start_with_entries(entries, Quirks::default())
    }

    fn start_with_entries(entries: Vec<Value>, quirks: Quirks) -> TestRegistry {
        let hits = Arc::new(AtomicUsize::new(0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel::<SocketAddr>();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let state = State {
            entries: Arc::new(entries),
            hits: hits.clone(),
            log: log.clone(),
            quirks,
        };
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind loopback");
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                let app = axum::Router::new().fallback(move |uri: Uri| {
                    let state = state.clone();
                    async move { state.handle(uri).await }
                });
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stop_rx.await;
                    })
                    .await
                    .expect("serve");
            });
        });
        let addr = addr_rx.recv().expect("registry address");
        TestRegistry {
            url: format!("http://{addr}"),
            hits,
            log,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// Requests served so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    /// The raw request targets (path and query), in order.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for TestRegistry {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        // The slow handler may still be sleeping; do not wait for it.
        drop(self.thread.take());
    }
}

/// The fixture directory.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/registry")
}

fn load_fixtures() -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut entries: Vec<Value> = files
        .iter()
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).expect("fixture is JSON"))
        .collect();
    entries.sort_by_key(name_of);
    entries
}

fn name_of(entry: &Value) -> String {
    entry
        .pointer("/server/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn version_of(entry: &Value) -> String {
    entry
        .pointer("/server/version")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn is_latest(entry: &Value) -> bool {
    entry
        .pointer("/_meta/io.modelcontextprotocol.registry~1official/isLatest")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

#[derive(Clone)]
struct State {
    entries: Arc<Vec<Value>>,
    hits: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
    quirks: Quirks,
}

fn decode(segment: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", segment.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({"error": "Server not found"})),
    )
        .into_response()
}

impl State {
    async fn handle(&self, uri: Uri) -> Response {
        self.hits.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push(
            uri.path_and_query()
                .map(|p| p.to_string())
                .unwrap_or_default(),
        );
        let path = uri.path();
        let query: Vec<(String, String)> = uri
            .query()
            .map(|q| {
                url::form_urlencoded::parse(q.as_bytes())
                    .into_owned()
                    .collect()
            })
            .unwrap_or_default();
        let param = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());

        if path == "/v0.1/servers" {
            return self
                .list(
                    param("search").unwrap_or_default(),
                    param("cursor"),
                    param("version"),
                )
                .await;
        }
        // /v0.1/servers/{name}/versions[/{version}] with the name as ONE
        // encoded segment: an unencoded `/` in the name does not match.
        let Some(rest) = path.strip_prefix("/v0.1/servers/") else {
            return not_found();
        };
        let segments: Vec<&str> = rest.split('/').collect();
        match segments.as_slice() {
            [name, "versions"] => {
                let name = decode(name);
                let versions: Vec<&Value> =
                    self.entries.iter().filter(|e| name_of(e) == name).collect();
                if versions.is_empty() {
                    return not_found();
                }
                axum::Json(json!({"servers": versions, "metadata": {"count": versions.len()}}))
                    .into_response()
            }
            [name, "versions", version] => {
                let name = decode(name);
                let version = decode(version);
                if version == "latest" && self.quirks.no_latest_endpoint {
                    return not_found();
                }
                let found = self.entries.iter().find(|e| {
                    name_of(e) == name
                        && if version == "latest" {
                            is_latest(e)
                        } else {
                            version_of(e) == version
                        }
                });
                match found {
                    Some(entry) => axum::Json(entry.clone()).into_response(),
                    None => not_found(),
                }
            }
            _ => not_found(),
        }
    }

    async fn list(
        &self,
        search: String,
        cursor: Option<String>,
        version: Option<String>,
    ) -> Response {
        match search.as_str() {
            "boom" => {
                return (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response();
            }
            "slow" => tokio::time::sleep(SLOW).await,
            "garbage" => return (StatusCode::OK, "<html>not a registry</html>").into_response(),
            _ => {}
        }
        let needle = search.to_ascii_lowercase();
        let matching: Vec<&Value> = self
            .entries
            .iter()
            .filter(|e| name_of(e).to_ascii_lowercase().contains(&needle))
            .filter(|e| {
                self.quirks.ignore_version_filter
                    || version.as_deref() != Some("latest")
                    || is_latest(e)
            })
            .collect();
        let start: usize = cursor.and_then(|c| c.parse().ok()).unwrap_or(0);
        let page: Vec<&Value> = matching
            .iter()
            .skip(start)
            .take(PAGE_SIZE)
            .copied()
            .collect();
        let next = start + page.len();
        let mut metadata = json!({"count": page.len()});
        if next < matching.len() {
            metadata["nextCursor"] = json!(next.to_string());
        }
        axum::Json(json!({"servers": page, "metadata": metadata})).into_response()
    }
}

/// A hostile HTTP server on 127.0.0.1 that answers every request with a
/// 200 and a chunked JSON-looking body of `total` bytes: what a registry
/// (or a mirror pretending to be one) could send to exhaust memory.
pub struct FloodServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Requests whose whole body the client read (it never hung up).
    pub read_whole: Arc<AtomicUsize>,
}

impl FloodServer {
    pub fn start(total: usize) -> FloodServer {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let read_whole = Arc::new(AtomicUsize::new(0));
        let counter = read_whole.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let counter = counter.clone();
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut line = String::new();
                    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                        line.clear();
                    }
                    let mut stream = stream;
                    let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                                transfer-encoding: chunked\r\nconnection: close\r\n\r\n";
                    let chunk = vec![b' '; 1 << 20];
                    let mut sent = 0;
                    let mut ok = stream.write_all(head.as_bytes()).is_ok();
                    while ok && sent < total {
                        ok = stream
                            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                            .and_then(|()| stream.write_all(&chunk))
                            .and_then(|()| stream.write_all(b"\r\n"))
                            .is_ok();
                        sent += chunk.len();
                    }
                    if ok && stream.write_all(b"0\r\n\r\n").is_ok() {
                        counter.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        FloodServer { url, read_whole }
    }
}
