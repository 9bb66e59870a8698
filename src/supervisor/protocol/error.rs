//! Errors as sent on the wire: a class the CLI maps to an exit code, a
//! message and a hint.

use serde::{Deserialize, Serialize};

/// Error codes; the CLI maps each to an exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// No such server or tool (exit 3).
    NotFound,
    /// Disabled, changed, or in a state that forbids the verb (exit 4).
    Conflict,
    /// Another operation holds the server (exit 4).
    Busy,
    /// A budget ran out (exit 1).
    Timeout,
    /// The caller's catalog or binding id is no longer current (exit 4).
    Stale,
    /// The request or the call arguments are invalid (exit 2).
    Invalid,
    /// The operation ran and failed (exit 1).
    Failed,
}

impl ErrorCode {
    /// The snake_case spelling used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Busy => "busy",
            ErrorCode::Timeout => "timeout",
            ErrorCode::Stale => "stale",
            ErrorCode::Invalid => "invalid",
            ErrorCode::Failed => "failed",
        }
    }
}

/// An error as sent on the wire.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireError {
    /// The class of error.
    pub code: ErrorCode,
    /// What happened.
    pub message: String,
    /// What to do next.
    #[serde(default)]
    pub hint: Option<String>,
}

impl WireError {
    /// An error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        WireError {
            code,
            message: message.into(),
            hint: None,
        }
    }

    /// Attach a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}
