//! The loopback redirect listener (RFC 8252 §7.3).
//!
//! It listens on `127.0.0.1` (never a wildcard address) on a random port, or
//! the port of an earlier registration when that is free, and hands on each
//! redirect to `/callback` that carries the `state` mcpctl sent and a
//! `code` or an `error` ([`Redirects`]), to be answered once the sign-in
//! knows what it was: a planted code fails only at the token exchange, so
//! the listener goes on listening after one (anyone who reads the
//! authorization URL, in the process list say, has the `state`). Anything
//! else on the port is answered and ignored, so no stray request ends or
//! stalls a sign-in: other paths (a browser's `/favicon.ico`) get a 404, a
//! redirect with another `state` (an old tab, or a page trying to plant its
//! own code), with neither a code nor an error, or with a parameter given
//! twice gets a 400 and is counted.
//! Each connection is read on its own task, its request head capped at
//! [`MAX_HEAD`] and given [`HEAD_TIMEOUT`]. At most [`MAX_OPEN`] are read at
//! once, and a new one is never refused: the oldest still unanswered is
//! dropped for it, so idle connections (any local user can open and renew
//! them) cannot keep the browser's redirect out, and memory stays bounded.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The redirect path.
pub const CALLBACK_PATH: &str = "/callback";

/// The largest request head read; the rest of a longer one is never read.
const MAX_HEAD: usize = 16 * 1024;

/// How long one connection may take to send its request head (a browser
/// sends it at once; a slow or idle one is dropped after this).
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the answer to a stray request may take to write.
const REPLY_TIMEOUT: Duration = Duration::from_secs(2);

/// Connections read at once; a new one past this drops the oldest.
const MAX_OPEN: usize = 128;

/// Redirects with the right `state` held while an earlier one is tried
/// (more wait, as connections being read, under [`MAX_OPEN`]).
const QUEUED: usize = 16;

/// The redirect's parameters that must each appear at most once (RFC 6749
/// §3.1): a second `code` or `state` is an attempt to plant one.
const SINGLE_PARAMS: [&str; 4] = ["state", "code", "error", "iss"];

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
    /// after the sign-in ran out of time).
    pub fn ignored(&self) -> Arc<AtomicUsize> {
        self.ignored.clone()
    }

    /// Listen, in the background, for the redirects carrying `state`.
    pub fn redirects(self, state: &str) -> Redirects {
        let (found, arrived) = mpsc::channel(QUEUED);
        let state: Arc<str> = Arc::from(state);
        let accepting = tokio::spawn(accept(self.listener, state, self.ignored, found));
        Redirects {
            arrived,
            accepting,
            port: self.port,
        }
    }

    /// Wait for the first redirect carrying `state`, answer it as done and
    /// return its full URL.
    #[cfg(test)]
    pub async fn wait(self, state: &str) -> std::io::Result<String> {
        let mut redirects = self.redirects(state);
        let redirect = redirects
            .next()
            .await
            .ok_or(std::io::ErrorKind::BrokenPipe)?;
        let url = redirect.url.clone();
        redirect.answer(Answer::SignedIn).await;
        Ok(url)
    }
}

/// The redirects with the right `state`, in the order they came; dropping
/// it stops listening.
pub struct Redirects {
    arrived: mpsc::Receiver<(TcpStream, String)>,
    accepting: JoinHandle<()>,
    port: u16,
}

impl Redirects {
    /// The next redirect (waits until one comes).
    pub async fn next(&mut self) -> Option<Redirect> {
        let (stream, target) = self.arrived.recv().await?;
        Some(Redirect {
            stream,
            url: format!("http://127.0.0.1:{}{target}", self.port),
        })
    }
}

