//! Claude Code's `claude mcp add` habits, typed at mcpctl (issue 9, item 3):
//! `add NAME -- CMD ARGS…`, `-e`, `-H`, `-t`, `-s user|project|local`,
//! `add-json NAME JSON`, and `status A B` / `status --all` as systemctl
//! takes them. The real binary, the fixture server, loopback only.

mod support;

use serde_json::{Value, json};
use support::Sandbox;

fn read_json(path: &std::path::Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn fixture() -> String {
    support::fixture().to_string_lossy().into_owned()
}

/// `mcpctl add NAME -- CMD ARGS…` with `-e` (repeated) and `-s project`:
/// the name is the server's, not a registry lookup; the server is checked
/// (it is real) and saved in `.mcp.json` here, in the `mcpServers` shape.
#[test]
fn a_name_then_a_command_after_dashes_adds_a_stdio_server_to_the_project() {
    let sb = Sandbox::new();
    let fx = fixture();
    let run = sb.run_with(
        &[
            "add",
            "-s",
            "project",
            "-e",
            "API_KEY=${API_KEY}",
            "-e",
            "MODE=fast",
            "myserver",
            "--",
            &fx,
            "--tools",
            "3",
        ],
        |cmd| {
            cmd.env("API_KEY", "k3y-value");
        },
    );
    run.expect_code(0)
        .stdout_has("added `myserver` to")
        .stdout_has(".mcp.json")
        .stderr_has("myserver: ok, 3 tools")
        // .mcp.json is not a definition file by default: say how to read it.
        .stderr_has("mcpctl --file");
    let written = read_json(&sb.path(".mcp.json"));
    assert_eq!(
        written,
        json!({"mcpServers": {"myserver": {
            "command": fx, "args": ["--tools", "3"],
            "env": {"API_KEY": "${API_KEY}", "MODE": "fast"},
            "sandbox": "network"
        }}}),
    );
    let list = sb.run(&["--file", ".mcp.json", "list", "--json"]);
    list.expect_code(0);
    assert_eq!(list.json()["servers"][0]["name"], "myserver");
    // The default file was not touched.
    assert!(!sb.path("config/mcpctl/servers.json").exists());
}

/// `add NAME CMD ARGS` without `--` works too, and so does NAME before
/// mcpctl's own `--command` (the name given once).
#[test]
fn a_name_then_a_command_without_dashes_and_with_command() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    sb.run(&["--file", f, "add", "--no-check", "plain", "sh", "server.sh"])
        .expect_code(0)
        .stdout_has("added `plain`");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "flagged",
        "--command",
        "sh",
        "--",
        "-c",
        "exec cat",
    ])
    .expect_code(0)
    .stdout_has("added `flagged`");
    let servers = &read_json(&file)["mcpServers"];
    assert_eq!(
        servers["plain"],
        json!({"command": "sh", "args": ["server.sh"], "sandbox": "network"})
    );
    assert_eq!(
        servers["flagged"],
        json!({"command": "sh", "args": ["-c", "exec cat"], "sandbox": "network"})
    );
}

/// `-t http NAME URL` with `-H` repeated, checked against a real server on
/// loopback; `-t sse` is saved as sse; a URL needs no `-t`.
#[test]
fn transport_flag_name_and_url_add_a_remote_server() {
    let (_srv, base) = support::http_fixture(&["--tools", "2"]);
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    let url = format!("{base}/mcp");
    sb.run_with(
        &[
            "--file",
            f,
            "add",
            "-t",
            "http",
            "-H",
            "X-Team: blue",
            "-H",
            "Authorization: Bearer ${TOKEN}",
            "remote",
            &url,
        ],
        |cmd| {
            cmd.env("TOKEN", "t0ken-value");
        },
    )
    .expect_code(0)
    .stderr_has("remote: ok, 2 tools");
    sb.run(&["--file", f, "add", "--no-check", "bare-url", &url])
        .expect_code(0);
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--transport",
        "sse",
        "legacy",
        "http://127.0.0.1:9/sse",
    ])
    .expect_code(0);
    let servers = &read_json(&file)["mcpServers"];
    assert_eq!(
        servers["remote"],
        json!({"type": "http", "url": url,
               "headers": {"X-Team": "blue", "Authorization": "Bearer ${TOKEN}"}})
    );
    assert_eq!(servers["bare-url"], json!({"type": "http", "url": url}));
    assert_eq!(
        servers["legacy"],
        json!({"type": "sse", "url": "http://127.0.0.1:9/sse"})
    );
}

