//! Output a script can trust: every `--json` document of the real binary
//! validates against its published schema in `docs/json/`, errors under
//! `--json` are JSON on stdout too, and `-q`, `--color`, saved names, log
//! stamps and whole TARGET columns behave as documented.

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use serde_json::Value;
use support::{Run, Sandbox, schema_errors};

/// Panic unless `doc` (printed by `run`) is valid against schema `name`.
#[track_caller]
fn assert_matches(name: &str, doc: &Value, run: &dyn std::fmt::Display) {
    let errors = schema_errors(name, doc);
    assert!(
        errors.is_empty(),
        "--json output does not match docs/json/{name}.schema.json:\n{}\n{run}",
        errors.join("\n")
    );
    assert_eq!(doc["schema_version"], 1, "{run}");
}

/// Run, check the exit code, and validate stdout against schema `name`.
#[track_caller]
fn json_doc(sandbox: &Sandbox, args: &[&str], code: i32, name: &str) -> Value {
    let run = sandbox.run(args);
    run.expect_code(code);
    let doc = run.json();
    assert_matches(name, &doc, &run);
    doc
}

#[test]
fn every_json_document_matches_its_published_schema() {
    let sandbox = Sandbox::new();
    let file = sandbox.path("servers.json").to_string_lossy().into_owned();
    let fixture = support::fixture().to_str().unwrap().to_string();
    let f = |rest: &[&str]| -> Vec<String> {
        ["--file", &file, "--json"]
            .iter()
            .chain(rest)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |rest: &[&str], code: i32, name: &str| -> Value {
        let args = f(rest);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        json_doc(&sandbox, &args, code, name)
    };

    let added = run(
        &[
            "add",
            "--name",
            "fix",
            "--command",
            &fixture,
            "--",
            "--tools",
            "3",
        ],
        0,
        "add",
    );
    assert_eq!(added["action"], "added");
    let dry = run(
        &[
            "add",
            "--dry-run",
            "--no-check",
            "--name",
            "dry",
            "--command",
            "sh",
        ],
        0,
        "add",
    );
    assert_eq!(dry["action"], "would-add");
    // The sandbox's home holds a Claude Code file besides mcpctl's own.
    std::fs::write(
        sandbox.path(".claude.json"),
        r#"{"mcpServers": {"a": {"command": "sh"}}, "numStartups": 3}"#,
    )
    .unwrap();
    let clients = run(&["clients"], 0, "clients");
    assert!(
        clients["clients"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["client"] == "claude-code" && c["servers"] == 1),
        "{clients}"
    );
    run(
        // `false` exits at once: a failure without waiting for a budget.
        &[
            "add",
            "--no-check",
            "--name",
            "broken",
            "--command",
            "false",
        ],
        0,
        "add",
    );
    run(
        &[
            "add",
            "--no-check",
            "--disabled",
            "--name",
            "off",
            "--command",
            "sh",
        ],
        0,
        "add",
    );
    let listed = run(&["list"], 0, "list");
    assert_eq!(listed["servers"].as_array().unwrap().len(), 3);
    run(&["show", "fix"], 0, "show");

    let checked = run(&["check"], 1, "check");
    let servers = checked["servers"].as_array().unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let (ok, failed, skipped) = (&servers[0], &servers[1], &servers[2]);
    assert_eq!(
        (&ok["ok"], &failed["ok"], &skipped["ok"]),
        (&Value::Bool(true), &Value::Bool(false), &Value::Null)
    );
    assert_eq!(keys(ok), keys(failed), "a failed entry keeps every key");
    assert_eq!(keys(ok), keys(skipped), "a skipped entry keeps every key");
    assert!(failed["protocol_version"].is_null() && failed["error"]["message"].is_string());

    run(&["disable", "broken"], 0, "toggle");
    run(&["enable", "broken"], 0, "toggle");

    let started = run(&["start", "fix"], 0, "lifecycle");
    assert_eq!(started["results"][0]["status"]["state"], "ready");
    let refused = run(&["start", "broken"], 1, "lifecycle");
    assert!(refused["results"][0]["error"]["message"].is_string());
    run(&["status"], 0, "status");
    run(&["tools", "fix"], 0, "tools");
    let called = run(&["call", "fix", "echo", "--arg", "message=hi"], 0, "call");
    assert_eq!(called["is_error"], false);
    let logs = run(&["logs", "fix"], 0, "logs");
    assert!(
        logs["lines"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["time"].is_string()),
        "every line is stamped: {logs}"
    );
    run(&["supervisor", "status"], 0, "supervisor-status");
    run(&["refresh", "fix"], 0, "lifecycle");

    // `logs -f --json`: one JSON document per line, as they come.
    let mut follow = sandbox
        .command()
        .args(["--file", &file, "--json", "logs", "-f", "fix"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(follow.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let doc: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("logs -f --json printed {line:?}: {e}"));
        assert!(!line.trim_end().contains('\n'));
        assert_matches("logs-line", &doc, &line);
        assert_eq!(doc["name"], "fix");
    }
    let _ = follow.kill();
    let _ = follow.wait();

    run(&["stop", "--all"], 0, "lifecycle");
    run(&["supervisor", "stop"], 0, "supervisor-action");
    run(&["supervisor", "status"], 5, "supervisor-status");
    run(&["remove", "--yes", "broken", "off"], 0, "remove");

    // Errors: the command's own, and one clap refused.
    let missing = run(&["show", "nosuch"], 3, "error");
    assert_eq!(missing["error"]["code"], "not_found");
    assert_eq!(missing["error"]["exit_code"], 3);
    let bad = run(&["list", "--no-such-flag"], 2, "error");
    assert_eq!(bad["error"]["code"], "usage");
}

#[test]
fn search_json_matches_its_schema() {
    let registry = support::TestRegistry::start();
    let sandbox = Sandbox::new();
    let run = sandbox.run_with(&["--json", "search", "everything"], |cmd| {
        cmd.env("MCPCTL_REGISTRY_URL", &registry.url);
    });
    run.expect_code(0);
    assert_matches("search", &run.json(), &run);
}

#[test]
fn an_error_under_json_is_json_on_stdout_and_text_on_stderr() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--json", "show", "nothing-here"]);
    run.expect_code(3).stderr_has("error: ");
    let doc = run.json();
    assert_matches("error", &doc, &run);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nothing-here")
    );
    // Without --json, stdout stays empty.
    let run = sandbox.run(&["show", "nothing-here"]);
    run.expect_code(3);
    assert_eq!(run.stdout, "", "{run}");
}

