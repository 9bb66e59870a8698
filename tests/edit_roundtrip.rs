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

/// Removing an entry with a comment above it keeps the entries around it on
/// their own lines, exactly as if neither had been there.
#[test]
fn remove_with_a_comment_keeps_neighbours_on_their_own_lines() {
    let json = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}, // about a\n    // about b\n    /* more about b */\n    \"b\": {\"command\": \"sh\"},\n    \"c\": {\"command\": \"sh\"}\n  }\n}\n";
    let after = edit("mcp.json", json, &[Edit::Remove { name: "b".into() }]);
    assert_eq!(
        after,
        "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}, // about a\n    \"c\": {\"command\": \"sh\"}\n  }\n}\n"
    );
    let first = "{\n  \"mcpServers\": {\n    // about a\n    \"a\": {\"command\": \"sh\"},\n    \"c\": {\"command\": \"sh\"}\n  }\n}\n";
    let after = edit("mcp.json", first, &[Edit::Remove { name: "a".into() }]);
    assert_eq!(
        after,
        "{\n  \"mcpServers\": {\n    \"c\": {\"command\": \"sh\"}\n  }\n}\n"
    );

    let yaml = "mcpServers:\n  a:\n    command: sh   # about a\n  # about b\n  b:\n    command: sh\n  c:\n    command: sh\nother: 1\n";
    let after = edit("c.yaml", yaml, &[Edit::Remove { name: "b".into() }]);
    assert_eq!(
        after,
        "mcpServers:\n  a:\n    command: sh   # about a\n  c:\n    command: sh\nother: 1\n"
    );
}

const CRLF_JSON: &str = "{\r\n  // servers\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"sh\"\r\n    },\r\n    \"b\": {\"command\": \"sh\"}\r\n  }\r\n}\r\n";
const CRLF_YAML: &str = "# servers\r\nmcpServers:\r\n  a:\r\n    command: sh\r\n  # about b\r\n  b:\r\n    command: sh\r\n";

/// Every line of `text` ends with CRLF, and the text ends with one.
#[track_caller]
fn assert_all_crlf(text: &str) {
    assert!(text.ends_with("\r\n"), "{text:?}");
    for (at, _) in text.match_indices('\n') {
        assert_eq!(&text[at - 1..at], "\r", "a bare LF at byte {at}: {text:?}");
    }
}

/// A CRLF file stays CRLF through each kind of edit, in both syntaxes.
#[test]
fn crlf_files_stay_crlf_after_every_edit() {
    let value = json!({"command": "uvx", "args": ["mcp-server-time==2026.10.19"]});
    for (name, text) in [("c.json", CRLF_JSON), ("c.yaml", CRLF_YAML)] {
        let edits = [
            Edit::Add {
                name: "time".into(),
                value: value.clone(),
            },
            Edit::Remove { name: "b".into() },
            Edit::SetEnabled {
                name: "a".into(),
                enabled: false,
            },
            Edit::SetEnabled {
                name: "a".into(),
                enabled: true,
            },
        ];
        let mut current = text.to_string();
        for one in edits {
            current = edit(name, &current, std::slice::from_ref(&one));
            assert_all_crlf(&current);
        }
        let parsed = parse(Path::new(name), &current).unwrap();
        let names: Vec<&str> = parsed.servers.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["a", "time"], "{current}");
        assert!(current.contains("# servers") || current.contains("// servers"));
    }
}

/// A UTF-8 byte-order mark is read past and written back.
#[test]
fn a_bom_is_read_and_kept() {
    for (name, text) in [
        (
            "b.json",
            "\u{feff}{\"mcpServers\": {\"a\": {\"command\": \"sh\"}}}\n",
        ),
        ("b.yaml", "\u{feff}mcpServers:\n  a:\n    command: sh\n"),
    ] {
        let after = edit(
            name,
            text,
            &[Edit::Add {
                name: "b".into(),
                value: json!({"command": "cat"}),
            }],
        );
        assert!(after.starts_with('\u{feff}'), "{after:?}");
        assert_eq!(after.matches('\u{feff}').count(), 1, "{after:?}");
        let after = edit(
            name,
            &after,
            &[Edit::SetEnabled {
                name: "a".into(),
                enabled: false,
            }],
        );
        assert!(after.starts_with('\u{feff}'), "{after:?}");
        let parsed = parse(Path::new(name), &after).unwrap();
        assert_eq!(parsed.servers.len(), 2);
        assert!(!parsed.servers[0].enabled);
    }
}