/// `-s user` writes the per-user file whatever `--file` says; `-s local`
/// (the default) writes the first definition file; `-s` and `--to` clash.
#[test]
fn scopes_map_onto_files() {
    let sb = Sandbox::new();
    let file = sb.path("team.json");
    let f = file.to_str().unwrap();
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "-s",
        "user",
        "mine",
        "--",
        "sh",
    ])
    .expect_code(0)
    .stderr_has("is not one of the definition files");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "-s",
        "local",
        "ours",
        "--",
        "sh",
    ])
    .expect_code(0);
    let user = read_json(&sb.path("config/mcpctl/servers.json"));
    assert_eq!(
        user["mcpServers"]["mine"],
        json!({"command": "sh", "args": [], "sandbox": "network"})
    );
    assert!(user["mcpServers"].get("ours").is_none(), "{user}");
    let team = read_json(&file);
    assert_eq!(
        team["mcpServers"]["ours"],
        json!({"command": "sh", "args": [], "sandbox": "network"})
    );
    sb.run(&[
        "add",
        "--no-check",
        "-s",
        "user",
        "--to",
        f,
        "x",
        "--",
        "sh",
    ])
    .expect_code(2)
    .stderr_has("cannot be used with");
}

/// Contradictions are refused with what to type instead, and nothing is written.
#[test]
fn mixed_forms_are_refused_clearly() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["add", "--name", "a", "b", "--", "sh"],
            "the name is given twice",
        ),
        (
            &["add", "-t", "http", "srv", "--", "sh"],
            "--transport http needs a URL",
        ),
        (
            &["add", "-t", "stdio", "srv", "http://127.0.0.1:9/mcp"],
            "--transport stdio launches a command",
        ),
        (
            &["add", "--package", "npm", "srv", "--", "sh"],
            "--package applies to a registry entry",
        ),
        (
            &["add", "srv", "http://127.0.0.1:9/mcp", "extra"],
            "a URL takes no arguments",
        ),
        (
            &["add", "--url", "http://127.0.0.1:9/mcp", "--", "x"],
            "has no command to go to",
        ),
    ];
    for (args, message) in cases {
        let mut full = vec!["--file", f];
        full.extend_from_slice(args);
        full.push("--no-check");
        sb.run(&full).expect_code(2).stderr_has(message);
    }
    assert!(!file.exists(), "a refused add wrote the file");
}

/// `add-json NAME JSON` (Claude Code's `mcp add-json`): the entry is
/// checked and written as given into `.mcp.json`, unknown fields included.
#[test]
fn add_json_writes_the_entry_as_given() {
    let sb = Sandbox::new();
    let fx = fixture();
    let entry = json!({"type": "stdio", "command": fx, "args": ["--tools", "2"],
                       "env": {"TOKEN": "${TOKEN}"}, "alwaysAllow": ["tool_0"]});
    sb.run_with(
        &["add-json", "-s", "project", "fx", &entry.to_string()],
        |cmd| {
            cmd.env("TOKEN", "t0ken-value");
        },
    )
    .expect_code(0)
    .stdout_has("added `fx` to")
    .stderr_has("fx: ok, 2 tools");
    // As given, plus the sandbox `add` gives a local server.
    let mut saved = entry.clone();
    saved["sandbox"] = json!("network");
    assert_eq!(
        read_json(&sb.path(".mcp.json")),
        json!({"mcpServers": {"fx": saved}})
    );
    // A flat file gets mcpctl's vocabulary, the unknown field kept.
    let flat = sb.path("flat.json");
    std::fs::write(
        &flat,
        r#"{"other": {"transport": "stdio", "command": "sh"}}"#,
    )
    .unwrap();
    let run = sb.run(&[
        "--file",
        flat.to_str().unwrap(),
        "add-json",
        "--no-check",
        "--json",
        "gw",
        r#"{"type":"http","url":"http://127.0.0.1:9/mcp","headers":{"A":"b"},"timeout":5}"#,
    ]);
    run.expect_code(0);
    assert_eq!(run.json()["server"]["name"], "gw");
    assert_eq!(
        read_json(&flat)["gw"],
        json!({"transport": "streamable-http", "url": "http://127.0.0.1:9/mcp",
               "headers": {"A": "b"}, "timeout": 5})
    );
}

