//! Server names: short, and safe in file names, socket messages and shell
//! scripts. ASCII letters of either case are allowed because every agent
//! host's own file uses names like `GitHub` or `Perplexity`, and mcpctl edits
//! those files in place; two names that differ only in case are refused
//! (see [`case_twin`]) so a case-insensitive file system never merges the
//! logs of two servers.

use super::{Finding, Rule};

/// The longest name mcpctl accepts.
pub const MAX_LEN: usize = 64;

/// Check a server name: ASCII letters, digits, `_` and `-`, 1–64 chars.
///
/// The name in the message is debug-escaped, so a control character in a
/// hostile name (from a file or the command line) never reaches a terminal.
pub fn check(name: &str) -> Option<Finding> {
    let problem = if name.is_empty() {
        "a server name cannot be empty".to_string()
    } else if name.len() > MAX_LEN {
        format!(
            "server name `{}` is {} characters; the limit is {MAX_LEN}",
            name.escape_debug(),
            name.len()
        )
    } else if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        format!(
            "server name `{}` contains `{}`; use letters, digits, `_` and `-`",
            name.escape_debug(),
            bad.escape_debug()
        )
    } else {
        return None;
    };
    Some(Finding::error(
        Rule::Name,
        problem,
        format!("try --name {}", suggest(name)),
    ))
}

/// The problem with `name` when `other` (already taken) is the same name
/// in another case: on a case-insensitive file system their log files and
/// sockets would be one.
pub fn case_twin(name: &str, other: &str) -> Option<String> {
    (name != other && name.eq_ignore_ascii_case(other)).then(|| {
        format!(
            "server name `{}` differs from `{}` only in case",
            name.escape_debug(),
            other.escape_debug()
        )
    })
}

/// Turn any string (a package, a host) into a valid name, lowercase.
pub fn suggest(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches('-');
    let mut name: String = trimmed.chars().take(MAX_LEN).collect();
    name = name.trim_end_matches('-').to_string();
    if name.is_empty() {
        "server".to_string()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_good_names() {
        assert_eq!(check("billing-v2_eu"), None);
        assert_eq!(check("GitHub"), None);
    }

    #[test]
    fn names_that_differ_only_in_case_are_twins() {
        assert!(case_twin("GitHub", "github").is_some());
        assert_eq!(case_twin("github", "github"), None);
        assert_eq!(case_twin("gitlab", "github"), None);
    }

    #[test]
    fn rejects_bad_names_with_a_suggestion() {
        let finding = check("Billing API").unwrap();
        assert_eq!(
            finding.message,
            "server name `Billing API` contains ` `; use letters, digits, `_` and `-`"
        );
        assert_eq!(finding.hint, "try --name billing-api");
        assert_eq!(check("").unwrap().message, "a server name cannot be empty");
        assert_eq!(
            check("a\u{1b}[2J").unwrap().message,
            "server name `a\\u{1b}[2J` contains `\\u{1b}`; use letters, digits, `_` and `-`"
        );
        let long = "a".repeat(65);
        assert!(check(&long).unwrap().message.contains("the limit is 64"));
    }

    #[test]
    fn suggests_from_packages() {
        assert_eq!(
            suggest("@modelcontextprotocol/server-everything"),
            "modelcontextprotocol-server-everything"
        );
        assert_eq!(suggest("..."), "server");
    }
}
