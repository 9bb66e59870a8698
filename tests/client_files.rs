//! Every client's own MCP configuration file, shaped as that client's
//! documentation writes it, is read and edited in place by the real binary:
//! `list`, `show` and `check` see its servers, an `add` then `remove` gives
//! back the same bytes, comments, `inputs` and foreign settings survive, a
//! new file gets its client's shape, and an unknown shape is refused.

mod support;

use std::path::{Path, PathBuf};

use support::{Sandbox, bytes};

/// A client fixture: its file in tests/fixtures/clients, where the client
/// keeps it (relative to a home or project directory), and its servers.
struct Client {
    fixture: &'static str,
    at: &'static str,
    servers: &'static [&'static str],
}

const CLIENTS: &[Client] = &[
    Client {
        fixture: "vscode-mcp.json",
        at: "project/.vscode/mcp.json",
        servers: &["perplexity", "fetch", "github", "memory", "legacy"],
    },
    Client {
        fixture: "cursor-mcp.json",
        at: "project/.cursor/mcp.json",
        servers: &["server-name", "local-script", "remote"],
    },
    Client {
        fixture: "claude-code-mcp.json",
        at: "project/.mcp.json",
        servers: &["shared-server", "api-server"],
    },
    Client {
        fixture: "claude.json",
        at: ".claude.json",
        servers: &["airtable"],
    },
    Client {
        fixture: "claude_desktop_config.json",
        at: ".config/Claude/claude_desktop_config.json",
        servers: &["filesystem"],
    },
    Client {
        fixture: "windsurf-mcp_config.json",
        at: ".codeium/windsurf/mcp_config.json",
        servers: &["github", "figma"],
    },
    Client {
        fixture: "codex-config.toml",
        at: ".codex/config.toml",
        servers: &["context7", "docs", "figma", "chrome_devtools"],
    },
];

fn fixture_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/clients")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Copy a client's fixture to where that client keeps it in the sandbox.
fn install(sb: &Sandbox, client: &Client) -> PathBuf {
    let path = sb.path(client.at);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, fixture_text(client.fixture)).unwrap();
    path
}

#[test]
fn list_show_and_check_read_every_clients_file() {
    let sb = Sandbox::new();
    for client in CLIENTS {
        let path = install(&sb, client);
        let file = path.to_str().unwrap();
        let listed = sb.run(&["--file", file, "list", "--json"]);
        listed.expect_code(0);
        let doc = listed.json();
        let entries = doc
            .as_array()
            .or_else(|| doc["servers"].as_array())
            .unwrap_or_else(|| panic!("{}: list --json: {doc}", client.fixture));
        let names: Vec<&str> = entries
            .iter()
            .map(|entry| entry["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, client.servers, "{}", client.fixture);
        for name in client.servers {
            sb.run(&["--file", file, "show", name])
                .expect_code(0)
                .stdout_has(name);
        }
        // `check` reaches nothing here (no such packages, no network), but it
        // reads the file and reports on every server, never a parse error.
        let checked = sb.run_with(&["--file", file, "check", "--json"], |cmd| {
            cmd.env("PATH", "/nonexistent");
        });
        assert!(
            checked.code == 0 || checked.code == 1,
            "{}: check exited {}: {}",
            client.fixture,
            checked.code,
            checked.stderr
        );
        let text = checked.stdout.clone();
        for name in client.servers {
            assert!(text.contains(name), "{}: check: {text}", client.fixture);
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            fixture_text(client.fixture),
            "{}: reading changed the file",
            client.fixture
        );
    }
}

#[test]
fn add_then_remove_is_byte_identical_in_every_clients_file() {
    let sb = Sandbox::new();
    for client in CLIENTS {
        let path = install(&sb, client);
        let file = path.to_str().unwrap();
        let before = bytes(&path);
        sb.add_sh(file, "added");
        let added = std::fs::read_to_string(&path).unwrap();
        assert!(added.contains("added"), "{}: {added}", client.fixture);
        for comment in fixture_text(client.fixture)
            .lines()
            .filter(|l| l.trim_start().starts_with("//") || l.trim_start().starts_with('#'))
        {
            assert!(
                added.contains(comment),
                "{}: lost {comment}",
                client.fixture
            );
        }
        sb.run(&["--file", file, "remove", "added", "--yes"])
            .expect_code(0);
        assert_eq!(
            String::from_utf8(bytes(&path)).unwrap(),
            String::from_utf8(before).unwrap(),
            "{}: add then remove changed the file",
            client.fixture
        );
    }
}

#[test]
fn disable_and_enable_keep_inputs_comments_and_foreign_settings() {
    let sb = Sandbox::new();
    for client in CLIENTS {
        let path = install(&sb, client);
        let file = path.to_str().unwrap();
        let name = client.servers[0];
        sb.run(&["--file", file, "disable", name]).expect_code(0);
        let disabled = std::fs::read_to_string(&path).unwrap();
        let original = fixture_text(client.fixture);
        for line in original.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                disabled.contains(line.trim_end()),
                "{}: lost `{line}`:\n{disabled}",
                client.fixture
            );
        }
        let listed = sb.run(&["--file", file, "list", "--json"]).json();
        let text = listed.to_string();
        assert!(text.contains("false"), "{}: {text}", client.fixture);
    }
}