/// Bad JSON says where; a bad field says which; nothing is written.
#[test]
fn add_json_refuses_bad_input_with_its_position() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    sb.run(&["--file", f, "add-json", "x", r#"{"command": "sh",}"#])
        .expect_code(2)
        .stderr_has("the JSON is not valid at line 1, column 18");
    sb.run(&["--file", f, "add-json", "x", r#"["sh"]"#])
        .expect_code(2)
        .stderr_has("must be an object");
    sb.run(&[
        "--file",
        f,
        "add-json",
        "x",
        r#"{"type": "carrier-pigeon", "command": "sh"}"#,
    ])
    .expect_code(2)
    .stderr_has("the JSON for `x`");
    sb.run(&["--file", f, "add-json", "Bad/Name", r#"{"command": "sh"}"#])
        .expect_code(2)
        .stderr_has("server name `Bad/Name`");
    assert!(!file.exists());
}

/// `status A B` shows each named server in detail, in that order;
/// `status --all` is the table of every server; an unknown name exits 3.
#[test]
fn status_takes_several_names_and_all() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    for name in ["alpha", "beta", "gamma"] {
        sb.add_sh(f, name);
    }
    let two = sb.run(&["--file", f, "status", "gamma", "alpha"]);
    two.expect_code(0)
        .stdout_has("name:       gamma")
        .stdout_has("name:       alpha");
    assert!(!two.stdout.contains("beta"), "{two}");
    assert!(
        two.stdout.find("gamma").unwrap() < two.stdout.find("alpha").unwrap(),
        "{two}"
    );
    let json = sb
        .run(&["--file", f, "--json", "status", "beta", "gamma"])
        .json();
    let names: Vec<&str> = json["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["beta", "gamma"]);
    let all = sb.run(&["--file", f, "status", "--all"]);
    all.expect_code(0).stdout_has("NAME");
    for name in ["alpha", "beta", "gamma"] {
        assert!(all.stdout.contains(name), "{all}");
    }
    sb.run(&["--file", f, "status", "alpha", "nosuch"])
        .expect_code(3);
    sb.run(&["--file", f, "status", "--all", "alpha"])
        .expect_code(2);
}

/// The same through a running supervisor: `status A B` asks for both.
#[test]
fn status_of_two_servers_from_the_supervisor() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    let fx = fixture();
    std::fs::write(
        &file,
        json!({"mcpServers": {
            "one": {"command": fx, "args": ["--tools", "1"]},
            "two": {"command": fx, "args": ["--tools", "2"]},
            "three": {"command": "sh"},
        }})
        .to_string(),
    )
    .unwrap();
    sb.run(&["--file", f, "start", "one", "two"]).expect_code(0);
    let json = sb.run(&["--file", f, "--json", "status", "two", "one"]);
    let stop = sb.run(&["--file", f, "supervisor", "stop"]);
    let doc = json.json();
    assert_eq!(doc["supervisor_running"], true, "{json}");
    let got: Vec<(&str, &str)> = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["state"].as_str().unwrap()))
        .collect();
    assert_eq!(got, [("two", "ready"), ("one", "ready")], "{json}");
    stop.expect_code(0);
}
