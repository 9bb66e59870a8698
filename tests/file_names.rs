//! Names read from a definition file are validated like `--name`: an entry
//! named `../../x`, `a/b`, `` or with a control character is listed with
//! its error (file:line:column and a suggested name), refused by every
//! command that names it, and never becomes part of a path; the other
//! entries of the same file stay usable.

mod support;

use std::path::PathBuf;

use support::{Run, Sandbox};

/// The hostile names, and the valid name mcpctl suggests for each.
const HOSTILE: [(&str, &str); 4] = [
    ("../../escaped", "escaped"),
    ("a/b", "a-b"),
    ("", "server"),
    ("\u{1b}]0;pwned\u{7}\u{1b}[2J", "0-pwned-2j"),
];

/// A definition of the fixture server, as a JSON value.
fn fixture_entry() -> serde_json::Value {
    serde_json::json!({"command": support::fixture().to_str().unwrap(), "args": []})
}

/// The file's text in each shape, with `ok` first and one hostile entry
/// per line after it, so the expected line of `HOSTILE[i]` is `first + i`.
fn shapes(sb: &Sandbox) -> Vec<(PathBuf, usize, usize)> {
    let entry = fixture_entry().to_string();
    let json_lines = |indent: &str| -> String {
        let mut lines = vec![format!("{indent}\"ok\": {entry}")];
        for (name, _) in HOSTILE {
            lines.push(format!(
                "{indent}{}: {entry}",
                serde_json::to_string(name).unwrap()
            ));
        }
        lines.join(",\n")
    };
    let flat = format!("{{\n{}\n}}\n", json_lines("  "));
    let mcp = format!(
        "{{\n  \"mcpServers\": {{\n{}\n  }}\n}}\n",
        json_lines("    ")
    );
    let mut yaml = format!("mcpServers:\n  ok: {entry}\n");
    for (name, _) in HOSTILE {
        // YAML double quotes escape control characters as JSON does.
        yaml.push_str(&format!(
            "  {}: {entry}\n",
            serde_json::to_string(name).unwrap()
        ));
    }
    let mut files = Vec::new();
    for (file, text, first_line, column) in [
        ("flat.json", flat, 3, 3),
        ("mcp.json", mcp, 4, 5),
        ("servers.yaml", yaml, 3, 3),
    ] {
        let path = sb.path(file);
        std::fs::write(&path, text).unwrap();
        files.push((path, first_line, column));
    }
    files
}

/// No raw control character reaches the terminal.
#[track_caller]
fn assert_no_control_chars(run: &Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "raw control character on {stream}\n{run}"
        );
    }
}

#[test]
fn hostile_names_are_listed_with_file_line_and_a_suggestion() {
    let sb = Sandbox::new();
    for (file, first_line, column) in shapes(&sb) {
        let f = file.to_str().unwrap();
        let list = sb.run(&["--file", f, "list"]);
        list.expect_code(2).stdout_has("ok ");
        assert_no_control_chars(&list);
        for (i, (name, suggestion)) in HOSTILE.iter().enumerate() {
            let at = format!("{f}:{}:{column}: invalid server name: ", first_line + i);
            list.stderr_has(&at)
                .stderr_has(&format!("e.g. to `{suggestion}`"));
            // Every verb that would use the entry refuses it, with the same reason.
            for verb in [
                &["show", name][..],
                &["check", name],
                &["disable", name],
                &["call", "--direct", name, "echo"],
            ] {
                let mut args = vec!["--file", f];
                args.extend_from_slice(verb);
                let run = sb.run(&args);
                run.expect_code(2).stderr_has(&at).stderr_has(&format!(
                    "hint: rename the entry in {f} by hand, e.g. to `{suggestion}`"
                ));
                assert_no_control_chars(&run);
            }
        }
        list.stderr_has("server name `../../escaped` contains `.`")
            .stderr_has("a server name cannot be empty")
            .stderr_has("server name `\\u{1b}]0;pwned\\u{7}\\u{1b}[2J` contains `\\u{1b}`");
        let json = sb.run(&["--file", f, "list", "--json"]);
        json.expect_code(2);
        let doc = json.json();
        assert_eq!(doc["servers"].as_array().unwrap().len(), 1, "{json}");
        assert_eq!(doc["invalid"][0]["name"], "../../escaped");
        assert_eq!(doc["invalid"][0]["line"], first_line);
        assert_eq!(doc["invalid"][3]["suggestion"], "0-pwned-2j");
        // The valid entry is still usable.
        sb.run(&["--file", f, "check", "ok"]).expect_code(0);
        // A check of every server, as CI runs it, fails on them and says why.
        let all = sb.run(&["--file", f, "check"]);
        all.expect_code(1)
            .stderr_has(&format!("{f}:{first_line}:{column}: invalid server name: "));
        assert_no_control_chars(&all);
        let all = sb.run(&["--file", f, "check", "--json"]);
        all.expect_code(1);
        assert_eq!(all.json()["failed"], HOSTILE.len(), "{all}");
    }
}

