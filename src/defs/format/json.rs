//! JSON and JSONC text into raw entries: strict JSON first (the fast,
//! common case), JSONC when that fails on syntax, and errors that name the
//! file, line and column.

use std::path::Path;

use serde::Deserialize;

use super::raw::{Entries, RawEntry, Top, UniqueMap};
use crate::defs::error::DefsError;
use crate::defs::syntax::{Shape, jsonc_options};

/// The shape and raw entries of a JSON or JSONC document.
pub(super) fn parse(path: &Path, text: &str) -> Result<(Shape, Entries), DefsError> {
    match serde_json::from_str::<Top>(text) {
        Ok(top) => top.resolve(path, |_| {
            serde_json::from_str::<UniqueMap<RawEntry>>(text)
                .map(|map| map.0)
                .map_err(|err| json_error(path, &err))
        }),
        Err(err) if err.is_syntax() || err.is_eof() => parse_jsonc(path, text, &err),
        Err(err) => Err(json_error(path, &err)),
    }
}

/// Strict JSON failed on syntax; accept the file if it is valid JSONC
/// (comments, trailing commas), as VS Code-style files are.
fn parse_jsonc(
    path: &Path,
    text: &str,
    strict_err: &serde_json::Error,
) -> Result<(Shape, Entries), DefsError> {
    let value =
        match jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &jsonc_options()) {
            Ok(value) => value,
            Err(err) => return Err(jsonc_error(path, &err, strict_err)),
        };
    let invalid = |err: serde_json::Error| DefsError::Invalid {
        path: path.to_path_buf(),
        message: err.to_string(),
        hint: "fix the file by hand; mcpctl left it untouched".to_string(),
    };
    Top::deserialize(&value)
        .map_err(invalid)?
        .resolve(path, |_| {
            UniqueMap::<RawEntry>::deserialize(&value)
                .map(|map| map.0)
                .map_err(invalid)
        })
}

/// The error to report when neither strict JSON nor JSONC reads the text.
/// What JSONC refuses by name (a missing comma, single quotes …) is said in
/// those words; otherwise the error further into the file wins, since the
/// other parser stopped early at something legal (a comment, say).
fn jsonc_error(
    path: &Path,
    err: &jsonc_parser::errors::ParseError,
    strict_err: &serde_json::Error,
) -> DefsError {
    use jsonc_parser::errors::ParseErrorKind as Kind;
    let named = match err.kind() {
        Kind::ExpectedComma => Some("missing comma between items".to_string()),
        Kind::SingleQuotedStringsNotAllowed => {
            Some("single-quoted strings are not JSON; use double quotes".to_string())
        }
        Kind::HexadecimalNumbersNotAllowed => {
            Some("hexadecimal numbers are not JSON; write the number in decimal".to_string())
        }
        Kind::ExpectedStringObjectProperty | Kind::UnexpectedWord => {
            Some("object keys must be double-quoted strings".to_string())
        }
        Kind::UnaryPlusNumbersNotAllowed
        | Kind::BareDecimalPointNumbersNotAllowed
        | Kind::NonFiniteNumbersNotAllowed => Some(format!("{} in JSON", err.kind())),
        Kind::String(_) => Some(format!("invalid string: {}", err.kind())),
        _ => None,
    };
    let strict_at = (strict_err.line().max(1), strict_err.column().max(1));
    let further = (err.line_display(), err.column_display()) > strict_at;
    match named {
        Some(message) => DefsError::Malformed {
            path: path.to_path_buf(),
            line: err.line_display(),
            column: err.column_display(),
            message,
        },
        None if further => DefsError::Malformed {
            path: path.to_path_buf(),
            line: err.line_display(),
            column: err.column_display(),
            message: lowercase_first(&err.kind().to_string()),
        },
        None => json_error(path, strict_err),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn json_error(path: &Path, err: &serde_json::Error) -> DefsError {
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    DefsError::Malformed {
        path: path.to_path_buf(),
        line: err.line().max(1),
        column: err.column().max(1),
        message,
    }
}