/// A definition refused for two reasons: each error keeps its own hint,
/// on stderr and in the JSON document (`also`).
#[test]
fn two_errors_each_keep_their_hint() {
    let sandbox = Sandbox::new();
    let url = "http://alice:hunter2@example.com/mcp";
    let args = ["add", "--no-check", "--name", "web", "--url", url];
    let run = sandbox.run(&args);
    run.expect_code(2);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{run}");
    assert!(
        lines[0].starts_with("error: the URL contains credentials"),
        "{run}"
    );
    assert!(
        lines[1].starts_with("hint: remove them from the URL"),
        "{run}"
    );
    assert!(
        lines[2].contains("uses plain http to a public host"),
        "{run}"
    );
    assert!(
        lines[3].starts_with("hint: use https://, or pass --allow-http"),
        "{run}"
    );
    assert!(!run.stderr.contains("hunter2"), "{run}");

    let run = sandbox.run(&[&["--json"], &args[..]].concat());
    run.expect_code(2);
    let doc = run.json();
    assert_matches("error", &doc, &run);
    let error = &doc["error"];
    assert!(
        error["hint"].as_str().unwrap().starts_with("remove them"),
        "{doc}"
    );
    let also = error["also"].as_array().expect("also");
    assert_eq!(also.len(), 1, "{doc}");
    assert!(
        also[0]["message"].as_str().unwrap().contains("plain http"),
        "{doc}"
    );
    assert!(
        also[0]["hint"].as_str().unwrap().contains("--allow-http"),
        "{doc}"
    );
    assert!(!run.stdout.contains("hunter2"), "{run}");
}

