//! `serve`'s line to the supervisor: the CLI's own blocking socket client
//! ([`crate::supervisor::client::Client`]), kept in a small pool and used
//! from tokio's blocking threads, so every agent request is one ordinary
//! socket request and `serve` never owns a server itself.

use std::sync::{Arc, Mutex};

use crate::supervisor::SupervisorError;
use crate::supervisor::client::Client;
use crate::supervisor::protocol::{Body, Op};
use crate::supervisor::socket::Paths;

/// How many idle connections are kept for reuse.
const POOL: usize = 32;

/// A shareable handle on the supervisor of one set of sources.
#[derive(Clone)]
pub struct Upstream {
    paths: Paths,
    idle: Arc<Mutex<Vec<Client>>>,
    talk_idle: Arc<Mutex<Vec<TalkLine>>>,
}

/// A connection past Hello, driven asynchronously for one `talk` at a time
/// (see [`super::relay`]).
pub struct TalkLine {
    /// The socket.
    pub stream: tokio::net::UnixStream,
    /// The next request id on it.
    pub next_id: u64,
}

impl Upstream {
    /// Connect once (spawning the supervisor when `spawn`), to fail early.
    pub fn connect(paths: Paths, spawn: bool) -> Result<Upstream, SupervisorError> {
        let first = Client::connect_paths(&paths, spawn)?;
        Ok(Upstream {
            paths,
            idle: Arc::new(Mutex::new(vec![first])),
            talk_idle: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// Send one request on a pooled connection (a new one when none is
    /// idle); a connection that failed is dropped, never reused.
    pub fn request_blocking(&self, op: Op) -> Result<Body, SupervisorError> {
        let pooled = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut client = match pooled {
            Some(c) => c,
            None => Client::connect_paths(&self.paths, false)?,
        };
        let result = client.request(op);
        let reusable = !matches!(result, Err(SupervisorError::Unreachable { .. }));
        if reusable
            && let Ok(mut idle) = self.idle.lock()
            && idle.len() < POOL
        {
            idle.push(client);
        }
        result
    }

    /// [`Self::request_blocking`] on a blocking thread.
    pub async fn request(&self, op: Op) -> Result<Body, SupervisorError> {
        let this = self.clone();
        match tokio::task::spawn_blocking(move || this.request_blocking(op)).await {
            Ok(result) => result,
            Err(e) => Err(SupervisorError::Unreachable {
                socket: self.paths.socket.clone(),
                detail: format!("the request thread failed: {e}"),
            }),
        }
    }

    /// True while a supervisor answers on the socket (never spawns one).
    pub fn alive_blocking(&self) -> bool {
        matches!(Client::try_connect(&self.paths), Ok(Some(_)))
    }

    /// An idle [`TalkLine`], or a new one.
    pub async fn talk_line(&self) -> Result<TalkLine, SupervisorError> {
        if let Some(line) = self.talk_idle.lock().ok().and_then(|mut idle| idle.pop()) {
            return Ok(line);
        }
        let paths = self.paths.clone();
        let client = tokio::task::spawn_blocking(move || Client::connect_paths(&paths, false))
            .await
            .map_err(|e| self.unreachable(format!("the connect thread failed: {e}")))??;
        let (stream, next_id) = client.into_parts();
        let stream = stream
            .set_nonblocking(true)
            .and_then(|()| tokio::net::UnixStream::from_std(stream))
            .map_err(|e| self.unreachable(e.to_string()))?;
        Ok(TalkLine { stream, next_id })
    }

    /// Keep `line` for the next talk (its last exchange ended cleanly).
    pub fn give_back(&self, line: TalkLine) {
        if let Ok(mut idle) = self.talk_idle.lock()
            && idle.len() < POOL
        {
            idle.push(line);
        }
    }

    /// The error for a supervisor connection that failed with `detail`.
    pub fn unreachable(&self, detail: String) -> SupervisorError {
        SupervisorError::Unreachable {
            socket: self.paths.socket.clone(),
            detail,
        }
    }
}
