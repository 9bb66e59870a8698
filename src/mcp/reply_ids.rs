//! Holds a stdio server to JSON-RPC's one rule about ids: a response answers
//! a request that was sent.
//!
//! rmcp drops a response it cannot route (after the handshake) and waits on,
//! so a server that answers with the wrong id looks like a timeout, or like
//! "the process exited" once it gives up. This transport wrapper remembers
//! the ids of the requests in flight; a response to any other id is recorded
//! in the [`TapState`] and ends the stream, so the failure names the id.

use std::sync::{Arc, Mutex};

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use super::stdout_tap::{TapProblem, TapState};

/// A client transport that refuses responses to requests it never sent.
pub struct ReplyIds<T> {
    inner: T,
    /// Requests sent and not yet answered (a handful at a time).
    in_flight: Arc<Mutex<Vec<RequestId>>>,
    tap: Arc<TapState>,
}

impl<T> ReplyIds<T> {
    /// Wrap `inner`, recording a stray response in `tap`.
    pub fn new(inner: T, tap: Arc<TapState>) -> Self {
        ReplyIds {
            inner,
            in_flight: Arc::default(),
            tap,
        }
    }
}

/// JSON-RPC lets a server echo a numeric id as a string; rmcp accepts that.
fn answers(sent: &RequestId, answered: &RequestId) -> bool {
    match (sent, answered) {
        (RequestId::Number(n), RequestId::String(s)) => s.parse::<i64>().ok() == Some(*n),
        _ => sent == answered,
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for ReplyIds<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let JsonRpcMessage::Request(request) = &item {
            self.in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(request.id.clone());
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        let id = match &message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let Some(id) = id {
            let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            match in_flight.iter().position(|sent| answers(sent, id)) {
                Some(index) => {
                    in_flight.swap_remove(index);
                }
                None => {
                    self.tap.record(TapProblem::UnknownId(id.to_string()));
                    return None;
                }
            }
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numeric_id_may_come_back_as_a_string() {
        let sent = RequestId::Number(3);
        assert!(answers(&sent, &RequestId::Number(3)));
        assert!(answers(&sent, &RequestId::String("3".into())));
        assert!(!answers(&sent, &RequestId::Number(4)));
        assert!(!answers(
            &RequestId::String("a".into()),
            &RequestId::Number(3)
        ));
    }
}
