//! Where a server's key is written in a definition file, for messages.
//!
//! The parsers hand back decoded names, so a key written with escapes
//! (`"\u001b"` in JSON, `"\e"` in YAML) or on one long line cannot be found
//! by searching for the name itself. This reads each key as the format
//! writes it, decodes it, and compares the decoded text.

use super::syntax::Syntax;

/// The 1-based line and column of the first key that decodes to `name`.
pub fn key(text: &str, name: &str, syntax: Syntax) -> Option<(usize, usize)> {
    match syntax {
        Syntax::Json => json_key(text, name),
        Syntax::Yaml => yaml_key(text, name),
        Syntax::Toml => toml_key(text, name),
    }
}

/// The `[mcp_servers.NAME]` header of a Codex table, bare or quoted.
fn toml_key(text: &str, name: &str) -> Option<(usize, usize)> {
    let quoted = serde_json::to_string(name).ok()?;
    let wanted = [
        format!("[mcp_servers.{name}]"),
        format!("[mcp_servers.{quoted}]"),
    ];
    text.lines().enumerate().find_map(|(index, line)| {
        let trimmed = line.trim_start();
        let compact: String = trimmed.chars().filter(|c| *c != ' ').collect();
        wanted
            .iter()
            .any(|w| compact == *w || compact.starts_with(&format!("{w}#")))
            .then(|| (index + 1, line.len() - trimmed.len() + 1))
    })
}

/// Scan JSON(C) text for string tokens followed by `:`, skipping comments.
fn json_key(text: &str, name: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                let token = &text[i..=end];
                let rest = text[end + 1..].trim_start();
                if rest.starts_with(':')
                    && serde_json::from_str::<String>(token).is_ok_and(|key| key == name)
                {
                    return Some(position(text, i));
                }
                i = end + 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr(bytes, i, b'\n').unwrap_or(bytes.len());
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 2);
            }
            _ => i += 1,
        }
    }
    None
}

/// The index of the `"` that closes the string opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn memchr(bytes: &[u8], from: usize, needle: u8) -> Option<usize> {
    bytes[from..]
        .iter()
        .position(|&b| b == needle)
        .map(|at| from + at)
}

/// Read the key at the start of each line (block mappings, as mcpctl and
/// people write them): plain, `'single'` or `"double"` quoted.
fn yaml_key(text: &str, name: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(index, line)| {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let key = yaml_line_key(trimmed)?;
        (key == name).then(|| (index + 1, line[..indent].chars().count() + 1))
    })
}

fn yaml_line_key(trimmed: &str) -> Option<String> {
    let quote = trimmed.chars().next()?;
    if quote == '"' || quote == '\'' {
        let bytes = trimmed.as_bytes();
        let mut i = 1;
        let end = loop {
            match bytes.get(i)? {
                b'\\' if quote == '"' => i += 2,
                b'\'' if quote == '\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
                &b if b == quote as u8 => break i,
                _ => i += 1,
            }
        };
        if !trimmed[end + 1..].trim_start().starts_with(':') {
            return None;
        }
        return yaml_serde::from_str::<String>(&trimmed[..=end]).ok();
    }
    if trimmed.starts_with('#') || trimmed.starts_with('-') {
        return None;
    }
    let colon = trimmed
        .match_indices(':')
        .map(|(at, _)| at)
        .find(|&at| matches!(trimmed.as_bytes().get(at + 1), None | Some(b' ' | b'\t')))?;
    Some(trimmed[..colon].trim_end().to_string())
}

/// 1-based line and column (in characters) of byte offset `at`.
fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_escaped_and_inline_json_keys() {
        let text = "{\n  // \"a\": no\n  \"mcpServers\": {\"ok\": {}, \"\\u001b[2J\": {\"command\": \"x\"}}\n}";
        assert_eq!(key(text, "\u{1b}[2J", Syntax::Json), Some((3, 28)));
        assert_eq!(key(text, "a", Syntax::Json), None);
        assert_eq!(key("{\"\": {}}", "", Syntax::Json), Some((1, 2)));
    }

    #[test]
    fn finds_quoted_and_plain_yaml_keys() {
        let text = "mcpServers:\n  ../../x:\n    command: a\n  \"\\e]0;t\\a\":\n    command: b\n  'it''s': {}\n";
        assert_eq!(key(text, "../../x", Syntax::Yaml), Some((2, 3)));
        assert_eq!(key(text, "\u{1b}]0;t\u{7}", Syntax::Yaml), Some((4, 3)));
        assert_eq!(key(text, "it's", Syntax::Yaml), Some((6, 3)));
        assert_eq!(key(text, "command", Syntax::Yaml), Some((3, 5)));
    }
}
