//! The loopback redirect listener (RFC 8252 §7.3).
//!
//! It listens on `127.0.0.1` (never a wildcard address) on a random port, or
//! the port of an earlier registration when that is free, and waits for the
//! one redirect to `/callback` that carries the `state` mcpctl sent. Anything
//! else on the port is answered and ignored, so no stray request ends or
//! stalls a sign-in: other paths (a browser's `/favicon.ico`) get a 404, a
//! redirect with another `state` (an old tab, or a page trying to plant its
//! own code) gets a 400 and is counted, and each connection is read on its
//! own task, its request head capped and given [`HEAD_TIMEOUT`], at most
//! [`MAX_OPEN`] at once (more are closed at once), so idle connections
//! cost nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The redirect path.
pub const CALLBACK_PATH: &str = "/callback";

/// The largest request head read.
const MAX_HEAD: usize = 16 * 1024;

/// How long one connection may take to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections read at once.
const MAX_OPEN: usize = 16;

/// A bound listener waiting for the redirect.
pub struct Listener {
    listener: TcpListener,
    port: u16,
    ignored: Arc<AtomicUsize>,
}

impl Listener {
    /// Bind `127.0.0.1:preferred` when given and free, else a random port.
    pub async fn bind(preferred: Option<u16>) -> std::io::Result<Listener> {
        let listener = match preferred.filter(|p| *p != 0) {
            Some(port) => match TcpListener::bind(("127.0.0.1", port)).await {
                Ok(listener) => listener,
                Err(_) => TcpListener::bind(("127.0.0.1", 0)).await?,
            },
            None => TcpListener::bind(("127.0.0.1", 0)).await?,
        };
        let port = listener.local_addr()?.port();
        Ok(Listener {
            listener,
            port,
            ignored: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// The redirect URI to register and send.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK_PATH}", self.port)
    }

    /// How many redirects with another `state` were ignored so far (read
    /// after [`Listener::wait`] ran out of time).
    pub fn ignored(&self) -> Arc<AtomicUsize> {
        self.ignored.clone()
    }

    /// Wait for the redirect carrying `state` and return its full URL
    /// (query included).
    pub async fn wait(self, state: &str) -> std::io::Result<String> {
        let (heads, mut arrived) = tokio::sync::mpsc::channel::<(TcpStream, String)>(MAX_OPEN);
        let open = Arc::new(tokio::sync::Semaphore::new(MAX_OPEN));
        loop {
            tokio::select! {
                accepted = self.listener.accept() => {
                    let (stream, _) = accepted?;
                    let Ok(permit) = open.clone().try_acquire_owned() else {
                        continue; // dropped: closed at once
                    };
                    let heads = heads.clone();
                    tokio::spawn(async move {
                        let mut stream = stream;
                        if let Ok(Ok(head)) =
                            tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut stream)).await
                        {
                            let _ = heads.send((stream, head)).await;
                        }
                        drop(permit);
                    });
                }
                Some((mut stream, head)) = arrived.recv() => {
                    if let Some(target) = self.answer(&mut stream, &head, state).await {
                        return Ok(format!("http://127.0.0.1:{}{target}", self.port));
                    }
                }
            }
        }
    }

    /// Answer one request; its target when it is the awaited redirect.
    async fn answer(&self, stream: &mut TcpStream, head: &str, state: &str) -> Option<String> {
        let target = request_target(head).unwrap_or_default();
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        if path != CALLBACK_PATH {
            let _ = stream.write_all(NOT_FOUND.as_bytes()).await;
            return None;
        }
        let carried = url::form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == "state")
            .map(|(_, v)| v.into_owned());
        if state.is_empty() || carried.as_deref() != Some(state) {
            self.ignored.fetch_add(1, Ordering::SeqCst);
            let _ = stream.write_all(OTHER_STATE.as_bytes()).await;
            return None;
        }
        let _ = stream.write_all(DONE.as_bytes()).await;
        let _ = stream.shutdown().await;
        Some(target)
    }
}

/// The target of a `GET` request head.
fn request_target(head: &str) -> Option<String> {
    let line = head.lines().next()?;
    let mut words = line.split_whitespace();
    let method = words.next()?;
    let target = words.next()?;
    (method == "GET").then(|| target.to_string())
}

async fn read_head(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < MAX_HEAD {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

const DONE: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>mcpctl received the sign-in. You can close this tab; the terminal shows the result.</p>\n";

const OTHER_STATE: &str = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>This is not the sign-in mcpctl is waiting for (another <code>state</code>). Finish the sign-in in the tab mcpctl opened last.</p>\n";

const NOT_FOUND: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    async fn get(port: u16, target: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        s.write_all(format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out).await;
        out
    }

    /// Idle connections, a stray path and a redirect with another `state`
    /// neither end nor stall the wait for the right one.
    #[tokio::test]
    async fn strays_and_idle_connections_are_ignored() {
        let listener = Listener::bind(None).await.unwrap();
        let port = listener.port;
        let ignored = listener.ignored();
        let waiting = tokio::spawn(listener.wait("s123"));
        let mut idle = Vec::new();
        for _ in 0..4 {
            idle.push(TcpStream::connect(("127.0.0.1", port)).await.unwrap());
        }
        assert!(get(port, "/favicon.ico").await.starts_with("HTTP/1.1 404"));
        assert!(
            get(port, "/callback?code=evil&state=other")
                .await
                .starts_with("HTTP/1.1 400")
        );
        let started = std::time::Instant::now();
        assert!(
            get(port, "/callback?code=good&state=s123")
                .await
                .starts_with("HTTP/1.1 200")
        );
        let url = tokio::time::timeout(Duration::from_secs(2), waiting)
            .await
            .expect("the right redirect ends the wait at once")
            .unwrap()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(url.ends_with("/callback?code=good&state=s123"), "{url}");
        assert_eq!(ignored.load(Ordering::SeqCst), 1);
        drop(idle);
    }
}