/// Every edit leaves a file that ends with a newline, even when the file it
/// started from did not.
#[test]
fn edited_files_end_with_a_newline() {
    let value = json!({"command": "sh"});
    for (name, text) in [
        ("n.json", "{\"mcpServers\": {}}"),
        ("n.json", "{\"mcpServers\": {\"a\": {\"command\": \"sh\"}}}"),
        ("n.json", "{\n  \"a\": {\"command\": \"sh\"}\n}"),
        ("n.yaml", "mcpServers:\n  a:\n    command: sh"),
    ] {
        for one in [
            Edit::Add {
                name: "z".into(),
                value: value.clone(),
            },
            Edit::SetEnabled {
                name: "a".into(),
                enabled: false,
            },
        ] {
            if matches!(one, Edit::SetEnabled { .. })
                && !text.contains("\"a\"")
                && !text.contains("a:")
            {
                continue;
            }
            let after = edit(name, text, std::slice::from_ref(&one));
            assert!(after.ends_with('\n'), "{one:?} on {text:?} gave {after:?}");
            assert!(!after.ends_with("\n\n"), "{after:?}");
        }
    }
}

/// `mcpServers` with a null value (nothing after the colon, `~`, `null`)
/// reads as no servers, and an entry can be added into it.
#[test]
fn a_null_mcp_servers_reads_as_empty_and_takes_an_add() {
    let value = json!({"command": "sh"});
    for (name, text) in [
        ("n.yaml", "# mine\nmcpServers:\nother: 1\n"),
        ("n.yaml", "mcpServers: ~\n"),
        ("n.yaml", "mcpServers: null\n"),
        ("n.json", "{\"mcpServers\": null, \"other\": 1}\n"),
    ] {
        let before = parse(Path::new(name), text).expect("a null mcpServers is read");
        assert!(before.servers.is_empty(), "{text}");
        let after = edit(
            name,
            text,
            &[Edit::Add {
                name: "a".into(),
                value: value.clone(),
            }],
        );
        let parsed = parse(Path::new(name), &after).unwrap();
        assert_eq!(parsed.servers.len(), 1, "{after}");
        assert_eq!(parsed.servers[0].name, "a");
        if text.contains("other") {
            assert!(after.contains("other"), "{after}");
        }
        if text.contains("# mine") {
            assert!(after.starts_with("# mine\nmcpServers:\n  a:\n"), "{after}");
        }
    }
}

/// An entry added to an object written on one line goes on that line, in
/// its spacing; on a 5 MB minified file this takes a moment, not the
/// minutes that laying 30,000 entries out on many lines took.
#[test]
fn add_to_a_one_line_object_stays_on_its_line() {
    let spaced = "{\"mcpServers\": {\"a\": {\"command\": \"sh\"}}, \"x\": 1}\n";
    let after = edit(
        "s.json",
        spaced,
        &[Edit::Add {
            name: "b".into(),
            value: json!({"command": "cat", "args": ["-u"]}),
        }],
    );
    assert_eq!(
        after,
        "{\"mcpServers\": {\"a\": {\"command\": \"sh\"}, \"b\": {\"command\": \"cat\", \"args\": [\"-u\"]}}, \"x\": 1}\n"
    );

    let servers: serde_json::Map<String, serde_json::Value> = (0..30_000)
        .map(|i| {
            (
                format!("s{i}"),
                json!({"command": "npx", "args": ["-y", format!("pkg-{i}@1.0.0"), "x".repeat(100)]}),
            )
        })
        .collect();
    let minified = serde_json::to_string(&json!({ "mcpServers": servers })).unwrap();
    assert!(minified.len() > 4_000_000, "{}", minified.len());
    let started = std::time::Instant::now();
    let after = edit(
        "big.json",
        &minified,
        &[Edit::Add {
            name: "new".into(),
            value: json!({"command": "sh"}),
        }],
    );
    let took = started.elapsed();
    assert_eq!(
        after,
        format!(
            "{},\"new\":{{\"command\":\"sh\"}}}}}}\n",
            &minified[..minified.len() - 2]
        )
    );
    assert!(took < std::time::Duration::from_secs(15), "took {took:?}");
}
