//! `mcpctl import --from CLIENT|PATH`: a client's servers copied into
//! mcpctl's file, renamed when their names are not valid, references kept,
//! conflicts refused unless `--replace`, each shown as a command first.

mod support;

use support::Sandbox;

fn vscode_file(sb: &Sandbox, tools: u32) {
    let fx = support::fixture().to_str().unwrap().to_string();
    let dir = sb.path(".vscode");
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        r#"{{
  // the team's servers
  "servers": {{
    "Perplexity": {{"type": "stdio", "command": "{fx}", "env": {{"KEY": "${{input:pkey}}"}}}},
    "fx": {{"type": "stdio", "command": "{fx}", "args": ["--tools", "{tools}"]}},
    "remote": {{"type": "http", "url": "https://mcp.example.com/mcp", "headers": {{"Authorization": "Bearer ${{env:TOKEN}}"}}}}
  }},
  "inputs": [{{"id": "pkey", "type": "promptString", "password": true}}]
}}
"#
    );
    std::fs::write(dir.join("mcp.json"), text).unwrap();
}

/// mcpctl's own file in the sandbox (the default: `$XDG_CONFIG_HOME/mcpctl`).
fn own_file(sb: &Sandbox) -> serde_json::Value {
    let text = std::fs::read_to_string(sb.path("config/mcpctl/servers.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_clients_servers_are_imported_under_their_own_names_and_checked() {
    let sb = Sandbox::new();
    vscode_file(&sb, 2);
    // Checked before saving, as `add` does: the fixture answers.
    let run = sb.run(&["import", "--from", "vscode", "fx"]);
    run.expect_code(0)
        .stderr_has("mcpctl add-json --to ")
        .stderr_has("fx: ok, 2 tools");
    let run = sb.run(&["import", "--from", "vscode", "--no-check"]);
    run.expect_code(0)
        .stderr_has("`fx` is already defined the same way")
        .stderr_has(r#"Perplexity '{"command":"#);
    let own = own_file(&sb);
    let servers = &own["mcpServers"];
    // Clients name servers `Perplexity`; the name is kept as it was.
    assert_eq!(servers["Perplexity"]["env"]["KEY"], "${input:pkey}");
    assert_eq!(
        servers["remote"]["headers"]["Authorization"],
        "Bearer ${env:TOKEN}"
    );
    // The source is left as it was.
    assert!(
        std::fs::read_to_string(sb.path(".vscode/mcp.json"))
            .unwrap()
            .contains("\"Perplexity\"")
    );
}

#[test]
fn a_changed_entry_is_a_conflict_until_replace() {
    let sb = Sandbox::new();
    vscode_file(&sb, 2);
    sb.run(&["import", "--from", "vscode", "--no-check"])
        .expect_code(0);
    vscode_file(&sb, 3);
    let before = own_file(&sb);
    sb.run(&["import", "--from", "vscode", "--no-check"])
        .expect_code(4)
        .stderr_has("not copied: `fx` differs from the one in ")
        .stderr_has("hint: pass --replace");
    assert_eq!(own_file(&sb), before, "a refused import wrote");
    sb.run(&[
        "import",
        "--from",
        "vscode",
        "--no-check",
        "--replace",
        "fx",
    ])
    .expect_code(0);
    assert_eq!(own_file(&sb)["mcpServers"]["fx"]["args"][1], "3");
    let path = sb.path(".vscode/mcp.json");
    sb.run(&["import", "--from", path.to_str().unwrap(), "nosuch"])
        .expect_code(3)
        .stderr_has("no server named `nosuch` in ");
    sb.run(&["import", "--from", "cursor"])
        .expect_code(2)
        .stderr_has("no cursor configuration file here");
}

#[test]
fn two_names_that_suggest_the_same_one_both_fit_the_name_rule() {
    let sb = Sandbox::new();
    let long = "a".repeat(64);
    let path = sb.path("other.json");
    let defs = serde_json::json!({"mcpServers": {
        long.to_uppercase(): {"command": "sh"},
        long.clone(): {"command": "sh", "args": ["-c", "true"]},
    }});
    std::fs::write(&path, defs.to_string()).unwrap();
    sb.run(&["import", "--from", path.to_str().unwrap(), "--no-check"])
        .expect_code(0);
    let own = own_file(&sb);
    let names: Vec<&String> = own["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 2, "{own}");
    assert!(names.iter().all(|n| n.len() <= 64), "{names:?}");
}

#[test]
fn the_command_shown_before_writing_never_prints_a_literal_secret() {
    let sb = Sandbox::new();
    let path = sb.path("other.json");
    let defs = serde_json::json!({"mcpServers": {
        "local": {"command": "sh", "env": {"API_KEY": "sk-live-0123456789abcdef"}},
        "remote": {"url": "https://u:hunter2hunter2@127.0.0.1:9/mcp",
                   "headers": {"X-Api-Key": "literal-key-0123456789"}},
    }});
    std::fs::write(&path, defs.to_string()).unwrap();
    let run = sb.run(&["import", "--from", path.to_str().unwrap(), "--no-check"]);
    for secret in [
        "sk-live-0123456789abcdef",
        "hunter2hunter2",
        "literal-key-0123456789",
    ] {
        assert!(!run.stderr.contains(secret), "{secret} printed:\n{run}");
        assert!(!run.stdout.contains(secret), "{secret} printed:\n{run}");
    }
    run.stderr_has(r#""API_KEY":"<redacted>""#);
}
