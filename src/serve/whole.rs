//! `serve --http` writes each reply whole. rmcp answers a POST with an
//! event stream: a priming event at once, the reply's message when the
//! call ends, then the end of the chunked body. Sent as they come, that is
//! two or three small writes per call; a reply that ends within [`GATHER`]
//! goes out instead as one plain body with its length, in one write. A
//! reply still running after [`GATHER`] (a long call, one that reports
//! progress) streams from there as before, having lost at most that much
//! on its first event. See also `http::no_delay`.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;

/// How long the events of a reply are held back waiting for its end.
pub const GATHER: Duration = Duration::from_millis(5);

/// The most a reply gathers before it streams (bound before buffering).
pub const GATHER_BYTES: usize = 1 << 20;

/// Middleware: a POST's event-stream reply that ends within [`GATHER`]
/// (and [`GATHER_BYTES`]) is sent as one body; any other response passes
/// through untouched.
pub async fn replies(request: Request, next: Next) -> Response {
    let post = request.method() == Method::POST;
    let response = next.run(request).await;
    let event_stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if !post || !event_stream {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let mut stream = body.into_data_stream();
    let deadline = tokio::time::Instant::now() + GATHER;
    let mut gathered: Vec<Result<Bytes, axum::Error>> = Vec::new();
    let mut size = 0;
    loop {
        match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(None) => {
                let mut whole = Vec::with_capacity(size);
                for chunk in gathered.into_iter().flatten() {
                    whole.extend_from_slice(&chunk);
                }
                parts.headers.remove(header::CONTENT_LENGTH);
                parts.headers.remove(header::TRANSFER_ENCODING);
                return Response::from_parts(parts, Body::from(whole));
            }
            Ok(Some(Ok(chunk))) => {
                size += chunk.len();
                gathered.push(Ok(chunk));
                if size > GATHER_BYTES {
                    break;
                }
            }
            Ok(Some(Err(err))) => {
                gathered.push(Err(err));
                break;
            }
            Err(_) => break,
        }
    }
    let rest = futures::stream::iter(gathered).chain(stream);
    Response::from_parts(parts, Body::from_stream(rest))
}
