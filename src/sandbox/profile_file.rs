//! A permission-profile file (`add --sandbox PROFILE.json`): ToolHive's
//! JSON as it is, read bounded, checked by the same [`super::policy`] code
//! as a definitions file's `sandbox` field, refused with FILE:LINE.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::policy::{self, Sandbox};

/// The largest profile file read (a profile is a few lines).
pub const MAX_BYTES: u64 = 256 * 1024;

/// A profile file that cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ProfileFileError {
    /// The file, as given (sanitized).
    pub file: String,
    /// The line the problem is on (1 when it is the whole file's).
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// What to write instead.
    pub hint: String,
}

/// The profile in `path`: its value as written (kept whole, so ToolHive's
/// fields survive) and what it means.
pub fn read(path: &Path) -> Result<(Value, Sandbox), ProfileFileError> {
    let file = crate::text::sanitize(&path.display().to_string()).into_owned();
    let fail = |line: usize, message: String, hint: &str| ProfileFileError {
        file: file.clone(),
        line,
        message,
        hint: hint.to_string(),
    };
    let text = read_bounded(path).map_err(|why| {
        fail(
            1,
            why,
            "give a ToolHive permission-profile JSON file, or none|network|off",
        )
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        fail(
            e.line().max(1),
            format!("not valid JSON (column {}): {e}", e.column()),
            "a profile is one JSON object: {\"read\": [...], \"write\": [...], \"network\": {\"outbound\": {...}}}",
        )
    })?;
    if !value.is_object() {
        return Err(fail(
            1,
            "a profile file holds one JSON object".into(),
            "{\"read\": [...], \"write\": [...], \"network\": {\"outbound\": {...}}}",
        ));
    }
    let sandbox = policy::parse(&value)
        .map_err(|e| fail(line_naming(&text, &e.message), e.message.clone(), &e.hint))?;
    Ok((value, sandbox))
}

fn read_bounded(path: &Path) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking: opening a FIFO for reading would wait for a writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err("not a regular file".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("larger than {} KiB", MAX_BYTES / 1024));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// The line of the first `"…"` string in `text` that the message quotes
/// in backticks (the last quoted name first: the value, then its key);
/// 1 when none is found.
fn line_naming(text: &str, message: &str) -> usize {
    let quoted: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    for name in quoted.iter().rev() {
        let needle = format!("\"{name}\"");
        if let Some(at) = text.find(&needle) {
            return text[..at].matches('\n').count() + 1;
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_the_one_holding_the_quoted_value() {
        let text = "{\n  \"read\": [\"/ok\",\n    \"rel/x\"]\n}\n";
        assert_eq!(line_naming(text, "`read` path `rel/x` is relative"), 3);
        assert_eq!(line_naming(text, "unknown key `nope` in the profile"), 1);
    }
}
