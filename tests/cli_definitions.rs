//! The operator workflow end to end through the real binary: add a stdio
//! and an http server, list, show, disable, enable, remove; and every
//! validation rule's error text.

mod support;

use support::{Sandbox, bytes};

const EVERYTHING: &str = "@modelcontextprotocol/server-everything@2026.8.31";

#[test]
fn stdio_and_http_servers_round_trip() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--command",
        "sh",
        "--",
        "-c",
        "exec cat",
    ])
    .expect_code(0)
    .stdout_has("added `sh` to");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--name",
        "remote",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--header",
        "Authorization: Bearer ${REMOTE_TOKEN}",
        "--header",
        "X-Literal: s3cret",
    ])
    .expect_code(0);

    let list = sb.run(&["--file", f, "list"]);
    list.expect_code(0)
        .stdout_has("sh  ")
        .stdout_has("streamable-http");
    let doc = sb.run(&["--file", f, "list", "--json"]).json();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["servers"][0]["name"], "sh");
    assert_eq!(
        doc["servers"][1]["headers"]["Authorization"],
        "Bearer ${REMOTE_TOKEN}"
    );
    assert_eq!(doc["servers"][1]["headers"]["X-Literal"], "<redacted>");
    let shown = sb
        .run(&["--file", f, "show", "remote", "--show-secrets", "--json"])
        .json();
    assert_eq!(shown["headers"]["X-Literal"], "s3cret");
    let raw = String::from_utf8(bytes(&file)).unwrap();
    assert!(
        raw.contains("Bearer ${REMOTE_TOKEN}"),
        "reference kept verbatim:\n{raw}"
    );

    sb.run(&["--file", f, "disable", "remote"])
        .expect_code(0)
        .stdout_has("disabled `remote`");
    assert_eq!(
        sb.run(&["--file", f, "show", "remote", "--json"]).json()["enabled"],
        false
    );
    sb.run(&["--file", f, "disable", "remote"])
        .expect_code(0)
        .stdout_has("already disabled");
    sb.run(&["--file", f, "enable", "remote"]).expect_code(0);
    assert_eq!(
        sb.run(&["--file", f, "show", "remote", "--json"]).json()["enabled"],
        true
    );

    sb.run(&["--file", f, "rm", "remote", "sh"])
        .expect_code(0)
        .stdout_has("removed `remote`")
        .stdout_has("removed `sh`");
    let doc = sb.run(&["--file", f, "list", "--json"]).json();
    assert_eq!(doc["servers"].as_array().unwrap().len(), 0);
}

#[test]
fn yaml_file_keeps_its_vocabulary_and_comments() {
    let sb = Sandbox::new();
    let file = sb.path("ops.yaml");
    std::fs::write(
        &file,
        "# ops servers\nmcpServers:\n  # browser automation\n  browser:\n    transport: stdio\n    command: sh\n    args: [\"-c\", \"cat\"]\n    autostart: false\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    sb.run(&["--file", f, "disable", "browser"]).expect_code(0);
    let text = String::from_utf8(bytes(&file)).unwrap();
    assert!(
        text.contains("# ops servers") && text.contains("# browser automation"),
        "{text}"
    );
    assert!(text.contains("    disabled: true"), "{text}");
    sb.add_sh(f, "time");
    let text = String::from_utf8(bytes(&file)).unwrap();
    assert!(
        text.contains("  time:\n    transport: stdio\n    command: sh"),
        "{text}"
    );
}

#[test]
fn names_are_derived_and_made_unique() {
    let sb = Sandbox::new();
    let f = sb.path("s.json");
    let f = f.to_str().unwrap();
    let path = sb.stub_launchers(&["npx"]);
    for expected in ["everything", "everything-2"] {
        sb.run_with(
            &[
                "--file",
                f,
                "add",
                "--no-check",
                "--command",
                "npx",
                "--args",
                &format!("-y,{EVERYTHING}"),
            ],
            |c| {
                c.env("PATH", &path);
            },
        )
        .expect_code(0)
        .stdout_has(&format!("added `{expected}`"));
    }
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--url",
        "https://127.0.0.1:8443/mcp",
    ])
    .expect_code(0)
    .stdout_has("added `local-8443`");
}

