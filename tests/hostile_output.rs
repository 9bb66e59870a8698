//! Issue 8, item 2: no terminal control sequence from outside reaches the
//! terminal. The fixture server's `--hostile` flag, a registry entry and a
//! definitions file carry OSC 8 hyperlinks, OSC 0 title sets, CSI 2J, DCS,
//! CR and backspace overwrites, a C1 CSI (U+009B), a bidi override and a
//! line separator; every human-readable output must show them escaped, and
//! `--json` must still carry the exact strings.

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Run, Sandbox};

/// The string the fixture's `--hostile` flag and `hostile.json` carry.
const HOSTILE: &str = "\u{1b}]8;;https://evil.example/\u{1b}\\link\u{1b}]8;;\u{1b}\\ \
     \u{1b}]0;pwned\u{7} \u{1b}[2J \u{1b}Pdcs\u{1b}\\ safe\rEVIL \u{8}\u{8}x \u{9b}31m \u{202e}cod.exe \u{2028}end";

/// How [`HOSTILE`] reads once escaped (on one line).
const SHOWN: &str = "\\u{1b}]8;;https://evil.example/\\u{1b}\\link\\u{1b}]8;;\\u{1b}\\ \
     \\u{1b}]0;pwned\\u{7} \\u{1b}[2J \\u{1b}Pdcs\\u{1b}\\ safe\\rEVIL \\u{8}\\u{8}x \\u{9b}31m \\u{202e}cod.exe \\u{2028}end";

/// How [`HOSTILE`] reads in `search`, which folds whitespace (CR and the line
/// separator are whitespace) to keep each entry on its lines.
const FOLDED: &str = "\\u{1b}]8;;https://evil.example/\\u{1b}\\link\\u{1b}]8;;\\u{1b}\\ \
     \\u{1b}]0;pwned\\u{7} \\u{1b}[2J \\u{1b}Pdcs\\u{1b}\\ safe EVIL \\u{8}\\u{8}x \\u{9b}31m \\u{202e}cod.exe end";

/// A character a terminal could act on: C0 but newline and tab, DEL, C1,
/// the line separators and the bidi controls.
fn is_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Panic, naming the first offending character and its context, if `text`
/// holds a control character.
#[track_caller]
fn assert_clean(what: &str, text: &str) {
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| is_control(c)) {
        let from = text[..at]
            .char_indices()
            .rev()
            .nth(40)
            .map_or(0, |(i, _)| i);
        panic!(
            "{what}: raw control U+{:04X} reached the output near {:?}\n--- whole output\n{text:?}",
            c as u32,
            &text[from..(at + c.len_utf8())]
        );
    }
}

/// Both streams of a human-readable run are clean.
#[track_caller]
fn assert_run_clean(what: &str, run: &Run) {
    assert_clean(&format!("{what} (stdout)"), &run.stdout);
    assert_clean(&format!("{what} (stderr)"), &run.stderr);
}