impl Drop for Redirects {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

/// One redirect with the right `state`, its browser waiting for the answer.
pub struct Redirect {
    stream: TcpStream,
    /// Its full URL (query included).
    pub url: String,
}

/// What a redirect's browser is told.
pub enum Answer {
    /// The sign-in is done.
    SignedIn,
    /// The authorization server's refusal reached mcpctl.
    Refused,
    /// Its code did not sign in; mcpctl goes on waiting.
    CodeFailed,
}

impl Redirect {
    /// Answer the browser and close the connection.
    pub async fn answer(mut self, answer: Answer) {
        let page = match answer {
            Answer::SignedIn => DONE,
            Answer::Refused => REFUSED,
            Answer::CodeFailed => CODE_FAILED,
        };
        let done = async {
            self.stream.write_all(page.as_bytes()).await?;
            self.stream.shutdown().await
        };
        let _ = tokio::time::timeout(REPLY_TIMEOUT, done).await;
    }
}

/// Accept connections, each read on its own task, until aborted.
async fn accept(
    listener: TcpListener,
    state: Arc<str>,
    ignored: Arc<AtomicUsize>,
    found: mpsc::Sender<(TcpStream, String)>,
) {
    let mut reading = Reading::default();
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let (state, ignored, found) = (state.clone(), ignored.clone(), found.clone());
                reading.admit(tokio::spawn(read_one(stream, state, ignored, found)));
            }
            // Out of descriptors, or a connection reset before it was
            // taken: the listener itself is fine, keep going.
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

/// The connections whose request is still being read or answered, oldest
/// first, at most [`MAX_OPEN`]; dropping it drops them all.
#[derive(Default)]
struct Reading(VecDeque<JoinHandle<()>>);

impl Reading {
    /// Track `task`, first dropping the oldest connections still open past
    /// [`MAX_OPEN`]: an idle one never keeps a newer one (the browser's)
    /// out.
    fn admit(&mut self, task: JoinHandle<()>) {
        self.0.retain(|t| !t.is_finished());
        while self.0.len() >= MAX_OPEN {
            if let Some(oldest) = self.0.pop_front() {
                oldest.abort();
            }
        }
        self.0.push_back(task);
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// What one request is to the sign-in.
enum Verdict {
    /// The awaited redirect; its target.
    Awaited(String),
    /// Not the callback path at all (a `/favicon.ico`).
    OtherPath,
    /// The callback path, but another `state`, neither a code nor an
    /// error, or a parameter given twice.
    NotOurs,
}

/// Read one connection's request head and answer it, or hand the awaited
/// redirect on to [`Redirects`] (waiting while [`QUEUED`] are held).
async fn read_one(
    mut stream: TcpStream,
    state: Arc<str>,
    ignored: Arc<AtomicUsize>,
    found: mpsc::Sender<(TcpStream, String)>,
) {
    let Ok(Ok(head)) = tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut stream)).await else {
        return;
    };
    let reply = match judge(&head, &state) {
        Verdict::Awaited(target) => {
            let _ = found.send((stream, target)).await;
            return;
        }
        Verdict::OtherPath => NOT_FOUND,
        Verdict::NotOurs => {
            ignored.fetch_add(1, Ordering::SeqCst);
            OTHER_STATE
        }
    };
    let _ = tokio::time::timeout(REPLY_TIMEOUT, stream.write_all(reply.as_bytes())).await;
}

/// Judge one request head against the `state` sent.
fn judge(head: &str, state: &str) -> Verdict {
    let target = request_target(head).unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    if path != CALLBACK_PATH {
        return Verdict::OtherPath;
    }
    let pairs: Vec<_> = url::form_urlencoded::parse(query.as_bytes()).collect();
    let given = |name: &str| pairs.iter().filter(|(k, _)| k == name).count();
    let once = SINGLE_PARAMS.iter().all(|name| given(name) <= 1);
    let carried = pairs
        .iter()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v.as_ref());
    let answers = pairs
        .iter()
        .any(|(k, v)| (k == "code" && !v.is_empty()) || k == "error");
    if !once || !answers || state.is_empty() || carried != Some(state) {
        return Verdict::NotOurs;
    }
    Verdict::Awaited(target)
}

/// The target of a `GET` request head.
fn request_target(head: &str) -> Option<String> {
    let line = head.lines().next()?;
    let mut words = line.split_whitespace();
    let method = words.next()?;
    let target = words.next()?;
    (method == "GET").then(|| target.to_string())
}