#[test]
fn replacing_needs_force() {
    let sb = Sandbox::new();
    let f = sb.path("s.json");
    let f = f.to_str().unwrap();
    sb.add_sh(f, "a");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--name",
        "a",
        "--command",
        "cat",
    ])
    .expect_code(4)
    .stderr_has("error: server `a` already exists in")
    .stderr_has("hint: choose another --name, or pass --force to replace `a`");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--force",
        "--name",
        "a",
        "--command",
        "cat",
    ])
    .expect_code(0)
    .stdout_has("replaced `a`");
    assert_eq!(
        sb.run(&["--file", f, "show", "a", "--json"]).json()["command"],
        "cat"
    );
}

#[test]
fn name_rule_error_text() {
    let sb = Sandbox::new();
    sb.run(&["add", "--no-check", "--name", "Bad Name", "--command", "sh"])
        .expect_code(2)
        .stderr_has("error: server name `Bad Name` contains ` `; use letters, digits, `_` and `-`")
        .stderr_has("hint: try --name bad-name");
    let long = "x".repeat(65);
    sb.run(&["add", "--no-check", "--name", &long, "--command", "sh"])
        .expect_code(2)
        .stderr_has("characters; the limit is 64");
}

#[test]
fn launcher_rule_error_text() {
    let sb = Sandbox::new();
    let empty = sb.path("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let file = sb.path("s.json");
    let run = sb.run_with(
        &[
            "--file",
            file.to_str().unwrap(),
            "add",
            "--no-check",
            "--command",
            "npx",
            "--args",
            &format!("-y,{EVERYTHING}"),
        ],
        |c| {
            c.env("PATH", &empty);
        },
    );
    run.expect_code(3)
        .stderr_has("error: launcher `npx` is not on PATH")
        .stderr_has("hint: `npx` comes with Node.js");
    assert!(!file.exists(), "nothing written on a validation error");
    sb.run_with(
        &[
            "add",
            "--no-check",
            "--command",
            "uvx",
            "--",
            "mcp-server-time==2026.10.19",
        ],
        |c| {
            c.env("PATH", &empty);
        },
    )
    .expect_code(3)
    .stderr_has("hint: `uvx` comes with uv: install it with `pip install uv`");
    sb.run(&["add", "--no-check", "--command", "/nonexistent/server"])
        .expect_code(3)
        .stderr_has("error: launcher /nonexistent/server does not exist");
    let script = sb.path("server.sh");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    sb.run(&["add", "--no-check", "--command", script.to_str().unwrap()])
        .expect_code(3)
        .stderr_has("is not executable")
        .stderr_has("hint: run `chmod +x");
    sb.run_with(
        &[
            "add",
            "--no-check",
            "--force",
            "--name",
            "later",
            "--command",
            "uvx",
            "--",
            "pkg==1.0",
        ],
        |c| {
            c.env("PATH", &empty);
        },
    )
    .expect_code(0)
    .stderr_has("warning: launcher `uvx` is not on PATH");
}

#[test]
fn pin_rule_error_text() {
    let sb = Sandbox::new();
    let path = sb.stub_launchers(&["npx", "uvx", "docker", "bunx", "pnpm", "pipx"]);
    let add = |args: &[&str]| {
        let mut full = vec!["add", "--no-check", "--dry-run"];
        full.extend_from_slice(args);
        sb.run_with(&full, |c| {
            c.env("PATH", &path);
        })
    };
    add(&["--command", "npx", "--", "-y", "pkg@1.2.3"]).expect_code(0);
    assert!(
        !add(&["--command", "npx", "--", "-y", "pkg@1.2.3"])
            .stderr
            .contains("warning")
    );
    add(&["--command", "npx", "--", "-y", "pkg@latest"])
        .expect_code(0)
        .stderr_has("warning: `pkg@latest` follows `latest`, not an exact version")
        .stderr_has("hint: pin an exact version, e.g. `pkg@1.2.3`");
    add(&["--require-pin", "--command", "npx", "--", "-y", "pkg@^1.2"])
        .expect_code(2)
        .stderr_has("error: `pkg@^1.2` asks for a version range `^1.2`, not an exact version (--require-pin)");
    add(&["--command", "npx", "--", "-y", "pkg@1..2"])
        .expect_code(2)
        .stderr_has("error: `pkg@1..2` has an invalid version");
    add(&["--command", "uvx", "--", "mcp-server-time"])
        .expect_code(0)
        .stderr_has("warning: `mcp-server-time` has no version pin");
    add(&[
        "--require-pin",
        "--command",
        "uvx",
        "--",
        "--from",
        "pkg>=1.0",
        "pkg",
    ])
    .expect_code(2)
    .stderr_has("asks for a version range `>=1.0`");
    add(&["--command", "uvx", "--", "pkg@2.0.1"]).expect_code(0);
    add(&[
        "--command",
        "docker",
        "--",
        "run",
        "-i",
        "--rm",
        "ghcr.io/org/img:latest",
    ])
    .stderr_has("warning: `ghcr.io/org/img:latest` follows `latest`");
    add(&[
        "--require-pin",
        "--command",
        "docker",
        "--",
        "run",
        "-i",
        "img",
    ])
    .expect_code(2)
    .stderr_has("`img` has no version pin (--require-pin)");
    add(&["--command", "bunx", "--", "pkg@next"]).stderr_has("uses the moving tag `next`");
    add(&["--command", "pnpm", "--", "dlx", "pkg@~1.0"])
        .stderr_has("asks for a version range `~1.0`");
    add(&[
        "--command",
        "pipx",
        "--",
        "run",
        "--spec",
        "pkg==1.0",
        "cmd",
    ])
    .expect_code(0);
    // MCPCTL_REQUIRE_PIN: require_pin_variable_takes_yes_and_no_words.
}

/// `MCPCTL_REQUIRE_PIN` takes what operators type (`1`, `yes`, `on`, …),
/// and a word that is neither yes nor no is refused naming the variable.
#[test]
fn require_pin_variable_takes_yes_and_no_words() {
    let sb = Sandbox::new();
    let path = sb.stub_launchers(&["npx"]);
    let add = |value: &str| {
        let args = [
            "add",
            "--no-check",
            "--dry-run",
            "--command",
            "npx",
            "--",
            "-y",
            "pkg",
        ];
        sb.run_with(&args, |c| {
            c.env("PATH", &path).env("MCPCTL_REQUIRE_PIN", value);
        })
    };
    for yes in ["1", "true", "TRUE", "yes", "on"] {
        add(yes)
            .expect_code(2)
            .stderr_has("`pkg` has no version pin (--require-pin)");
    }
    for no in ["0", "false", "no", "off"] {
        add(no).expect_code(0).stderr_has("warning: ");
    }
    add("maybe")
        .expect_code(2)
        .stderr_has("error: invalid value 'maybe' for '--require-pin'")
        .stderr_has("hint: the value comes from MCPCTL_REQUIRE_PIN, which takes 1/0, true/false, yes/no or on/off");
}

#[test]
fn url_rule_error_text() {
    let sb = Sandbox::new();
    sb.run(&["add", "--no-check", "--url", "http://mcp.example.com/mcp"])
        .expect_code(2)
        .stderr_has("error: `http://mcp.example.com/mcp` uses plain http to a public host")
        .stderr_has("hint: use https://, or pass --allow-http");
    sb.run(&[
        "add",
        "--no-check",
        "--url",
        "https://user:pw@127.0.0.1/mcp",
    ])
    .expect_code(2)
    .stderr_has("error: the URL contains credentials (user:password@)")
    .stderr_has("--header 'Authorization: Bearer ${TOKEN}'");
    sb.run(&["add", "--no-check", "--url", "mcp.example.com"])
        .expect_code(2)
        .stderr_has("is not a valid URL");
    sb.run(&[
        "add",
        "--no-check",
        "--header",
        "nocolon",
        "--url",
        "https://127.0.0.1/mcp",
    ])
    .expect_code(2)
    .stderr_has("error: --header `nocolon` has no `:`");
    sb.run(&["add", "--no-check", "--env", "NOEQUALS", "--command", "sh"])
        .expect_code(2)
        .stderr_has("error: --env `NOEQUALS` has no `=`");
}

#[test]
fn unknown_names_suggest_and_change_nothing() {
    let sb = Sandbox::new();
    let file = sb.path("s.json");
    let f = file.to_str().unwrap();
    sb.add_sh(f, "billing");
    let before = bytes(&file);
    sb.run(&["--file", f, "rm", "billing", "biling"])
        .expect_code(3)
        .stderr_has("error: no server named `biling`")
        .stderr_has("hint: did you mean `billing`?");
    assert_eq!(bytes(&file), before);
    sb.run(&["--file", f, "disable", "nope"]).expect_code(3);
}

#[test]
fn same_name_in_two_sources_is_an_error() {
    let sb = Sandbox::new();
    let a = sb.path("a.json");
    let b = sb.path("b.yaml");
    std::fs::write(&a, r#"{"mcpServers": {"dup": {"command": "sh"}}}"#).unwrap();
    std::fs::write(&b, "mcpServers:\n  dup:\n    command: sh\n").unwrap();
    let joined = format!("{}:{}", a.display(), b.display());
    sb.run_with(&["list"], |c| {
        c.env("MCPCTL_FILE", &joined);
    })
    .expect_code(2)
    .stderr_has(&format!(
        "error: server `dup` is defined in both {} and {}",
        a.display(),
        b.display()
    ));
}

#[test]
fn add_to_writes_the_chosen_file_and_list_names_sources() {
    let sb = Sandbox::new();
    let a = sb.path("a.json");
    let b = sb.path("b.yaml");
    let (fa, fb) = (a.to_str().unwrap(), b.to_str().unwrap());
    sb.run(&[
        "--file",
        fa,
        "--file",
        fb,
        "add",
        "--no-check",
        "--name",
        "one",
        "--command",
        "sh",
    ])
    .expect_code(0);
    sb.run(&[
        "--file",
        fa,
        "--file",
        fb,
        "add",
        "--no-check",
        "--to",
        fb,
        "--name",
        "two",
        "--command",
        "sh",
    ])
    .expect_code(0);
    let doc = sb
        .run(&["--file", fa, "--file", fb, "list", "--json"])
        .json();
    assert_eq!(doc["servers"][0]["source"], fa);
    assert_eq!(doc["servers"][1]["source"], fb);
    assert!(
        String::from_utf8(bytes(&b))
            .unwrap()
            .starts_with("mcpServers:")
    );
}

#[test]
fn remove_without_a_tty_does_not_prompt() {
    let sb = Sandbox::new();
    let f = sb.path("s.json");
    let f = f.to_str().unwrap();
    sb.add_sh(f, "a");
    let run = sb.run(&["--file", f, "remove", "a"]);
    run.expect_code(0).stdout_has("removed `a`");
    assert!(!run.stderr.contains('?'), "no prompt expected:\n{run}");
}

#[test]
fn writes_keep_mode_and_symlinks() {
    let sb = Sandbox::new();
    let real = sb.path("real.json");
    let link = sb.path("link.json");
    std::fs::write(&real, "{\"mcpServers\": {}}\n").unwrap();
    std::fs::set_permissions(&real, std::os::unix::fs::PermissionsExt::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    sb.run(&[
        "--file",
        link.to_str().unwrap(),
        "add",
        "--no-check",
        "--name",
        "a",
        "--command",
        "sh",
    ])
    .expect_code(0);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&real).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o640);
    assert!(String::from_utf8(bytes(&real)).unwrap().contains("\"a\""));
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    let sb = Sandbox::new();
    sb.run(&["add"]).expect_code(2);
    sb.run(&["frobnicate"]).expect_code(2);
    for verb in [
        "list",
        "show",
        "add",
        "remove",
        "enable",
        "disable",
        "completions",
    ] {
        sb.run(&[verb, "--help"])
            .expect_code(0)
            .stdout_has("Examples:");
    }
}

#[test]
fn a_local_http_server_is_a_url_plus_a_command() {
    let sb = Sandbox::new();
    let f = sb.path("s.json");
    let f = f.to_str().unwrap();
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--name",
        "local",
        "--url",
        "http://127.0.0.1:3001/mcp",
        "--command",
        "sh",
        "--env",
        "PORT=3001",
        "--",
        "-c",
        "serve",
    ])
    .expect_code(0)
    .stdout_has("(streamable-http: http://127.0.0.1:3001/mcp (launches sh -c serve))");
    let shown = sb
        .run(&["--file", f, "show", "local", "--json", "--show-secrets"])
        .json();
    assert_eq!(shown["url"], "http://127.0.0.1:3001/mcp");
    assert_eq!(shown["command"], "sh");
    assert_eq!(shown["env"]["PORT"], "3001");
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--url",
        "https://127.0.0.1/mcp",
        "--env",
        "A=b",
    ])
    .expect_code(2)
    .stderr_has("error: --env and --cwd need a --command to launch");
}