#[test]
fn a_new_file_gets_its_clients_shape() {
    let sb = Sandbox::new();
    let vscode = sb.path("p/.vscode/mcp.json");
    sb.add_sh(vscode.to_str().unwrap(), "local");
    let text = std::fs::read_to_string(&vscode).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["servers"]["local"]["type"], "stdio", "{text}");
    assert!(doc.get("mcpServers").is_none(), "{text}");

    let claude = sb.path("p/.mcp.json");
    sb.add_sh(claude.to_str().unwrap(), "local");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
    assert_eq!(doc["mcpServers"]["local"]["command"], "sh");

    let codex = sb.path("p/.codex/config.toml");
    sb.add_sh(codex.to_str().unwrap(), "local");
    let text = std::fs::read_to_string(&codex).unwrap();
    assert!(
        text.contains("[mcp_servers.local]\ncommand = \"sh\""),
        "{text}"
    );

    // An empty object in VS Code's place is VS Code's too.
    let empty = sb.path("q/.vscode/mcp.json");
    std::fs::create_dir_all(empty.parent().unwrap()).unwrap();
    std::fs::write(&empty, "{}\n").unwrap();
    sb.add_sh(empty.to_str().unwrap(), "local");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&empty).unwrap()).unwrap();
    assert_eq!(doc["servers"]["local"]["type"], "stdio");
}