#[test]
fn start_all_reports_the_hostile_entries_and_starts_the_rest() {
    let sb = Sandbox::new();
    let (file, first_line, column) = shapes(&sb).remove(1);
    let f = file.to_str().unwrap();
    let start = sb.run(&["--file", f, "start", "--all"]);
    start
        .expect_code(2)
        .stderr_has(&format!("{f}:{first_line}:{column}: invalid server name: "))
        .stdout_has("ok ");
    assert_no_control_chars(&start);
    sb.run(&["--file", f, "supervisor", "stop"]).expect_code(0);
}

#[test]
fn start_of_a_hostile_entry_writes_nothing_outside_the_state_dir() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let mut servers = serde_json::Map::new();
    servers.insert("ok".into(), fixture_entry());
    for (name, _) in HOSTILE {
        servers.insert(name.into(), fixture_entry());
    }
    std::fs::write(
        &file,
        serde_json::json!({ "mcpServers": servers }).to_string(),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    for (name, suggestion) in HOSTILE {
        let run = sb.run(&["--file", f, "start", name]);
        run.expect_code(2)
            .stderr_has(&format!("{f}:1:"))
            .stderr_has("invalid server name")
            .stderr_has(&format!("e.g. to `{suggestion}`"));
        assert_no_control_chars(&run);
        sb.run(&["--file", f, "restart", name]).expect_code(2);
        sb.run(&["--file", f, "logs", name]).expect_code(2);
    }
    // The other entries are served as usual.
    sb.run(&["--file", f, "start", "ok"]).expect_code(0);
    // `--all` starts them and says (exit 2) which entries it could not.
    let all = sb.run(&["--file", f, "start", "--all", "--json"]);
    all.expect_code(2).stderr_has("invalid server name");
    assert_eq!(all.json()["results"].as_array().unwrap().len(), 1, "{all}");
    sb.run(&["--file", f, "supervisor", "stop"]).expect_code(0);
    let state = sb.path("state");
    let outside: Vec<PathBuf> = support::files_under(sb.dir.path())
        .into_iter()
        .filter(|p| !p.starts_with(&state) && *p != file)
        .collect();
    assert_eq!(
        outside,
        Vec::<PathBuf>::new(),
        "written outside the state dir"
    );
    assert!(
        support::files_under(&state)
            .iter()
            .any(|p| p.ends_with("ok.log")),
        "the valid server's log is in the state dir"
    );
}

#[test]
fn names_in_either_case_work_but_names_that_differ_only_in_case_are_refused() {
    // Agent hosts' files name servers `GitHub`; mcpctl uses such a name as
    // it is. A second entry that differs from it only in case would share
    // its log file on a case-insensitive file system, so it is set aside.
    let sb = Sandbox::new();
    let entry = fixture_entry().to_string();
    let file = sb.path("mcp.json");
    std::fs::write(
        &file,
        format!("{{\n  \"mcpServers\": {{\n    \"GitHub\": {entry},\n    \"github\": {entry}\n  }}\n}}\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    sb.run(&["--file", f, "list"])
        .expect_code(2)
        .stdout_has("GitHub")
        .stderr_has(&format!(
            "{f}:4:5: invalid server name: server name `github` differs from `GitHub` only in case"
        ))
        .stderr_has("e.g. to `github-2`");
    sb.run(&["--file", f, "check", "GitHub"])
        .expect_code(0)
        .stdout_has("GitHub");
    sb.run(&["--file", f, "check", "github"])
        .expect_code(2)
        .stderr_has("only in case");
    sb.run(&[
        "--file",
        f,
        "add",
        "--name",
        "GITHUB",
        "--command",
        "true",
        "--no-check",
    ])
    .expect_code(2)
    .stderr_has("server name `GITHUB` differs from `GitHub` only in case");
}
