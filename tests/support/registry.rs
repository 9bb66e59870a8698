//! The one loopback registry stand-in: a real HTTP server on 127.0.0.1
//! that is both the MCP registry (the `server.json` documents in
//! `tests/fixtures/registry/` through the `v0.1` API) and the npm registry
//! and PyPI (documents saved from the real ones, see [`package_document`]),
//! plus the hostile flood server and an OCI registry for Docker images.
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
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sha2::Digest;

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

/// The MCP registry tests' name for [`Registry`].
pub type TestRegistry = Registry;
/// The package (npm, PyPI) tests' name for [`Registry`].
pub type PackageRegistry = Registry;

/// A running loopback registry; stops when dropped.
pub struct Registry {
    /// `http://127.0.0.1:PORT` (the MCP registry's and PyPI's base; npm's
    /// is [`Registry::npm`]).
    pub url: String,
    hits: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
    auth: Arc<Mutex<Vec<String>>>,
    _server: Loopback,
}

impl Registry {
    /// Start serving the saved registry and package documents.
    pub fn start() -> Registry {
        Registry::start_with(Quirks::default())
    }

    /// Start serving the saved documents with some quirks.
    pub fn start_with(quirks: Quirks) -> Registry {
        Registry::start_with_entries(load_fixtures(), quirks, package_fixtures())
    }

    /// Serve the saved documents plus `extra` entries (`server.json`
    /// documents as the registry lists them).
    pub fn start_with_extra(extra: Vec<Value>) -> Registry {
        let mut entries = load_fixtures();
        entries.extend(extra);
        entries.sort_by_key(name_of);
        Registry::start_with_entries(entries, Quirks::default(), package_fixtures())
    }

    /// Serve the package documents in `dir` (laid out as
    /// `tests/fixtures/packages/`, read at every request, so a test may
    /// change one between runs) beside the saved registry entries.
    pub fn serve(dir: PathBuf) -> Registry {
        Registry::start_with_entries(load_fixtures(), Quirks::default(), dir)
    }

    fn start_with_entries(entries: Vec<Value>, quirks: Quirks, packages: PathBuf) -> Registry {
        let hits = Arc::new(AtomicUsize::new(0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let auth = Arc::new(Mutex::new(Vec::new()));
        let state = State {
            entries: Arc::new(entries),
            hits: hits.clone(),
            log: log.clone(),
            auth: auth.clone(),
            packages: Arc::new(packages),
            quirks,
        };
        let server = Loopback::serve(move |_| {
            axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap| {
                let state = state.clone();
                async move { state.handle(uri, headers).await }
            })
        });
        Registry {
            url: format!("http://{}", server.addr),
            hits,
            log,
            auth,
            _server: server,
        }
    }

    /// Requests served so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    /// The raw request targets (path and query, as sent), in order.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// The npm registry's base URL.
    pub fn npm(&self) -> String {
        format!("{}/npm", self.url)
    }

    /// The Authorization headers received so far, in order.
    pub fn authorizations(&self) -> Vec<String> {
        self.auth.lock().unwrap().clone()
    }
}

/// An axum app served on 127.0.0.1 from a thread of its own, stopped
/// (without waiting for a handler that still sleeps) when dropped: what
/// every loopback stand-in of the tests runs on.
pub struct Loopback {
    /// Where it listens.
    pub addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Loopback {
    /// Bind a free loopback port and serve `app(the address)` on it.
    pub fn serve(app: impl FnOnce(SocketAddr) -> axum::Router + Send + 'static) -> Loopback {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener
            .set_nonblocking(true)
            .expect("nonblocking listener");
        let addr = listener.local_addr().expect("loopback address");
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                axum::serve(listener, app(addr))
                    .with_graceful_shutdown(async {
                        let _ = stop_rx.await;
                    })
                    .await
                    .expect("serve");
            });
        });
        Loopback {
            addr,
            _stop: stop_tx,
        }
    }
}

/// A DNS server on loopback that answers every query (with no records),
/// so the probe can tell a lookup that got through from one that did not.
pub fn dns_server() -> std::net::UdpSocket {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let answering = socket.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut packet = [0u8; 512];
        while let Ok((n, from)) = answering.recv_from(&mut packet) {
            if n > 3 {
                packet[2] |= 0x80;
                let _ = answering.send_to(&packet[..n], from);
            }
        }
    });
    socket
}

/// The saved MCP registry entries.
pub fn registry_fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/registry")
}

/// The saved npm and PyPI documents: `@modelcontextprotocol/server-everything`
/// 2026.8.31 (npm's version document, and its packument trimmed to each
/// version's name, version, mcpName and dist) and `mcp-server-time` (PyPI's
/// JSON, every release; its simple index JSON).
pub fn package_fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/packages")
}

