//! How a server's tool is named to agents: `<server><separator><tool>`,
//! and the MCP spec's tool-name rules that name must keep (1 to 128
//! characters of ASCII letters, digits, `_`, `-` and `.`), checked when a
//! tool is granted so an agent host never receives a name it may refuse.

/// The separator between server and tool unless `--separator` says otherwise.
pub const DEFAULT_SEPARATOR: &str = "__";

/// The longest tool name the spec allows.
pub const MAX_LEN: usize = 128;

/// The name agents see for `tool` of `server`.
pub fn exposed(server: &str, separator: &str, tool: &str) -> String {
    format!("{server}{separator}{tool}")
}

/// Why `name` breaks the spec's tool-name rules, if it does.
pub fn problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("it is empty".into());
    }
    if name.len() > MAX_LEN {
        return Some(format!(
            "it is {} characters long, over the limit of {MAX_LEN}",
            name.len()
        ));
    }
    let bad: String = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .collect();
    if !bad.is_empty() {
        return Some(format!(
            "it contains {:?}; only ASCII letters, digits, `_`, `-` and `.` are allowed",
            bad
        ));
    }
    None
}

/// Check a separator on its own (it is part of every exposed name).
pub fn separator_problem(separator: &str) -> Option<String> {
    if separator.is_empty() {
        return Some("the separator is empty".into());
    }
    problem(separator).map(|why| format!("the separator `{separator}` is invalid: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_rules() {
        assert_eq!(
            exposed("time", "__", "get_current_time"),
            "time__get_current_time"
        );
        assert!(problem("everything__get-sum").is_none());
        assert!(problem("a.b-c_d").is_none());
        assert!(problem("has space").is_some());
        assert!(problem("slash/name").is_some());
        assert!(problem(&"x".repeat(129)).is_some());
        assert!(problem(&"x".repeat(128)).is_none());
        assert!(problem("").is_some());
        assert!(separator_problem("/").is_some());
        assert!(separator_problem("").is_some());
        assert!(separator_problem(".").is_none());
    }
}