fn write_defs(sandbox: &Sandbox, servers: Value) -> String {
    let path = sandbox.path("servers.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json!({ "mcpServers": servers })).unwrap(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

fn hostile_defs(sandbox: &Sandbox) -> String {
    let fx = support::fixture().to_string_lossy().into_owned();
    write_defs(
        sandbox,
        json!({
            "evil": {"command": fx, "args": ["--hostile"]},
            "dead": {"command": fx, "args": ["--hostile", "--exit-at-once"]},
        }),
    )
}

#[test]
fn check_escapes_server_info_tools_lints_and_stderr_tails() {
    let sandbox = Sandbox::new();
    let file = hostile_defs(&sandbox);

    let run = sandbox.run(&["--file", &file, "check", "--tools"]);
    run.expect_code(1);
    assert_run_clean("check --tools", &run);
    run.stdout_has(&format!("fixture{SHOWN} 1.0{SHOWN}"))
        .stdout_has(&format!(
            "evil tools: echo, fast, tool_2, hostile, fail, shout, trap{SHOWN}"
        ))
        .stdout_has(&format!("  | fixture: hostile {SHOWN}"));
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("evil: warning [") && l.contains(&format!("trap{SHOWN}"))),
        "the lint naming the hostile tool is missing\n{run}"
    );

    let run = sandbox.run(&["--file", &file, "check", "evil"]);
    run.expect_code(0);
    assert_run_clean("check", &run);

    let run = sandbox.run(&["--file", &file, "--json", "check"]);
    run.expect_code(1);
    let doc = run.json();
    let evil = &doc["servers"][0];
    let info = &evil["initialize"];
    assert_eq!(
        info["serverInfo"]["name"],
        format!("fixture{HOSTILE}"),
        "{run}"
    );
    assert_eq!(info["serverInfo"]["version"], format!("1.0{HOSTILE}"));
    assert_eq!(info["serverInfo"]["title"], HOSTILE);
    assert_eq!(info["instructions"], HOSTILE);
    assert!(
        evil["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == format!("trap{HOSTILE}") && t["description"] == HOSTILE),
        "{run}"
    );
    let tail = &doc["servers"][1]["error"]["stderr_tail"];
    assert!(
        tail.as_array()
            .unwrap()
            .iter()
            .any(|l| l == &json!(format!("fixture: hostile {HOSTILE}"))),
        "{run}"
    );
}

#[test]
fn call_direct_escapes_results_and_server_errors() {
    let sandbox = Sandbox::new();
    let file = hostile_defs(&sandbox);

    let run = sandbox.run(&["--file", &file, "call", "evil", "hostile", "--direct"]);
    run.expect_code(0);
    assert_run_clean("call --direct", &run);
    // A block of text keeps its newline and tab; structuredContent escaped too.
    run.stdout_has(&format!("line one {SHOWN}\nline two\tend"))
        .stdout_has("\"note\": \"\\u001b]8;;https://evil.example/")
        .stdout_has("\\u{9b}31m \\u{202e}cod.exe \\u{2028}end\"");

    let run = sandbox.run(&["--file", &file, "call", "evil", "fail", "--direct"]);
    run.expect_code(1);
    assert_run_clean("call --direct of a failing tool", &run);
    run.stderr_has(&format!("boom {SHOWN}"));

    let run = sandbox.run(&[
        "--file", &file, "--json", "call", "evil", "hostile", "--direct",
    ]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["result"]["structuredContent"]["note"], HOSTILE, "{run}");
    assert_eq!(
        doc["result"]["content"][0]["text"],
        format!("line one {HOSTILE}\nline two\tend")
    );
}

#[test]
fn supervised_tools_call_status_and_logs_are_escaped() {
    let sandbox = Sandbox::new();
    let file = hostile_defs(&sandbox);
    sandbox
        .run(&["--file", &file, "start", "evil"])
        .expect_code(0);
    sandbox
        .run(&["--file", &file, "start", "dead"])
        .expect_code(1);

    let run = sandbox.run(&["--file", &file, "tools", "evil"]);
    run.expect_code(0);
    assert_run_clean("tools", &run);
    run.stdout_has(&format!("trap{SHOWN}"));

    let run = sandbox.run(&["--file", &file, "call", "evil", "hostile"]);
    run.expect_code(0);
    assert_run_clean("call", &run);
    run.stdout_has(&format!("line one {SHOWN}"));

    let run = sandbox.run(&["--file", &file, "status"]);
    run.expect_code(0);
    assert_run_clean("status", &run);
    let row = |name: &str| {
        run.stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no `{name}` row in status\n{run}"))
    };
    // evil: ready with the fixture's 7 tools (the hostile one among them).
    let evil = row("evil");
    assert_eq!((evil[1], evil[4]), ("ready", "7"), "{run}");
    let dead = row("dead");
    assert_eq!(dead[1], "failed", "{run}");
    assert!(
        run.stdout
            .contains("dead: the process exited during initialize (exit code 3)"),
        "{run}"
    );
    let run = sandbox.run(&["--file", &file, "status", "dead"]);
    run.expect_code(0);
    assert_run_clean("status NAME", &run);
    run.stdout_has(&format!("  | fixture: hostile {SHOWN}"));

    let run = sandbox.run(&["--file", &file, "logs", "evil"]);
    run.expect_code(0);
    assert_run_clean("logs", &run);
    run.stdout_has(&format!("fixture: hostile {SHOWN}"));

    let run = sandbox.run(&["--file", &file, "--json", "logs", "evil"]);
    let doc = run.json();
    assert!(
        doc["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"] == json!(format!("fixture: hostile {HOSTILE}"))),
        "{run}"
    );
    let run = sandbox.run(&["--file", &file, "--json", "tools", "evil"]);
    assert!(
        run.json()["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["description"] == HOSTILE),
        "{run}"
    );
}

#[test]
fn logs_follow_prints_new_lines_escaped() {
    let sandbox = Sandbox::new();
    let file = hostile_defs(&sandbox);
    sandbox
        .run(&["--file", &file, "start", "evil"])
        .expect_code(0);

    // `logs -f` prints lines that arrive after it started, escaped.
    let mut follow = sandbox
        .command()
        .args(["--file", &file, "logs", "evil", "-f", "-n", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = follow.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).split(b'\n').map_while(Result::ok) {
            if tx
                .send(String::from_utf8_lossy(&line).into_owned())
                .is_err()
            {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let found = support::wait_for(support::within(30), || {
        // Each shout writes one more hostile line to the server's stderr.
        sandbox
            .run(&["--file", &file, "call", "evil", "shout"])
            .expect_code(0);
        let line = rx.recv_timeout(Duration::from_millis(500)).ok()?;
        seen.push(line.clone());
        line.contains("fixture: shout").then_some(line)
    });
    let _ = follow.kill();
    let _ = follow.wait();
    let line = found.unwrap_or_else(|| panic!("logs -f printed no shout within 30 s: {seen:?}"));
    assert_clean("logs -f", &line);
    let (stamp, text) = mcpctl::supervisor::logs::split_stamp(&line);
    assert!(stamp.is_some(), "logs -f lines carry their time: {line}");
    assert_eq!(text, format!("fixture: shout {SHOWN}"));
}

#[test]
fn definitions_file_labels_commands_and_urls_are_escaped() {
    let sandbox = Sandbox::new();
    let file = write_defs(
        &sandbox,
        json!({
            "local": {"command": format!("srv{HOSTILE}"), "args": [HOSTILE], "label": format!("Label {HOSTILE}"),
                      "env": {"MODE": "${MODE}"}},
            "remote": {"url": format!("https://example.com/mcp?q={HOSTILE}"), "label": HOSTILE},
        }),
    );
    let run = sandbox.run(&["--file", &file, "list"]);
    run.expect_code(0);
    assert_run_clean("list", &run);
    run.stdout_has("srv\\u{1b}]8;;https://evil.example/");

    let run = sandbox.run(&["--file", &file, "show", "local"]);
    run.expect_code(0);
    assert_run_clean("show", &run);
    run.stdout_has(&format!("label:      Label {SHOWN}\n"))
        .stdout_has(&format!("command:    srv{SHOWN}\n"))
        .stdout_has(&format!("args:       {SHOWN}\n"));
    let run = sandbox.run(&["--file", &file, "show", "remote"]);
    run.expect_code(0);
    assert_run_clean("show of a remote", &run);
    run.stdout_has("name:       remote\n")
        .stdout_has("transport:  streamable-http\n")
        .stdout_has(&format!("label:      {SHOWN}\n"))
        .stdout_has(&format!("url:        https://example.com/mcp?q={SHOWN}\n"));

    let run = sandbox.run(&["--file", &file, "--json", "show", "local"]);
    assert_eq!(run.json()["label"], format!("Label {HOSTILE}"), "{run}");
}

#[test]
fn registry_search_results_are_escaped() {
    let registry = support::TestRegistry::start();
    let sandbox = Sandbox::new();
    let cache = sandbox.path("cache");
    let with_registry = |cmd: &mut std::process::Command| {
        cmd.env("MCPCTL_REGISTRY_URL", &registry.url)
            .env("MCPCTL_CACHE_DIR", &cache)
            .env("MCPCTL_FILE", sandbox.path("servers.json"))
            .env("COLUMNS", "400");
    };

    let run = sandbox.run_with(&["search", "hostile"], with_registry);
    run.expect_code(0);
    assert_run_clean("search", &run);
    run.stdout_has(&format!("\"Tricks {FOLDED}\""))
        .stdout_has(&format!("  Looks harmless {FOLDED}"))
        .stdout_has(&format!("  nuget:Hostile{SHOWN}@1.0.0"));

    let run = sandbox.run_with(&["--json", "search", "hostile"], with_registry);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(
        doc["servers"][0]["description"],
        format!("Looks harmless {HOSTILE}"),
        "{run}"
    );
    assert_eq!(doc["servers"][0]["title"], format!("Tricks {HOSTILE}"));
}

#[test]
fn registry_add_messages_are_escaped() {
    let registry = support::TestRegistry::start();
    let sandbox = Sandbox::new();
    let cache = sandbox.path("cache");
    let with_registry = |cmd: &mut std::process::Command| {
        cmd.env("MCPCTL_REGISTRY_URL", &registry.url)
            .env(
                "MCPCTL_NPM_REGISTRY",
                format!("{}/no-packages", registry.url),
            )
            .env("MCPCTL_PYPI_URL", format!("{}/no-packages", registry.url))
            .env("MCPCTL_CACHE_DIR", &cache)
            .env("MCPCTL_FILE", sandbox.path("servers.json"));
    };
    // Without a terminal the missing input is an error quoting the
    // publisher's description: escaped too.
    let run = sandbox.run_with(
        &[
            "add",
            "org.hostile/terminal-tricks",
            "--package",
            "npm",
            "--no-check",
        ],
        with_registry,
    );
    run.expect_code(2);
    assert_run_clean("add from the registry", &run);
    run.stderr_has("TRICK_MODE (environment variable): Mode \\u{1b}]8;;https://evil.example/");
}
