//! A linear pre-scan that refuses absurdly deep nesting before any parser
//! sees the file.
//!
//! The parsers each have their own recursion limit (serde_json 128,
//! jsonc-parser 512, yaml-edit 256) and report it in their own way, some
//! only as a later "expected value at 1:1"; the YAML scanner also slows
//! down quadratically with flow depth. A definition file never needs more
//! than a handful of levels, so one limit, checked first, gives one clear
//! error with the position of the bracket or key that goes too deep.

use super::syntax::Syntax;

/// The deepest nesting a definition file may have. Real files use 4 to 6
/// levels (`mcpServers` → name → `env` → key); 64 leaves room for any
/// unknown settings a client keeps beside them.
pub const MAX_DEPTH: usize = 64;

/// The byte offset of the first opening that goes deeper than
/// [`MAX_DEPTH`], if any.
pub fn too_deep(text: &str, syntax: Syntax) -> Option<usize> {
    match syntax {
        Syntax::Json => json(text),
        Syntax::Yaml => yaml(text),
        // toml_edit limits nesting itself and reports it with a position.
        Syntax::Toml => None,
    }
}

/// Count `[` and `{` outside strings and comments.
fn json(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = skip_quoted(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr_from(bytes, i, b'\n');
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 1);
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the closing quote of the string opening at `start` (or the
/// end of the text), honouring backslash escapes.
fn skip_quoted(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b if b == quote => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

fn memchr_from(bytes: &[u8], from: usize, needle: u8) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == needle)
        .map_or(bytes.len(), |at| from + at)
}

/// Block nesting (one level per deeper indentation, plus one per `- `
/// sequence marker opening a line) plus flow nesting (`[`, `{` outside
/// quotes and comments). Block scalars (`|`, `>`) are skipped whole.
fn yaml(text: &str) -> Option<usize> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut block = 0usize;
    let mut scalar_above: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let body = content.trim_start_matches(' ');
        let indent = content.len() - body.len();
        if let Some(parent) = scalar_above {
            if body.is_empty() || indent > parent {
                continue;
            }
            scalar_above = None;
        }
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let mut rest = body;
        if flow == 0 {
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
            let mut dashes = 0;
            while let Some(after) = rest.strip_prefix('-')
                && (after.is_empty() || after.starts_with(' '))
            {
                dashes += 1;
                rest = after.trim_start_matches(' ');
            }
            block = indents.len() + dashes;
            if block > MAX_DEPTH {
                return Some(start + indent);
            }
        }
        let bytes = rest.as_bytes();
        let base = start + (content.len() - rest.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' | b'\'' if flow > 0 || i == 0 || bytes[i - 1] == b' ' => {
                    i = skip_quoted(bytes, i);
                }
                b'#' if i == 0 || bytes[i - 1] == b' ' => break,
                b'[' | b'{' if flow > 0 || starts_value(bytes, i) => {
                    flow += 1;
                    if block + flow > MAX_DEPTH {
                        return Some(base + i);
                    }
                }
                b']' | b'}' => flow = flow.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        if flow == 0 && opens_block_scalar(rest) {
            scalar_above = Some(indent);
        }
    }
    None
}

/// True when a bracket at `i` opens a flow collection in block context: it
/// starts the line's value, not the middle of a plain scalar like `a[1]`.
fn starts_value(bytes: &[u8], i: usize) -> bool {
    let before = &bytes[..i];
    let trimmed = before.trim_ascii_end();
    trimmed.is_empty()
        || (trimmed.len() < before.len() && matches!(trimmed.last(), Some(b':' | b'-' | b'?')))
}

/// True when a line's value is a block scalar header (`|`, `>-`, `|2+` …).
fn opens_block_scalar(line: &str) -> bool {
    let value = match line.split_once(": ") {
        Some((_, value)) => value,
        None => line,
    };
    let value = value.split(" #").next().unwrap_or(value).trim_end();
    let mut chars = value.chars();
    matches!(chars.next(), Some('|' | '>'))
        && chars.all(|c| c == '-' || c == '+' || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_counts_brackets_outside_strings_and_comments() {
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(too_deep(&deep, Syntax::Json), Some(MAX_DEPTH));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(too_deep(&ok, Syntax::Json), None);
        let quoted = format!(
            "{{\"a\": \"{}\", /* {} */ // {}\n\"b\": 1}}",
            "[".repeat(100),
            "{".repeat(100),
            "[".repeat(100)
        );
        assert_eq!(too_deep(&quoted, Syntax::Json), None);
    }

    #[test]
    fn yaml_counts_indentation_and_flow() {
        let mut block = String::new();
        for level in 0..=MAX_DEPTH {
            block.push_str(&format!("{}k:\n", " ".repeat(level)));
        }
        assert!(too_deep(&block, Syntax::Yaml).is_some());
        let flow = format!("a: {}{}\n", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(too_deep(&flow, Syntax::Yaml).is_some());
        let dashes = format!("a:\n{}x\n", "- ".repeat(MAX_DEPTH));
        assert!(too_deep(&dashes, Syntax::Yaml).is_some());
        let scalar = format!(
            "a:\n  label: |\n{}\n  command: \"[[[[\" # {{{{\n",
            (0..100)
                .map(|i| format!("    {}[", " ".repeat(i)))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(too_deep(&scalar, Syntax::Yaml), None);
    }
}
