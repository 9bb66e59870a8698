//! A loopback npm registry and PyPI JSON API for tests: a real HTTP server
//! on 127.0.0.1 serving documents saved from the real registries, from a
//! directory laid out like their URLs (so a test can copy it and change a
//! document between runs):
//! - npm at `{url}/npm`: `npm/<name, / as %2F>/<version or tag>.json`;
//! - PyPI at `{url}`: `pypi/<name>/json`;
//! - a PEP 691 simple index at `{url}/simple`: `simple/<name>/index.json`
//!   answers `simple/<name>/`.
//!
//! `tests/fixtures/packages/` holds `@modelcontextprotocol/server-everything`
//! 2026.8.31 (npm's version document, and its packument trimmed to each
//! version's name, version, mcpName and dist) and `mcp-server-time` (PyPI's
//! JSON, every release; its simple index JSON).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::IntoResponse;

/// A running loopback package registry; stops when dropped.
pub struct PackageRegistry {
    /// `http://127.0.0.1:PORT` (PyPI's base; npm's is [`PackageRegistry::npm`]).
    pub url: String,
    log: Arc<Mutex<Vec<String>>>,
    auth: Arc<Mutex<Vec<String>>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl PackageRegistry {
    /// Serve the saved documents.
    pub fn start() -> PackageRegistry {
        PackageRegistry::serve(fixtures_dir())
    }

    /// Serve the documents in `dir`, read at every request.
    pub fn serve(dir: PathBuf) -> PackageRegistry {
        let log = Arc::new(Mutex::new(Vec::new()));
        let auth = Arc::new(Mutex::new(Vec::new()));
        let state_auth = auth.clone();
        let (addr_tx, addr_rx) = std::sync::mpsc::channel::<SocketAddr>();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let state_log = log.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind loopback");
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                let app = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap| {
                    let dir = dir.clone();
                    let log = state_log.clone();
                    let auth = state_auth.clone();
                    async move {
                        log.lock().unwrap().push(uri.path().to_string());
                        if let Some(value) = headers.get("authorization") {
                            auth.lock()
                                .unwrap()
                                .push(value.to_str().unwrap_or("").to_string());
                        }
                        match document(&dir, uri.path()) {
                            Some(body) => {
                                ([("content-type", "application/json")], body).into_response()
                            }
                            None => (StatusCode::NOT_FOUND, "not found").into_response(),
                        }
                    }
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
        PackageRegistry {
            url: format!("http://{addr}"),
            log,
            auth,
            shutdown: Some(stop_tx),
        }
    }

    /// The npm registry's base URL.
    pub fn npm(&self) -> String {
        format!("{}/npm", self.url)
    }

    /// The Authorization headers received so far, in order.
    pub fn authorizations(&self) -> Vec<String> {
        self.auth.lock().unwrap().clone()
    }

    /// The paths requested so far, in order (as sent, percent-encoded).
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for PackageRegistry {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// The saved documents.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/packages")
}

/// The file for a raw request path: exactly that path, or with `.json`;
/// a path ending in `/` (a simple index page) is its `index.json`.
fn document(dir: &Path, raw: &str) -> Option<Vec<u8>> {
    if let Some(page) = raw.strip_suffix('/') {
        return document(dir, &format!("{page}/index.json"));
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