fn load_fixtures() -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(registry_fixtures())
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
    auth: Arc<Mutex<Vec<String>>>,
    packages: Arc<PathBuf>,
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
    async fn handle(&self, uri: Uri, headers: HeaderMap) -> Response {
        self.hits.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push(
            uri.path_and_query()
                .map(|p| p.to_string())
                .unwrap_or_default(),
        );
        if let Some(value) = headers.get("authorization") {
            let value = value.to_str().unwrap_or("").to_string();
            self.auth.lock().unwrap().push(value);
        }
        let path = uri.path();
        if !path.starts_with("/v0.1/") {
            return match package_document(&self.packages, path) {
                Some(body) => ([("content-type", "application/json")], body).into_response(),
                None => (StatusCode::NOT_FOUND, "not found").into_response(),
            };
        }
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
    /// Start flooding `total` bytes per request.
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

/// The package document for a raw request path, laid out like the
/// registries' URLs: npm at `/npm/<name, / as %2F>/<version or tag>.json`,
/// PyPI's JSON API at `/pypi/<name>/json`, a PEP 691 simple index page
/// `/simple/<name>/` as `simple/<name>/index.json`. Exactly that path, or
/// with `.json`; nothing outside `dir`.
fn package_document(dir: &Path, raw: &str) -> Option<Vec<u8>> {
    if let Some(page) = raw.strip_suffix('/') {
        return package_document(dir, &format!("{page}/index.json"));
    }
    let rel = raw.trim_start_matches('/');
    if rel
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
    {
        return None;
    }
    let path = dir.join(rel);
    std::fs::read(&path)
        .ok()
        .or_else(|| std::fs::read(format!("{}.json", path.display())).ok())
}

/// A loopback OCI registry (distribution API) with one image,
/// `acme/server`, tagged `1.0` and `latest`: an image index pointing at a
/// linux/amd64 manifest whose config carries `label` as the MCP name label.
/// Like Docker Hub and ghcr.io it answers 401 with a bearer challenge until
/// the client fetches the anonymous token.
pub struct OciRegistry {
    /// `127.0.0.1:PORT`.
    pub host: String,
    /// The digest the tags point at.
    pub digest: String,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    _server: Loopback,
}

fn sha256(bytes: &[u8]) -> String {
    let hex: String = sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The image's documents, each with its digest: (config, manifest, index).
type OciDocuments = [(Vec<u8>, String); 3];

/// A linux/amd64 image whose config labels it `label`, under an index that
/// also lists an arm64 manifest it does not serve.
fn oci_documents(label: &str) -> OciDocuments {
    let config = serde_json::to_vec(&json!({"architecture": "amd64", "os": "linux",
            "config": {"Labels": {"io.modelcontextprotocol.server.name": label}},
            "rootfs": {"type": "layers", "diff_ids": []}}))
    .unwrap();
    let config_digest = sha256(&config);
    let manifest = serde_json::to_vec(&json!({"schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                "digest": config_digest, "size": config.len()},
            "layers": []}))
    .unwrap();
    let manifest_digest = sha256(&manifest);
    let index = serde_json::to_vec(&json!({"schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": [
                {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": format!("sha256:{}", "0".repeat(64)),
                 "size": 1, "platform": {"os": "linux", "architecture": "arm64"}},
                {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": manifest_digest,
                 "size": manifest.len(), "platform": {"os": "linux", "architecture": "amd64"}}]}))
        .unwrap();
    let index_digest = sha256(&index);
    [
        (config, config_digest),
        (manifest, manifest_digest),
        (index, index_digest),
    ]
}

impl OciRegistry {
    /// Serve the image with `label` as its MCP name label.
    pub fn start(label: &str) -> OciRegistry {
        use axum::http::{HeaderMap, StatusCode, Uri};
        use axum::response::IntoResponse;
        let [
            (config, config_digest),
            (manifest, manifest_digest),
            (index, index_digest),
        ] = oci_documents(label);
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let state_log = log.clone();
        let index_digest_served = index_digest.clone();
        let server = Loopback::serve(move |addr| {
            axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap| {
                    let log = state_log.clone();
                    let (config, manifest, index) = (config.clone(), manifest.clone(), index.clone());
                    let (config_digest, manifest_digest, index_digest) = (
                        config_digest.clone(),
                        manifest_digest.clone(),
                        index_digest_served.clone(),
                    );
                    async move {
                        let path = uri.path().to_string();
                        log.lock().unwrap().push(path.clone());
                        if path == "/token" {
                            return axum::Json(json!({"token": "anon-tok"})).into_response();
                        }
                        let authorized = headers
                            .get("authorization")
                            .is_some_and(|v| v == "Bearer anon-tok");
                        if !authorized {
                            let challenge = format!(
                                "Bearer realm=\"http://{addr}/token\",service=\"test\",scope=\"repository:acme/server:pull\""
                            );
                            return (StatusCode::UNAUTHORIZED, [("www-authenticate", challenge)], "")
                                .into_response();
                        }
                        let reply = |media: &str, digest: &str, body: Vec<u8>| {
                            (
                                [
                                    ("content-type", media.to_string()),
                                    ("docker-content-digest", digest.to_string()),
                                ],
                                body,
                            )
                                .into_response()
                        };
                        match path.as_str() {
                            "/v2/acme/server/manifests/1.0" | "/v2/acme/server/manifests/latest" => {
                                reply("application/vnd.oci.image.index.v1+json", &index_digest, index)
                            }
                            p if p == format!("/v2/acme/server/manifests/{manifest_digest}") => {
                                reply("application/vnd.oci.image.manifest.v1+json", &manifest_digest, manifest)
                            }
                            p if p == format!("/v2/acme/server/blobs/{config_digest}") => {
                                reply("application/vnd.oci.image.config.v1+json", &config_digest, config)
                            }
                            _ => (StatusCode::NOT_FOUND, "").into_response(),
                        }
                    }
                })
        });
        OciRegistry {
            host: server.addr.to_string(),
            digest: index_digest,
            log,
            _server: server,
        }
    }

    /// The paths requested so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}
