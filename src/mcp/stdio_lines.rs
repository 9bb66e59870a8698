//! The stdio client transport: one JSON-RPC message a line, both ways,
//! with `tools/list` replies parsed straight into their type.
//!
//! rmcp's own line transport parses every message through its generic
//! JSON-RPC enum: serde buffers the whole line into an untyped tree, then
//! tries each message shape and each of some twenty result types on it.
//! For a big catalog that is most of `check`'s CPU, and it sits between
//! one page arriving and the next being asked for. This transport knows
//! which requests it sent as `tools/list`, so a reply to one is parsed
//! directly as a `ListToolsResult`; anything else, and any reply that does
//! not fit that shape exactly (an `error` beside the `result`, say), takes
//! rmcp's generic path, with rmcp's rules: unparsable lines and non-MCP
//! notifications are skipped, a well-formed message of no known shape gets
//! an "Invalid request" error back.
//!
//! Lines are bounded by the [`super::stdout_tap::StdoutTap`] underneath,
//! which fails the read once a line passes its cap.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use rmcp::RoleClient;
use rmcp::model::{
    ClientRequest, ErrorData, JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0, ListToolsResult,
    RequestId, ServerResult,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::de::IgnoredAny;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// A client transport over a child's stdout (read) and stdin (write).
pub struct StdioLines<R, W> {
    read: BufReader<R>,
    /// The line being read; kept across calls, because `receive` is polled
    /// in a `select!` and a cancelled read must resume where it stopped.
    line: Vec<u8>,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    /// Ids of `tools/list` requests sent and not yet answered.
    tool_lists: Arc<Mutex<HashSet<RequestId>>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> StdioLines<R, W> {
    /// Speak JSON-RPC lines over `read` and `write`.
    pub fn new(read: R, write: W) -> Self {
        StdioLines {
            read: BufReader::with_capacity(64 * 1024, read),
            line: Vec::new(),
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            tool_lists: Arc::default(),
        }
    }
}

/// A `tools/list` reply, exactly: `method` or `error` beside the result
/// sends the line down the generic path, which judges such a mix.
#[derive(serde::Deserialize)]
struct ToolsReply {
    jsonrpc: JsonRpcVersion2_0,
    id: RequestId,
    result: ListToolsResult,
    #[serde(default)]
    error: Option<IgnoredAny>,
    #[serde(default)]
    method: Option<IgnoredAny>,
}

/// What one line turned out to be.
enum Parsed {
    Message(Box<RxJsonRpcMessage<RoleClient>>),
    /// Not JSON, or a notification rmcp ignores for compatibility.
    Skip,
    /// JSON of no known message shape: answered with "Invalid request".
    Invalid,
}

impl<R, W> StdioLines<R, W> {
    fn parse(&self, line: &[u8]) -> Parsed {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        if let Some(reply) = self.tools_reply(line) {
            return Parsed::Message(Box::new(reply));
        }
        match serde_json::from_slice::<RxJsonRpcMessage<RoleClient>>(line) {
            Ok(message) => {
                // A `tools/list` answered some other way (an error, say) is
                // answered all the same: later lines need no fast try.
                let answered = match &message {
                    JsonRpcMessage::Response(response) => Some(&response.id),
                    JsonRpcMessage::Error(error) => error.id.as_ref(),
                    _ => None,
                };
                if let Some(id) = answered {
                    self.lock_lists().remove(id);
                }
                Parsed::Message(Box::new(message))
            }
            Err(e) if e.is_syntax() || e.is_eof() => Parsed::Skip,
            Err(_) if ignorable_notification(line) => Parsed::Skip,
            Err(_) => Parsed::Invalid,
        }
    }

    /// `line` as the reply to a pending `tools/list`, when it is one.
    fn tools_reply(&self, line: &[u8]) -> Option<RxJsonRpcMessage<RoleClient>> {
        if self.lock_lists().is_empty() {
            return None;
        }
        let reply: ToolsReply = serde_json::from_slice(line).ok()?;
        if reply.error.is_some() || reply.method.is_some() {
            return None;
        }
        if !self.lock_lists().remove(&reply.id) {
            return None;
        }
        Some(JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: reply.jsonrpc,
            id: reply.id,
            result: ServerResult::ListToolsResult(reply.result),
        }))
    }

    fn lock_lists(&self) -> std::sync::MutexGuard<'_, HashSet<RequestId>> {
        self.tool_lists.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// rmcp's compatibility rule: a notification (no `id`) with a method
/// outside MCP, or an unknown `notifications/…` one, is dropped unread.
fn ignorable_notification(line: &[u8]) -> bool {
    let Ok(message) = serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(line)
    else {
        return false;
    };
    let Some(method) = message.get("method").and_then(|m| m.as_str()) else {
        return false;
    };
    let known = KNOWN_NOTIFICATIONS.contains(&method);
    (!message.contains_key("id") && !known && !KNOWN_REQUESTS.contains(&method))
        || (method.starts_with("notifications/") && !known)
}

/// MCP's request methods, as rmcp lists them for that rule.
const KNOWN_REQUESTS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "completion/complete",
    "elicitation/create",
    "logging/setLevel",
    "roots/list",
    "sampling/createMessage",
];

/// MCP's notification methods, likewise.
const KNOWN_NOTIFICATIONS: &[&str] = &[
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/message",
    "notifications/progress",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/roots/list_changed",
    "notifications/subscriptions/acknowledged",
    "notifications/tools/list_changed",
];