#[test]
fn an_unknown_shape_is_refused_with_the_supported_ones() {
    let sb = Sandbox::new();
    let cases = [
        (
            "settings.json",
            r#"{"mcp": {"servers": {"a": {"command": "sh"}}}}"#,
        ),
        (
            "zed.json",
            r#"{"context_servers": {"a": {"command": {"path": "sh"}}}}"#,
        ),
        (
            "both.json",
            r#"{"servers": {"a": {"command": "sh"}}, "mcpServers": {}}"#,
        ),
    ];
    for (name, text) in cases {
        let path = sb.path(name);
        std::fs::write(&path, text).unwrap();
        let run = sb.run(&["--file", path.to_str().unwrap(), "list"]);
        run.expect_code(2)
            .stderr_has("not a definition file shape mcpctl reads")
            .stderr_has("`{\"servers\": {…}}` JSON (VS Code)")
            .stderr_has("[mcp_servers.NAME]");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn client_variables_expand_at_launch_and_never_reach_output() {
    let sb = Sandbox::new();
    let dir = sb.path("ws/.vscode");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    let secret = "sk-input-secret-123456";
    let env_secret = "env-secret-abcdef";
    // The server echoes what it got on stderr and exits: `check` prints the
    // tail of its stderr, which must show the references, not the values.
    std::fs::write(
        &path,
        r#"{
  "inputs": [{"type": "promptString", "id": "api-key", "description": "API key", "password": true}],
  "servers": {
    "echo": {
      "type": "stdio",
      "command": "sh",
      "args": ["-c", "echo \"key=$KEY tok=$TOK dir=$1\" >&2; exit 3", "sh", "${workspaceFolder}"],
      "env": {"KEY": "${input:api-key}", "TOK": "${env:MY_TOKEN}"}
    }
  }
}
"#,
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let run = sb.run_with(&["--file", file, "check", "echo"], |cmd| {
        cmd.env("MCPCTL_INPUT_API_KEY", secret)
            .env("MY_TOKEN", env_secret);
    });
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(!all.contains(secret), "{all}");
    assert!(!all.contains(env_secret), "{all}");
    assert!(all.contains("key=${input:api-key}"), "{all}");
    assert!(all.contains("tok=${env:MY_TOKEN}"), "{all}");
    let workspace = std::fs::canonicalize(sb.path("ws")).unwrap();
    assert!(
        all.contains(&format!("dir={}", workspace.display())),
        "{all}"
    );
    // Without the input and with no terminal, the launch says what to set.
    let run = sb.run_with(&["--file", file, "check", "echo"], |cmd| {
        cmd.env("MY_TOKEN", env_secret);
    });
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("MCPCTL_INPUT_API_KEY"), "{all}");
    // The input's value is never written back.
    assert!(!std::fs::read_to_string(&path).unwrap().contains(secret));
}

#[test]
fn claude_code_user_file_gives_a_projects_servers_with_project() {
    let sb = Sandbox::new();
    let client = CLIENTS.iter().find(|c| c.fixture == "claude.json").unwrap();
    let path = install(&sb, client);
    let file = path.to_str().unwrap();
    let names = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--file", file];
        all.extend_from_slice(args);
        all.extend_from_slice(&["list", "--json"]);
        sb.run(&all).expect_code(0).json()["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&[]), ["airtable"]);
    assert_eq!(names(&["--project", "/home/user/app"]), ["sentry"]);
    let before = bytes(&path);
    sb.run(&[
        "--file",
        file,
        "--project",
        "/home/user/app",
        "add",
        "--no-check",
        "--name",
        "local",
        "--command",
        "sh",
    ])
    .expect_code(0);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        doc["projects"]["/home/user/app"]["mcpServers"]["local"]["command"],
        "sh"
    );
    assert!(doc["mcpServers"].get("local").is_none());
    assert_eq!(doc["numStartups"], 42);
    sb.run(&[
        "--file",
        file,
        "--project",
        "/home/user/app",
        "remove",
        "local",
        "--yes",
    ])
    .expect_code(0);
    assert_eq!(bytes(&path), before);
    // The current directory selects its project when the file has one.
    let project = sb.path("app");
    std::fs::create_dir_all(&project).unwrap();
    let key = std::fs::canonicalize(&project).unwrap();
    let text = fixture_text("claude.json").replace("/home/user/app", key.to_str().unwrap());
    std::fs::write(&path, text).unwrap();
    let run = sb.run_with(&["--file", file, "list", "--json"], |cmd| {
        cmd.current_dir(&project);
    });
    assert!(
        run.expect_code(0).stdout.contains("sentry"),
        "{}",
        run.stdout
    );
}

/// Removing the last server leaves a valid file of the same shape, every
/// other byte as it was, that takes an `add` again; a Codex `config.toml`
/// of servers only was refused as "empty" after its last one went. An
/// implicit `[mcp_servers]` goes with its last table; one the operator
/// wrote as a header stays.
#[test]
fn removing_the_last_server_leaves_a_valid_file_in_every_shape() {
    let sb = Sandbox::new();
    for (at, text, name, left) in [
        (
            ".codex/config.toml",
            "[mcp_servers.time]\ncommand = \"uvx\"\nargs = [\"mcp-server-time\"]\n",
            "time",
            "\n",
        ),
        (
            ".codex/config.toml",
            "# the clock\n[mcp_servers.time]\ncommand = \"uvx\"\n",
            "time",
            "\n",
        ),
        (
            ".codex/config.toml",
            "# mine\nmodel = \"o3\"\n\n# the clock\n[mcp_servers.time]\ncommand = \"uvx\"\n\n[profiles.fast]\nmodel = \"o4-mini\"\n",
            "time",
            "# mine\nmodel = \"o3\"\n\n[profiles.fast]\nmodel = \"o4-mini\"\n",
        ),
        (
            ".codex/config.toml",
            "model = \"o3\"\n\n[mcp_servers]\n\n[mcp_servers.time]\ncommand = \"uvx\"\n",
            "time",
            "model = \"o3\"\n\n[mcp_servers]\n",
        ),
        (
            "servers.json",
            "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  },\n  \"other\": 1\n}\n",
            "a",
            "{\n  \"mcpServers\": {},\n  \"other\": 1\n}\n",
        ),
        (
            "flat.json",
            "{\n  \"a\": {\"command\": \"sh\"}\n}\n",
            "a",
            "{}\n",
        ),
        (
            "project/.vscode/mcp.json",
            "{\n  \"inputs\": [],\n  \"servers\": {\n    // mine\n    \"a\": {\"type\": \"stdio\", \"command\": \"sh\"}\n  }\n}\n",
            "a",
            "{\n  \"inputs\": [],\n  \"servers\": {}\n}\n",
        ),
        (
            "servers.yaml",
            "# top\nmcpServers:\n  a:\n    command: sh\nother: 1\n",
            "a",
            "# top\nmcpServers: {}\nother: 1\n",
        ),
        (
            "only.yaml",
            "mcpServers:\n  a:\n    command: sh\n",
            "a",
            "mcpServers: {}\n",
        ),
    ] {
        let path = sb.path(at);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        sb.run(&["--file", file, "remove", name, "--yes"])
            .expect_code(0);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            left,
            "{at}: {text}"
        );
        if at == "flat.json" {
            // `{}` no longer says which shape it had: an add writes the
            // shape most clients read, `mcpServers`.
            let listed = sb.run(&["--file", file, "list", "--json"]);
            assert_eq!(
                listed.expect_code(0).json()["servers"],
                serde_json::json!([])
            );
            continue;
        }
        assert_last_one_gone(&sb, file, at);
    }
}

