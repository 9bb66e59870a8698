//! Edits change only the entry they touch: the bytes before and after are
//! diffed, and comments and unknown fields survive in every shape.

use std::path::Path;

use mcpctl::defs::edit::{Edit, apply};
use mcpctl::defs::format::parse;
use serde_json::json;

fn edit(name: &str, text: &str, edits: &[Edit]) -> String {
    let path = Path::new(name);
    let before = parse(path, text).expect("fixture parses");
    apply(path, text, &before, edits, false).expect("edit applies")
}

/// The lines of `after` that are not in `before`, and vice versa.
fn line_diff(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let b: Vec<&str> = before.lines().collect();
    let a: Vec<&str> = after.lines().collect();
    let removed = b
        .iter()
        .filter(|l| !a.contains(l))
        .map(|l| l.to_string())
        .collect();
    let added = a
        .iter()
        .filter(|l| !b.contains(l))
        .map(|l| l.to_string())
        .collect();
    (removed, added)
}

const YAML: &str = "\
# Operator config; keep this header.
version: 3   # unknown top-level key
mcpServers:
  # The browser automation server.
  browser:
    transport: stdio
    command: npx
    args: [\"-y\", \"@playwright/mcp@0.0.41\"]
    autostart: false
    x-team: web   # unknown field
  # Billing, owned by finance.
  billing:
    transport: streamable-http
    url: https://billing.example.com/mcp
    headers:
      Authorization: \"Bearer ${BILLING_TOKEN}\"
";

#[test]
fn yaml_disable_changes_one_line_and_keeps_comments() {
    let after = edit(
        "c.yaml",
        YAML,
        &[Edit::SetEnabled {
            name: "browser".into(),
            enabled: false,
        }],
    );
    let (removed, added) = line_diff(YAML, &after);
    assert!(removed.is_empty(), "removed {removed:?}\n{after}");
    assert_eq!(added, vec!["    disabled: true".to_string()], "{after}");
    let enabled_again = edit(
        "c.yaml",
        &after,
        &[Edit::SetEnabled {
            name: "browser".into(),
            enabled: true,
        }],
    );
    let (removed, added) = line_diff(&after, &enabled_again);
    assert_eq!(removed, vec!["    disabled: true".to_string()]);
    assert_eq!(added, vec!["    disabled: false".to_string()]);
}

#[test]
fn yaml_remove_takes_its_comment_and_nothing_else() {
    let after = edit(
        "c.yaml",
        YAML,
        &[Edit::Remove {
            name: "browser".into(),
        }],
    );
    assert!(!after.contains("browser"), "{after}");
    assert!(!after.contains("The browser automation server"), "{after}");
    assert!(after.contains("# Billing, owned by finance."), "{after}");
    assert!(after.starts_with(
        "# Operator config; keep this header.\nversion: 3   # unknown top-level key\n"
    ));
    let (_, added) = line_diff(YAML, &after);
    assert!(added.is_empty(), "added {added:?}\n{after}");
}

#[test]
fn yaml_add_appends_block_entry() {
    let value =
        json!({"transport": "stdio", "command": "uvx", "args": ["mcp-server-time==2026.10.19"]});
    let after = edit(
        "c.yaml",
        YAML,
        &[Edit::Add {
            name: "time".into(),
            value,
        }],
    );
    assert!(after.starts_with(YAML.trim_end()), "{after}");
    let parsed = parse(Path::new("c.yaml"), &after).unwrap();
    assert_eq!(parsed.servers.len(), 3);
    assert_eq!(parsed.servers[2].name, "time");
}

const JSONC: &str = r#"{
  // VS Code style settings
  "inputs": [],
  "mcpServers": {
    // the everything server
    "everything": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
      "env": {"API_KEY": "${API_KEY}"},
      "x-unknown": {"kept": true}
    },
    "remote": {"type": "http", "url": "https://r.example.com/mcp"}
  }
}
"#;

#[test]
fn json_disable_changes_only_that_entry() {
    let after = edit(
        "mcp.json",
        JSONC,
        &[Edit::SetEnabled {
            name: "remote".into(),
            enabled: false,
        }],
    );
    let entry_start = JSONC.find("\"remote\"").unwrap();
    assert_eq!(
        &after[..entry_start],
        &JSONC[..entry_start],
        "bytes before the entry changed"
    );
    let tail = "\n  }\n}\n";
    assert!(
        after.ends_with(tail),
        "bytes after the entry changed:\n{after}"
    );
    let entry = &after[entry_start..after.len() - tail.len()];
    assert!(entry.contains("\"disabled\": true"), "{entry}");
    assert!(
        entry.contains("\"url\": \"https://r.example.com/mcp\""),
        "{entry}"
    );
}

#[test]
fn json_remove_takes_its_comment() {
    let after = edit(
        "mcp.json",
        JSONC,
        &[Edit::Remove {
            name: "everything".into(),
        }],
    );
    assert!(!after.contains("the everything server"), "{after}");
    assert!(after.contains("// VS Code style settings"), "{after}");
    let parsed = parse(Path::new("mcp.json"), &after).unwrap();
    assert_eq!(parsed.servers.len(), 1);
}

#[test]
fn json_add_to_flat_file_keeps_existing_bytes() {
    let flat = "{\n  \"billing\": {\"transport\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"b@1.0.0\"], \"enabled\": true, \"connect_timeout\": 20}\n}\n";
    let value = json!({"transport": "sse", "url": "https://x.example.com/sse"});
    let after = edit(
        "s.json",
        flat,
        &[Edit::Add {
            name: "x".into(),
            value,
        }],
    );
    // The one existing entry only gains the comma before the new one.
    let billing = flat.lines().nth(1).unwrap();
    let (removed, added) = line_diff(flat, &after);
    assert_eq!(removed, [billing], "{after}");
    assert!(added.contains(&format!("{billing},")), "{after}");
    assert!(added.iter().any(|l| l.contains("\"x\"")), "{after}");
    assert!(after.contains("\"billing\": {\"transport\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"b@1.0.0\"], \"enabled\": true, \"connect_timeout\": 20}"));
}