/// The request head (up to the blank line, at most [`MAX_HEAD`] bytes; the
/// buffer grows only as bytes arrive, so an idle connection holds none).
async fn read_head(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    while buf.len() < MAX_HEAD {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        // Only the new bytes (and three before them) can complete the end.
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n.min(MAX_HEAD - buf.len())]);
        if buf[from..].windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

const DONE: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>mcpctl received the sign-in. You can close this tab; the terminal shows the result.</p>\n";

const REFUSED: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>mcpctl received the authorization server's refusal. You can close this tab; the terminal says why.</p>\n";

const CODE_FAILED: &str = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>The code this page brought did not sign in; mcpctl is still waiting. Finish the sign-in in the tab mcpctl opened last.</p>\n";

const OTHER_STATE: &str = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n<!doctype html><title>mcpctl</title><p>This is not the sign-in mcpctl is waiting for (another <code>state</code>). Finish the sign-in in the tab mcpctl opened last.</p>\n";

const NOT_FOUND: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::task::JoinHandle;

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

    /// A listener waiting for `s123`: its port, its count of ignored
    /// redirects and the wait.
    async fn waiting() -> (u16, Arc<AtomicUsize>, JoinHandle<std::io::Result<String>>) {
        let listener = Listener::bind(None).await.unwrap();
        let (port, ignored) = (listener.port, listener.ignored());
        (port, ignored, tokio::spawn(listener.wait("s123")))
    }

    /// The browser's redirect, sent now, is answered 200 and ends the wait
    /// at once with its own code.
    async fn signs_in(port: u16, wait: JoinHandle<std::io::Result<String>>) {
        let reply = tokio::time::timeout(
            Duration::from_secs(3),
            get(port, "/callback?code=good&state=s123"),
        )
        .await
        .expect("the browser's redirect was answered");
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply:?}");
        let url = tokio::time::timeout(Duration::from_secs(2), wait)
            .await
            .expect("the right redirect ends the wait at once")
            .unwrap()
            .unwrap();
        assert!(url.ends_with("/callback?code=good&state=s123"), "{url}");
    }

    /// Attack: 200 idle connections (more than are read at once) never
    /// keep the browser's redirect out: the oldest are dropped for it.
    #[tokio::test]
    async fn two_hundred_idle_connections_do_not_keep_the_redirect_out() {
        let (port, _, wait) = waiting().await;
        let mut idle = Vec::new();
        for _ in 0..200 {
            idle.push(TcpStream::connect(("127.0.0.1", port)).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        signs_in(port, wait).await;
    }

    /// Attack: slowloris connections, each sending one byte a second and
    /// never a whole head, neither stall the sign-in nor stay open past
    /// the head's deadline.
    #[tokio::test]
    async fn slowloris_connections_neither_stall_nor_stay() {
        let (port, _, wait) = waiting().await;
        let mut slow = Vec::new();
        for _ in 0..(MAX_OPEN + 8) {
            let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            s.write_all(b"G").await.unwrap();
            slow.push(s);
        }
        let last = slow.pop().unwrap();
        let drip = tokio::spawn(async move {
            let mut s = last;
            let mut buf = [0u8; 16];
            for _ in 0..20 {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if s.write_all(b"E").await.is_err() {
                    return true;
                }
                if let Ok(Ok(0) | Err(_)) =
                    tokio::time::timeout(Duration::from_millis(1), s.read(&mut buf)).await
                {
                    return true;
                }
            }
            false
        });
        signs_in(port, wait).await;
        let (port, _, wait) = waiting().await;
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        s.write_all(b"GET /cal").await.unwrap();
        let mut buf = [0u8; 16];
        let closed = tokio::time::timeout(HEAD_TIMEOUT * 2, s.read(&mut buf)).await;
        assert!(matches!(closed, Ok(Ok(0) | Err(_))), "{closed:?}");
        signs_in(port, wait).await;
        drop(slow);
        let _ = drip.await;
    }

    /// Attack: heads of 1 MB are read only up to [`MAX_HEAD`], answered,
    /// and do not stall the sign-in.
    #[tokio::test]
    async fn one_megabyte_heads_are_cut_short() {
        let (port, ignored, wait) = waiting().await;
        let mut senders = Vec::new();
        for target in ["/favicon.ico", "/callback?code=evil&state=other"] {
            let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            senders.push(tokio::spawn(async move {
                let mut head = format!("GET {target} HTTP/1.1\r\nX: ").into_bytes();
                head.resize(1024 * 1024, b'a');
                let _ = s.write_all(&head).await;
                let mut reply = Vec::new();
                let _ = s.read_to_end(&mut reply).await;
                reply
            }));
        }
        for sender in senders {
            let reply = tokio::time::timeout(Duration::from_secs(3), sender)
                .await
                .expect("a huge head is answered, not read to its end")
                .unwrap();
            assert!(reply.is_empty() || reply.starts_with(b"HTTP/1.1 4"));
        }
        signs_in(port, wait).await;
        assert!(ignored.load(Ordering::SeqCst) <= 1);
    }

    /// Attack: a flood of redirects with another `state`, sent while the
    /// browser's arrives, is answered 400 and counted; the browser's wins.
    #[tokio::test]
    async fn a_flood_of_other_states_does_not_stall_the_sign_in() {
        let (port, ignored, wait) = waiting().await;
        let flood: Vec<_> = (0..300)
            .map(|i| {
                let target = format!("/callback?code=e{i}&state=x{i}");
                tokio::spawn(async move { get(port, &target).await })
            })
            .collect();
        let flood: Vec<_> = futures::future::join_all(flood).await;
        assert!(
            flood
                .iter()
                .all(|r| r.as_ref().unwrap().starts_with("HTTP/1.1 400"))
        );
        assert_eq!(ignored.load(Ordering::SeqCst), 300);
        signs_in(port, wait).await;
    }

    /// Attack (second pass, issue 20, O1): a redirect with the right
    /// `state` but neither a code nor an error is refused and counted; one
    /// that brings a code is handed on, and once it is answered as failed
    /// the listener goes on: the browser's redirect after it comes too.
    #[tokio::test]
    async fn redirects_keep_coming_after_one_whose_code_failed() {
        let listener = Listener::bind(None).await.unwrap();
        let (port, ignored) = (listener.port, listener.ignored());
        let mut redirects = listener.redirects("s123");
        for target in ["/callback?state=s123", "/callback?state=s123&code="] {
            let reply = get(port, target).await;
            assert!(reply.starts_with("HTTP/1.1 400"), "{target}: {reply:?}");
        }
        assert_eq!(ignored.load(Ordering::SeqCst), 2);
        let stray = tokio::spawn(get(port, "/callback?code=planted&state=s123"));
        let first = redirects.next().await.unwrap();
        assert!(
            first.url.ends_with("?code=planted&state=s123"),
            "{}",
            first.url
        );
        first.answer(Answer::CodeFailed).await;
        assert!(stray.await.unwrap().starts_with("HTTP/1.1 400"));
        let browser = tokio::spawn(get(port, "/callback?code=good&state=s123"));
        let second = tokio::time::timeout(Duration::from_secs(3), redirects.next())
            .await
            .expect("the listener goes on after a failed code")
            .unwrap();
        assert!(
            second.url.ends_with("?code=good&state=s123"),
            "{}",
            second.url
        );
        second.answer(Answer::SignedIn).await;
        assert!(browser.await.unwrap().starts_with("HTTP/1.1 200"));
    }

    /// Attack: a redirect with the right `state` but a second `code` (or a
    /// second `state`) after it is not the browser's: it is refused and
    /// counted, and the wait goes on for the real one.
    #[tokio::test]
    async fn a_second_code_or_state_is_refused_not_taken() {
        let (port, ignored, wait) = waiting().await;
        for target in [
            "/callback?code=good&state=s123&code=evil",
            "/callback?state=s123&code=evil&state=s123",
            "/callback?code=evil&state=s123&state=other",
            "/callback?code=good&state=s123&cod%65=evil",
        ] {
            let reply = get(port, target).await;
            assert!(reply.starts_with("HTTP/1.1 400"), "{target}: {reply:?}");
        }
        assert_eq!(ignored.load(Ordering::SeqCst), 4);
        assert!(!wait.is_finished());
        signs_in(port, wait).await;
    }
}