/// `file` reads as no servers, and an `add` then `remove` gives it back.
#[track_caller]
fn assert_last_one_gone(sb: &Sandbox, file: &str, what: &str) {
    let listed = sb.run(&["--file", file, "list", "--json"]);
    assert_eq!(
        listed.expect_code(0).json()["servers"],
        serde_json::json!([]),
        "{what}"
    );
    let before = bytes(Path::new(file));
    sb.add_sh(file, "again");
    sb.run(&["--file", file, "remove", "again", "--yes"])
        .expect_code(0);
    assert_eq!(bytes(Path::new(file)), before, "{what}: add then remove");
}

/// Claude Code's `~/.claude.json`: a project's last server and the user's
/// last server each leave an empty `mcpServers`, the rest as it was.
#[test]
fn removing_the_last_server_of_a_claude_project_keeps_the_rest() {
    let sb = Sandbox::new();
    let client = CLIENTS.iter().find(|c| c.fixture == "claude.json").unwrap();
    let path = install(&sb, client);
    let file = path.to_str().unwrap();
    let project = ["--file", file, "--project", "/home/user/app"];
    sb.run(&[&project[..], &["remove", "sentry", "--yes"]].concat())
        .expect_code(0);
    sb.run(&["--file", file, "remove", "airtable", "--yes"])
        .expect_code(0);
    let expected = "{\n  \"numStartups\": 42,\n  \"installMethod\": \"npm\",\n  \"autoUpdates\": true,\n  \"mcpServers\": {},\n  \"projects\": {\n    \"/home/user/app\": {\n      \"allowedTools\": [],\n      \"mcpServers\": {},\n      \"hasTrustDialogAccepted\": true\n    }\n  }\n}\n";
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
    let listed = sb.run(&[&project[..], &["list", "--json"]].concat());
    assert_eq!(
        listed.expect_code(0).json()["servers"],
        serde_json::json!([])
    );
    assert_last_one_gone(&sb, file, "~/.claude.json");
}