/// A file saved by a Windows editor (BOM, CRLF) is read, and `add`,
/// `disable`, `enable` and `remove` keep both.
#[test]
fn bom_and_crlf_survive_every_verb() {
    let sb = Sandbox::new();
    for name in ["win.json", "win.yaml"] {
        let file = sb.path(name);
        let f = file.to_str().unwrap();
        let text = if name.ends_with(".json") {
            "\u{feff}{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"sh\"}\r\n  }\r\n}\r\n"
        } else {
            "\u{feff}mcpServers:\r\n  # about a\r\n  a:\r\n    command: sh\r\n"
        };
        std::fs::write(&file, text).unwrap();
        let check = |verb: &str| {
            let text = String::from_utf8(bytes(&file)).unwrap();
            assert!(
                text.starts_with('\u{feff}'),
                "{verb} dropped the BOM: {text:?}"
            );
            assert!(text.ends_with("\r\n"), "{verb}: {text:?}");
            assert_eq!(
                text.matches('\n').count(),
                text.matches("\r\n").count(),
                "{verb} wrote a bare LF: {text:?}"
            );
        };
        sb.run(&["--file", f, "list"])
            .expect_code(0)
            .stdout_has("a ");
        sb.add_sh(f, "b");
        check("add");
        sb.run(&["--file", f, "disable", "a"]).expect_code(0);
        check("disable");
        sb.run(&["--file", f, "enable", "a"]).expect_code(0);
        check("enable");
        sb.run(&["--file", f, "remove", "a"]).expect_code(0);
        check("remove");
        let doc = sb
            .run(&["--file", f, "list", "--json"])
            .expect_code(0)
            .json();
        let servers = doc["servers"].as_array().unwrap();
        assert_eq!(servers.len(), 1, "{doc}");
        assert_eq!(servers[0]["name"], "b");
    }
}

