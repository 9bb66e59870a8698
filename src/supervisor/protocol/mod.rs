//! The wire protocol between `mcpctl` and its supervisor (see `docs/protocol.md`).
//!
//! Frames are a u32 big-endian byte length followed by that many bytes of
//! UTF-8 JSON, capped at [`MAX_FRAME`]. The client sends [`Op::Hello`]
//! first; after a matching [`PROTOCOL_VERSION`] it sends [`Request`]s, each
//! answered by one [`Reply`] with the same `id`. The one exchange with more
//! frames is [`Op::Talk`], a call whose caller is asked and told things
//! while it runs: before its final reply the daemon sends interim replies
//! with the same id ([`Body::Asked`], [`Body::Progress`]), and the caller
//! answers each question with an [`Op::Answer`], which gets no reply.
//! Closing the connection during a call cancels it upstream. Variants are only ever
//! appended, so a newer client can talk to an older daemon of the same
//! protocol version as long as it sticks to the variants that daemon knows.
//!
//! One file per concern: what a client asks (`request.rs`), what the
//! daemon answers (`reply.rs`), what it reports about servers inside its
//! answers (`status.rs`), errors on the wire (`error.rs`) and the framing
//! (`frame.rs`).

mod error;
mod frame;
mod reply;
mod request;
mod status;

pub use error::{ErrorCode, WireError};
pub use frame::{
    FrameError, MAX_FRAME, encode, frame_len, read_async, read_blocking, write_async,
    write_blocking,
};
pub use reply::{Body, Outcome, Reply};
pub use request::{CallRequest, ForwardMethod, ForwardRequest, Op, Relay, Request, Target};
pub use status::{HeldTool, ItemResult, LastError, ServerStatus, ToolInfo};

/// The protocol version; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_round_trips_with_its_id() {
        let req = Request {
            id: 7,
            op: Op::Start(Target {
                names: vec!["a".into()],
                all: false,
                allow_insecure_file: false,
                env: None,
            }),
        };
        let bytes = encode(&req).unwrap();
        assert_eq!(
            u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize,
            bytes.len() - 4
        );
        let back: Request = read_blocking(&mut &bytes[..]).unwrap();
        assert_eq!(back.id, 7);
        assert!(matches!(back.op, Op::Start(t) if t.names == ["a"]));
        let text = std::str::from_utf8(&bytes[4..]).unwrap();
        assert_eq!(
            text,
            r#"{"id":7,"op":{"type":"start","names":["a"],"all":false}}"#
        );
    }

    #[test]
    fn a_talk_without_relay_is_sent_as_before_and_relay_round_trips() {
        let mut call = CallRequest {
            name: "s".into(),
            tool: "t".into(),
            arguments: Default::default(),
            catalog_id: None,
            binding_id: None,
            timeout_ms: None,
            validate: true,
            relay: None,
        };
        // An older daemon sees exactly the fields it knows.
        let plain = serde_json::to_value(Op::Talk(call.clone())).unwrap();
        assert!(plain.get("relay").is_none(), "{plain}");
        call.relay = Some(Relay {
            sampling: true,
            logs: true,
            roots: Some(vec![serde_json::json!({"uri": "file:///p/"})]),
        });
        let back: Op =
            serde_json::from_value(serde_json::to_value(Op::Talk(call)).unwrap()).unwrap();
        let Op::Talk(back) = back else {
            panic!("not a talk")
        };
        assert_eq!(back.relay.unwrap().roots.unwrap()[0]["uri"], "file:///p/");
        let refuse = serde_json::to_value(Op::Refuse {
            question: 2,
            message: "no".into(),
        })
        .unwrap();
        assert_eq!(
            refuse,
            serde_json::json!({"type": "refuse", "question": 2, "message": "no"})
        );
    }

    #[test]
    fn error_reply_shape() {
        let reply = Reply {
            id: 3,
            outcome: Outcome::Error(WireError::new(ErrorCode::NotFound, "no")),
        };
        let v = serde_json::to_value(&reply).unwrap();
        assert_eq!(v["id"], 3);
        assert_eq!(v["error"]["code"], "not_found");
    }

    #[test]
    fn oversize_prefix_is_refused_before_allocating() {
        let bytes = u32::MAX.to_be_bytes();
        let err = read_blocking::<Request>(&mut &bytes[..]).unwrap_err();
        assert!(matches!(err, FrameError::TooLarge(_)));
    }
}
