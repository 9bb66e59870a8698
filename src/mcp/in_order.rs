//! Progress (and log messages) in the order the server sent them, ahead
//! of the result they precede.
//!
//! rmcp hands each notification to the client handler in a task of its
//! own, while it delivers a response straight to the waiting request: a
//! call's last `notifications/progress` could reach the caller after the
//! call's result, or two of them out of order. This transport wrapper
//! routes every progress notification to its call's [`Router`] as the
//! message is read, in the one sequential receive loop, so each is queued
//! for the caller before anything the server sent after it is even seen.

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, ServerNotification};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use super::talk::Router;

/// A client transport that routes progress and log messages as it reads
/// them.
pub struct ProgressInOrder<T> {
    inner: T,
    router: Option<Router>,
}

impl<T> ProgressInOrder<T> {
    /// Wrap `inner`; without a router (`check`, `lock`) progress has
    /// nowhere to go and is only passed on.
    pub fn new(inner: T, router: Option<Router>) -> Self {
        ProgressInOrder { inner, router }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for ProgressInOrder<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let (Some(router), JsonRpcMessage::Notification(n)) = (&self.router, &message) {
            match &n.notification {
                ServerNotification::ProgressNotification(p) => router.progress(p.params.clone()),
                ServerNotification::LoggingMessageNotification(m) => {
                    if let Ok(params) = serde_json::to_value(&m.params) {
                        router.log(&params);
                    }
                }
                _ => {}
            }
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