/// `mcpServers:` with nothing after it is an empty list that `add` fills.
#[test]
fn add_into_a_null_mcp_servers_yaml() {
    let sb = Sandbox::new();
    let file = sb.path("s.yaml");
    let f = file.to_str().unwrap();
    std::fs::write(&file, "# mine\nmcpServers:\n").unwrap();
    let doc = sb
        .run(&["--file", f, "list", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(doc["servers"], serde_json::json!([]), "{doc}");
    sb.add_sh(f, "a");
    let text = String::from_utf8(bytes(&file)).unwrap();
    assert_eq!(
        text,
        "# mine\nmcpServers:\n  a:\n    transport: stdio\n    command: sh\n    args: []\n    sandbox: network\n"
    );
}

/// Loading a 5 MB file written on one line (30,000 servers) is linear: each
/// name used to be compared with every earlier one, which took over 6 s in
/// a debug build; the bound leaves room for a loaded machine.
#[test]
fn a_five_megabyte_one_line_file_loads_in_linear_time() {
    let sb = Sandbox::new();
    let servers: serde_json::Map<String, serde_json::Value> = (0..32_000)
        .map(|i| {
            (
                format!("s{i}"),
                serde_json::json!({"command": "npx", "args": ["-y", format!("pkg-{i}@1.0.0"), "x".repeat(80)], "env": {"K": "v"}}),
            )
        })
        .collect();
    let text = serde_json::to_string(&serde_json::json!({ "mcpServers": servers })).unwrap();
    assert!(text.len() > 5_000_000, "{}", text.len());
    let file = sb.path("big.json");
    std::fs::write(&file, text).unwrap();
    let started = std::time::Instant::now();
    sb.run(&["--file", file.to_str().unwrap(), "show", "s31999"])
        .expect_code(0)
        .stdout_has("s31999");
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(4), "took {took:?}");
}

#[test]
fn a_registry_mirror_in_the_environment_does_not_refuse_command_or_url_adds() {
    // MCPCTL_REGISTRY_URL is for adds by registry name; clap counted it as
    // `--registry`, which required a name, so `--command` adds failed with a
    // usage error for everyone behind a mirror.
    let sb = Sandbox::new();
    for args in [
        &["add", "--name", "local", "--no-check", "--command", "sh"][..],
        &[
            "add",
            "--name",
            "web",
            "--no-check",
            "--url",
            "https://127.0.0.1:9/mcp",
        ],
    ] {
        sb.run_with(args, |cmd| {
            cmd.env("MCPCTL_REGISTRY_URL", "http://127.0.0.1:9");
        })
        .expect_code(0);
    }
}

#[test]
fn add_protocol_writes_the_servers_protocol_and_speaks_it() {
    // Issue 14, item 5: the per-server protocol setting could only be set by
    // editing the file.
    let sb = Sandbox::new();
    let fixture = support::fixture().to_str().unwrap().to_string();
    sb.run(&[
        "add",
        "--name",
        "stateless",
        "--protocol",
        "2026-07-28",
        "--command",
        &fixture,
        "--",
        "--stateless-only",
    ])
    .expect_code(0)
    .stderr_has("stateless: ok");
    let file = std::fs::read_to_string(sb.path("config/mcpctl/servers.json")).unwrap();
    assert!(file.contains(r#""protocol": "2026-07-28""#), "{file}");
    let shown = sb.run(&["show", "stateless", "--json"]);
    shown.expect_code(0);
    assert_eq!(shown.json()["protocol"], "2026-07-28");
    sb.run(&[
        "add",
        "--name",
        "old",
        "--protocol",
        "2024-11-05",
        "--no-check",
        "--command",
        "sh",
    ])
    .expect_code(2)
    .stderr_has("possible values: 2025-11-25, 2026-07-28");
}

/// `list --help` names the columns `list` prints, and no other: it once
/// promised a state, which is `status`'s column.
#[test]
fn list_help_names_the_columns_it_prints() {
    let sb = Sandbox::new();
    sb.add_sh("servers.json", "a");
    let table = sb.ok(&["--file", "servers.json", "list"], 0);
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    let help = sb.ok(&["list", "--help"], 0);
    let columns = help
        .split("Columns: ")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("list --help names no columns:\n{help}"));
    let named: Vec<&str> = columns
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase()))
        .collect();
    assert_eq!(named, header, "{help}");
    let about = sb.ok(&["--help"], 0);
    let line = about
        .lines()
        .find(|l| l.trim_start().starts_with("list"))
        .unwrap();
    assert!(!line.contains("state"), "{line}");
}
