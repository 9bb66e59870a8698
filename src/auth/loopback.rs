//! The loopback redirect listener (RFC 8252 §7.3).
//!
//! It listens on `127.0.0.1` (never a wildcard address) on a random port, or
//! the port of an earlier registration when that is free, and takes one
//! redirect to `/callback`: the first request there ends the wait, whatever
//! it carries, and gets a short page saying the terminal has the result.
//! Requests to other paths (a browser's `/favicon.ico`) get a 404 and do not
//! count. Request heads are capped and read with a timeout, so a stray
//! client cannot hold the listener.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The redirect path.
pub const CALLBACK_PATH: &str = "/callback";

/// The largest request head read.
const MAX_HEAD: usize = 16 * 1024;

/// A bound listener waiting for the redirect.
pub struct Listener {
    listener: TcpListener,
    port: u16,
}

impl Listener {
    /// Bind `127.0.0.1:preferred` when given and free, else a random port.
    pub async fn bind(preferred: Option<u16>) -> std::io::Result<Listener> {
        if let Some(port) = preferred.filter(|p| *p != 0)
            && let Ok(listener) = TcpListener::bind(("127.0.0.1", port)).await
        {
            return Ok(Listener { listener, port });
        }
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Listener { listener, port })
    }

    /// The redirect URI to register and send.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK_PATH}", self.port)
    }

    /// Wait for the one redirect and return its full URL (query included).
    pub async fn wait(self) -> std::io::Result<String> {
        loop {
            let (mut stream, _) = self.listener.accept().await?;
            let head =
                match tokio::time::timeout(Duration::from_secs(10), read_head(&mut stream)).await {
                    Ok(Ok(head)) => head,
                    _ => continue,
                };
            let target = head
                .lines()
                .next()
                .and_then(|line| {
                    let mut words = line.split_whitespace();
                    let method = words.next()?;
                    let target = words.next()?;
                    (method == "GET").then(|| target.to_string())
                })
                .unwrap_or_default();
            let path = target.split('?').next().unwrap_or("");
            if path != CALLBACK_PATH {
                let _ = stream.write_all(NOT_FOUND.as_bytes()).await;
                continue;
            }
            let _ = stream.write_all(DONE.as_bytes()).await;
            let _ = stream.shutdown().await;
            return Ok(format!("http://127.0.0.1:{}{target}", self.port));
        }
    }
}

async fn read_head(stream: &mut tokio::net::TcpStream) -> std::io::Result<String> {
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

const NOT_FOUND: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