/// Write one message as a line and flush it.
async fn write_line<W: AsyncWrite + Unpin>(
    write: &tokio::sync::Mutex<Option<W>>,
    message: &TxJsonRpcMessage<RoleClient>,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut slot = write.lock().await;
    let Some(out) = slot.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the server's stdin is closed",
        ));
    };
    out.write_all(&bytes).await?;
    out.flush().await
}

impl<R, W> Transport<RoleClient> for StdioLines<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let JsonRpcMessage::Request(request) = &item
            && matches!(request.request, ClientRequest::ListToolsRequest(_))
        {
            self.lock_lists().insert(request.id.clone());
        }
        let write = self.write.clone();
        async move { write_line(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            match self.read.read_until(b'\n', &mut self.line).await {
                Ok(0) | Err(_) => return None,
                Ok(_) if self.line.last() != Some(&b'\n') => return None,
                Ok(_) => {}
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let parsed = if text.is_empty() {
                Parsed::Skip
            } else {
                self.parse(text)
            };
            self.line = line;
            self.line.clear();
            match parsed {
                Parsed::Message(message) => return Some(*message),
                Parsed::Skip => {}
                Parsed::Invalid => {
                    let answer = TxJsonRpcMessage::<RoleClient>::error(
                        ErrorData::invalid_request("Invalid request", None),
                        None,
                    );
                    if write_line(&self.write, &answer).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.write.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transport() -> StdioLines<&'static [u8], Vec<u8>> {
        StdioLines::new(&b""[..], Vec::new())
    }

    fn sent_tools_list(t: &StdioLines<&'static [u8], Vec<u8>>, id: i64) {
        t.lock_lists().insert(RequestId::Number(id));
    }

    const PAGE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}],"nextCursor":"2"}}"#;

    #[test]
    fn a_tools_list_reply_parses_as_rmcp_parses_it() {
        let t = transport();
        sent_tools_list(&t, 1);
        let Parsed::Message(fast) = t.parse(PAGE.as_bytes()) else {
            panic!("not a message");
        };
        let generic: RxJsonRpcMessage<RoleClient> = serde_json::from_str(PAGE).unwrap();
        assert_eq!(
            serde_json::to_value(&*fast).unwrap(),
            serde_json::to_value(&generic).unwrap()
        );
        assert!(matches!(
            *fast,
            JsonRpcMessage::Response(JsonRpcResponse {
                result: ServerResult::ListToolsResult(_),
                ..
            })
        ));
        assert!(t.lock_lists().is_empty(), "the id is answered");
    }

    #[test]
    fn a_reply_with_an_error_beside_its_result_takes_the_generic_path() {
        let t = transport();
        sent_tools_list(&t, 1);
        let mixed = PAGE.replacen(
            r#""result""#,
            r#""error":{"code":1,"message":"x"},"result""#,
            1,
        );
        assert!(t.tools_reply(mixed.as_bytes()).is_none());
        assert!(matches!(t.parse(mixed.as_bytes()), Parsed::Invalid));
    }

    #[test]
    fn a_reply_to_an_id_that_was_not_a_tools_list_takes_the_generic_path() {
        let t = transport();
        sent_tools_list(&t, 7);
        assert!(t.tools_reply(PAGE.as_bytes()).is_none());
        assert_eq!(t.lock_lists().len(), 1);
    }

    #[test]
    fn a_tools_list_answered_with_an_error_is_forgotten() {
        let t = transport();
        sent_tools_list(&t, 1);
        let error = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"no"}}"#;
        assert!(matches!(t.parse(error), Parsed::Message(_)));
        assert!(t.lock_lists().is_empty());
    }

    #[test]
    fn garbage_and_foreign_notifications_are_skipped() {
        let t = transport();
        assert!(matches!(t.parse(b"Starting server..."), Parsed::Skip));
        // Notifications of no MCP shape (params that are no object): a
        // foreign method, or an unknown `notifications/…` one.
        assert!(matches!(
            t.parse(br#"{"jsonrpc":"2.0","method":"window/logMessage","params":5}"#),
            Parsed::Skip
        ));
        assert!(matches!(
            t.parse(
                br#"{"jsonrpc":"2.0","id":3,"method":"notifications/custom/thing","params":5}"#
            ),
            Parsed::Skip
        ));
        // A well-formed custom notification is a message, as rmcp has it.
        assert!(matches!(
            t.parse(br#"{"jsonrpc":"2.0","method":"window/logMessage","params":{}}"#),
            Parsed::Message(_)
        ));
        assert!(matches!(t.parse(br#"{"neither":1}"#), Parsed::Invalid));
    }

    #[tokio::test]
    async fn lines_are_read_across_crlf_and_a_bom() {
        let input = format!("\u{feff}{PAGE}\r\n\n");
        let input: &'static [u8] = Box::leak(input.into_bytes().into_boxed_slice());
        let mut t = StdioLines::new(input, Vec::new());
        sent_tools_list(&t, 1);
        let message = t.receive().await.expect("one message");
        assert!(matches!(
            message,
            JsonRpcMessage::Response(JsonRpcResponse {
                result: ServerResult::ListToolsResult(_),
                ..
            })
        ));
        assert!(t.receive().await.is_none(), "then the end of the stream");
    }
}