#[test]
fn quiet_drops_notes_but_not_errors() {
    let sandbox = Sandbox::new();
    sandbox.add_sh("servers.json", "a");
    let loud = sandbox.run(&["--file", "servers.json", "status"]);
    loud.expect_code(0)
        .stderr_has("note: the supervisor is not running");
    let quiet = sandbox.run(&["--file", "servers.json", "-q", "status"]);
    quiet.expect_code(0);
    assert_eq!(quiet.stderr, "", "{quiet}");
    assert_eq!(quiet.stdout, loud.stdout);
    let quiet = sandbox.run(&["--file", "servers.json", "status", "--quiet", "nosuch"]);
    quiet.expect_code(3).stderr_has("error: ");
}

#[test]
fn color_follows_the_flag_no_color_and_clicolor_force() {
    let sandbox = Sandbox::new();
    let colored = |run: &Run| run.stderr.contains('\u{1b}');
    let run = |flags: &[&str], env: &[(&str, &str)]| {
        let mut args = flags.to_vec();
        args.extend(["show", "nosuch"]);
        sandbox.run_with(&args, |cmd| {
            cmd.env_remove("NO_COLOR")
                .env_remove("CLICOLOR_FORCE")
                .env_remove("CLICOLOR");
            for (k, v) in env {
                cmd.env(k, v);
            }
        })
    };
    // Into a pipe, auto means no colour.
    assert!(!colored(&run(&[], &[])));
    let always = run(&["--color", "always"], &[]);
    assert!(colored(&always), "{always}");
    assert!(always.stderr.contains("error:"), "{always}");
    assert!(colored(&run(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!colored(&run(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!colored(&run(
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
}

#[test]
fn messages_name_the_entry_as_it_was_saved() {
    let sandbox = Sandbox::new();
    let fixture = support::fixture().to_str().unwrap();
    let add = || {
        sandbox.run(&[
            "--file",
            "servers.json",
            "add",
            "--command",
            fixture,
            "--",
            "--tools",
            "2",
        ])
    };
    add().expect_code(0).stderr_has("fixture: ok, 2 tools");
    let second = add();
    second
        .expect_code(0)
        .stderr_has("fixture-2: ok, 2 tools")
        .stdout_has("added `fixture-2`");
}

#[test]
fn a_failed_start_names_the_server_once() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&[
            "--file",
            "servers.json",
            "add",
            "--no-check",
            "--name",
            "broken",
            "--command",
            "false",
        ])
        .expect_code(0);
    let run = sandbox.run(&["--file", "servers.json", "start", "broken"]);
    sandbox.run(&["--file", "servers.json", "supervisor", "stop"]);
    run.expect_code(1).stderr_has("error: broken");
    assert!(!run.stderr.contains("broken: broken:"), "{run}");
}

#[test]
fn targets_are_whole_when_stdout_is_not_a_terminal() {
    let sandbox = Sandbox::new();
    let long = "x".repeat(100);
    let run = sandbox.run(&[
        "--file",
        "servers.json",
        "add",
        "--no-check",
        "--name",
        "long",
        "--command",
        "sh",
        "--",
        "-c",
        &long,
    ]);
    run.expect_code(0);
    let list = sandbox.run(&["--file", "servers.json", "list"]);
    list.expect_code(0).stdout_has(&format!("sh -c {long}"));
    assert!(!list.stdout.contains('…'), "{list}");
}

#[test]
fn a_near_miss_names_the_closest_registry_names_even_for_a_typo() {
    let registry = support::TestRegistry::start();
    let sandbox = Sandbox::new();
    // No registry name contains "server-evrything": the words are searched
    // and the results ranked by edit distance.
    let run = sandbox.run_with(
        &[
            "--file",
            "servers.json",
            "--json",
            "add",
            "server-evrything",
        ],
        |cmd| {
            cmd.env("MCPCTL_REGISTRY_URL", &registry.url);
        },
    );
    run.expect_code(3)
        .stderr_has("the closest names are:\n  io.github.modelcontextprotocol/server-everything\n")
        .stderr_has("hint: type the exact name, e.g. `mcpctl add io.github.modelcontextprotocol/server-everything`");
    assert_matches("error", &run.json(), &run);
    assert!(!sandbox.path("servers.json").exists(), "nothing is written");
}
