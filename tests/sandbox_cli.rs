//! Issue 22, the operator's side of the sandbox (helper `sbcli`): `add
//! --sandbox/--allow-*` and `add`'s default `network`, `check`'s warning
//! about unconfined entries, the kind in `status`, `check --json` and
//! `show`, `mcpctl sandbox NAME` (and `--set`), and export's note.

mod support;

use serde_json::{Value, json};
use support::{World, fixture, matches_schema};

fn file(w: &World) -> String {
    w.file.to_string_lossy().into_owned()
}

/// The definitions file as JSON.
fn written(w: &World) -> Value {
    serde_json::from_str(&w.text()).unwrap()
}

/// The definitions file as JSON, its `//` comment lines dropped.
fn written_jsonc(w: &World) -> Value {
    let text: String = w
        .text()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    serde_json::from_str(&text).unwrap()
}

/// `add NAME [flags…] -- FIXTURE` into the world's file.
fn add(w: &World, name: &str, flags: &[&str]) -> support::Run {
    let f = file(w);
    let fx = fixture().to_string_lossy().into_owned();
    let mut args = vec!["--file", f.as_str(), "add", name];
    args.extend_from_slice(flags);
    args.extend(["--", fx.as_str()]);
    w.run(&args)
}

#[test]
fn add_gives_a_local_server_network_and_takes_each_flag() {
    let w = World::new();
    let home = w.dir.path().to_string_lossy().into_owned();
    std::fs::create_dir_all(w.path("proj")).unwrap();
    std::fs::create_dir_all(w.path("notes")).unwrap();
    // The default, checked (the connection check runs sandboxed).
    add(&w, "plain", &[]).expect_code(0).stderr_has("plain: ok");
    add(&w, "closed", &["--sandbox", "none"]).expect_code(0);
    add(&w, "open", &["--no-check", "--sandbox", "off"]).expect_code(0);
    add(
        &w,
        "prof",
        &[
            "--no-check",
            "--allow-read",
            "~/proj",
            "--allow-write",
            &format!("{home}/notes"),
            "--allow-host",
            "api.example.com:443",
        ],
    )
    .expect_code(0);
    add(&w, "widened", &["--allow-read", "~/proj"]).expect_code(0);
    let servers = &written(&w)["mcpServers"];
    assert_eq!(servers["plain"]["sandbox"], "network", "{servers:#}");
    assert_eq!(servers["closed"]["sandbox"], "none", "{servers:#}");
    assert_eq!(servers["open"]["sandbox"], "off", "{servers:#}");
    let prof = &servers["prof"]["sandbox"];
    assert_eq!(prof["read"], json!(["~/proj"]), "{prof:#}");
    assert_eq!(prof["write"], json!([format!("{home}/notes")]), "{prof:#}");
    let outbound = &prof["network"]["outbound"];
    assert_eq!(outbound["allow_host"], json!(["api.example.com:443"]));
    assert_eq!(outbound["insecure_allow_all"], false, "{prof:#}");
    // --allow-read alone keeps outbound open, as `network` would.
    let widened = &servers["widened"]["sandbox"]["network"]["outbound"];
    assert_eq!(widened["insecure_allow_all"], true, "{servers:#}");
}

#[test]
fn add_refuses_bad_sandbox_flags_and_writes_nothing() {
    let w = World::new();
    w.write(json!({}));
    let before = w.text();
    let state = w.state().to_string_lossy().into_owned();
    let f = file(&w);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--allow-read", "rel/x"], "is relative"),
        (vec!["--allow-write", &state], "mcpctl's state"),
        (vec!["--allow-write", "~"], "mcpctl's state"),
        (vec!["--allow-host", "https://x.example"], "has a scheme"),
        (vec!["--allow-host", "x.example/path"], "has a path"),
        (vec!["--allow-read", "/nonexistent-sbcli"], "no such file"),
        (
            vec!["--sandbox", "off", "--allow-read", "/usr"],
            "the policy is `off`",
        ),
        (
            vec!["--sandbox", "network", "--allow-host", "a.example"],
            "opens it to every host",
        ),
        (vec!["--sandbox", "sometimes.json"], "sometimes.json:1"),
        (vec!["--allow-read", "/usr:/data"], "ToolHive mount"),
    ];
    for (flags, said) in cases {
        let run = add(&w, "bad", &[&["--no-check"], &flags[..]].concat());
        run.expect_code(2).stderr_has(said).stderr_has("hint:");
        assert_eq!(w.text(), before, "{flags:?} wrote");
    }
    // A remote entry never gets the field; --sandbox on one is refused.
    let url = [
        "--file",
        &f,
        "add",
        "--no-check",
        "--url",
        "https://mcp.example.com/mcp",
    ];
    let run = w.run(&[&url[..], &["--name", "r", "--sandbox", "none"]].concat());
    run.expect_code(2).stderr_has("not to a remote URL");
    w.run(&[&url[..], &["--name", "r"]].concat()).expect_code(0);
    assert!(written(&w)["mcpServers"]["r"].get("sandbox").is_none());
    // A container runtime contains it: no field, and no nesting.
    let docker = ["--file", &f, "add", "--no-check", "--force"];
    let image = ["d", "--", "docker", "run", "-i", "--rm", "img:1.0"];
    let run = w.run(&[&docker[..], &["--sandbox", "none"], &image[..]].concat());
    run.expect_code(2).stderr_has("does not nest");
    w.run(&[&docker[..], &image[..]].concat()).expect_code(0);
    assert!(written(&w)["mcpServers"]["d"].get("sandbox").is_none());
}

#[test]
fn a_toolhive_profile_file_is_taken_as_it_is_and_refused_with_file_and_line() {
    let w = World::new();
    let good = w.path("profile.json");
    std::fs::write(
        &good,
        "{\n  \"name\": \"readonly\",\n  \"read\": [\"/usr/share\"],\n  \"network\": {\n    \"inbound\": {\"allow_host\": [\"localhost\"]},\n    \"outbound\": {\"insecure_allow_all\": true, \"allow_port\": [443]}\n  },\n  \"privileged\": false\n}\n",
    )
    .unwrap();
    let good = good.to_string_lossy().into_owned();
    add(&w, "th", &["--sandbox", &good]).expect_code(0);
    let profile = &written(&w)["mcpServers"]["th"]["sandbox"];
    assert_eq!(profile["read"], json!(["/usr/share"]), "{profile:#}");
    assert_eq!(profile["name"], "readonly", "{profile:#}");
    let bad = w.path("bad.json");
    std::fs::write(
        &bad,
        "{\n  \"read\": [\"/usr\"],\n  \"write\": [\n    \"tmp/out\"\n  ]\n}\n",
    )
    .unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let run = add(&w, "bad", &["--sandbox", &bad]);
    run.expect_code(2)
        .stderr_has(&format!("{bad}:4: `write` path"))
        .stderr_has("is relative");
    std::fs::write(w.path("broken.json"), "{\n  \"read\": [\n}\n").unwrap();
    let broken = w.path("broken.json").to_string_lossy().into_owned();
    add(&w, "bad", &["--sandbox", &broken])
        .expect_code(2)
        .stderr_has(&format!("{broken}:3: not valid JSON"));
    std::fs::write(
        w.path("unknown.json"),
        "{\n  \"read\": [],\n  \"mounts\": []\n}\n",
    )
    .unwrap();
    let unknown = w.path("unknown.json").to_string_lossy().into_owned();
    add(&w, "bad", &["--sandbox", &unknown])
        .expect_code(2)
        .stderr_has(&format!("{unknown}:3:"))
        .stderr_has("unknown key `mounts`");
}

#[test]
fn add_json_and_claude_syntax_get_network_too() {
    let w = World::new();
    let f = file(&w);
    let fx = fixture().to_string_lossy().into_owned();
    let entry = json!({"command": fx}).to_string();
    w.run(&["--file", &f, "add-json", "aj", &entry])
        .expect_code(0);
    let given = json!({"command": fx, "sandbox": "none"}).to_string();
    w.run(&["--file", &f, "add-json", "ajn", &given])
        .expect_code(0);
    let remote = json!({"type": "http", "url": "https://mcp.example.com/mcp"}).to_string();
    w.run(&["--file", &f, "add-json", "--no-check", "ajr", &remote])
        .expect_code(0);
    w.run(&["--file", &f, "add", "cl", &fx]).expect_code(0);
    let servers = &written(&w)["mcpServers"];
    assert_eq!(servers["aj"]["sandbox"], "network", "{servers:#}");
    assert_eq!(servers["ajn"]["sandbox"], "none", "{servers:#}");
    assert!(servers["ajr"].get("sandbox").is_none(), "{servers:#}");
    assert_eq!(servers["cl"]["sandbox"], "network", "{servers:#}");
}

/// A file with one entry of each kind.
fn every_kind(w: &World) {
    w.write(json!({
        "bare": {"command": "{fixture}"},
        "also": {"command": "{fixture}"},
        "off": {"command": "{fixture}", "sandbox": "off"},
        "none": {"command": "{fixture}", "sandbox": "none"},
        "boxed": {"command": "docker", "args": ["run", "-i", "img:1"], "disabled": true},
        "far": {"url": "https://127.0.0.1:9/mcp", "disabled": true},
    }));
}

#[test]
fn check_warns_once_about_unconfined_entries_and_json_carries_the_kind() {
    let w = World::new();
    every_kind(&w);
    let f = file(&w);
    let run = w.run(&["--file", &f, "check"]);
    run.expect_code(0)
        .stderr_has("warning: 2 local servers run unconfined (no sandbox): bare, also")
        .stderr_has("`mcpctl sandbox bare --set network`");
    assert_eq!(
        run.stderr.matches("unconfined (no sandbox)").count(),
        1,
        "{run}"
    );
    let run = w.run(&["--file", &f, "check", "--json"]);
    run.expect_code(0)
        .stderr_has("2 local servers run unconfined");
    let doc = run.json();
    matches_schema("check", &doc);
    let kinds: Vec<(String, Value)> = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["sandbox"].clone(),
            )
        })
        .collect();
    let want = [
        ("bare", json!("unset")),
        ("also", json!("unset")),
        ("off", json!("off")),
        ("none", json!("none")),
        ("boxed", json!("container")),
        ("far", Value::Null),
    ];
    for (name, kind) in want {
        assert!(
            kinds.contains(&(name.to_string(), kind.clone())),
            "{name}: {kinds:?}"
        );
    }
    // Every local entry contained (or off, knowingly): no warning.
    let run = w.run(&["--file", &f, "check", "off", "none"]);
    run.expect_code(0);
    assert!(!run.stderr.contains("unconfined"), "{run}");
}

#[test]
fn status_and_show_carry_the_kind() {
    let w = World::new();
    every_kind(&w);
    let f = file(&w);
    let table = w.ok(&["--file", &f, "status"], 0);
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name}: {table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert!(table.lines().next().unwrap().contains("SANDBOX"), "{table}");
    assert!(row("bare").contains(&"unset"), "{table}");
    assert!(row("none").contains(&"none"), "{table}");
    assert!(row("boxed").contains(&"container"), "{table}");
    let doc = w.json(&["--file", &f, "status"], 0);
    matches_schema("status", &doc);
    let kind = |name: &str| {
        doc["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["sandbox"]
            .clone()
    };
    assert_eq!(kind("off"), "off");
    assert_eq!(kind("far"), Value::Null);
    let detail = w.ok(&["--file", &f, "status", "boxed"], 0);
    assert!(detail.contains("sandbox:    container"), "{detail}");
    let shown = w.ok(&["--file", &f, "show", "boxed"], 0);
    assert!(
        shown.contains("sandbox:    container (contained by docker"),
        "{shown}"
    );
    let shown = w.ok(&["--file", &f, "show", "bare"], 0);
    assert!(
        shown.contains("mcpctl sandbox bare --set network"),
        "{shown}"
    );
    let json = w.json(&["--file", &f, "show", "boxed"], 0);
    matches_schema("show", &json);
    assert_eq!(
        json["sandbox"],
        json!({"kind": "container", "network": null, "runtime": "docker"})
    );
    let json = w.json(&["--file", &f, "show", "none"], 0);
    assert_eq!(json["sandbox"], json!({"kind": "none", "network": "none"}));
    let json = w.json(&["--file", &f, "show", "far"], 0);
    assert!(json.get("sandbox").is_none(), "{json}");
}

#[test]
fn sandbox_name_prints_the_rules_the_launch_builds() {
    let w = World::new();
    w.write(json!({"s": {"command": "{fixture}", "sandbox": "none"}}));
    let f = file(&w);
    let shown = w.ok(&["--file", &f, "sandbox", "s"], 0);
    let fixture_dir = fixture().parent().unwrap().canonicalize().unwrap();
    for line in [
        "sandbox of s: none",
        "read (and execute):",
        &format!("  {}", fixture_dir.display()),
        "private tmp:  ",
        "network:      none (a network namespace of its own",
        &format!("never the definitions file {f}"),
        "kernel:       Landlock ABI ",
        "verdict:      it would start confined",
    ] {
        assert!(shown.contains(line), "no {line:?} in:\n{shown}");
    }
    let home = w.dir.path().canonicalize().unwrap();
    assert!(
        !shown.lines().any(|l| l.trim() == home.to_string_lossy()),
        "home granted:\n{shown}"
    );
    let doc = w.json(&["--file", &f, "sandbox", "s"], 0);
    assert_eq!(doc["kind"], "none", "{doc}");
    assert_eq!(doc["rules"]["network"], "none", "{doc}");
    assert!(
        doc["rules"]["read"]
            .as_array()
            .unwrap()
            .contains(&json!(fixture_dir)),
        "{doc}"
    );
    // A kernel without Landlock: the verdict the launch would give.
    let run = w.run_with(&["--file", &f, "sandbox", "s"], |cmd| {
        cmd.env("MCPCTL_TEST_NO_LANDLOCK", "1");
    });
    run.expect_code(1)
        .stdout_has("would refuse: the kernel does not offer Landlock")
        .stdout_has("hint:");
}

#[test]
fn sandbox_set_writes_the_field_and_keeps_comments() {
    let w = World::new();
    let fx = fixture().to_string_lossy().into_owned();
    std::fs::write(
        &w.file,
        format!("{{\n  // kept\n  \"mcpServers\": {{\n    \"s\": {{\"command\": \"{fx}\"}},\n    \"r\": {{\"url\": \"https://mcp.example.com/mcp\"}}\n  }}\n}}\n"),
    )
    .unwrap();
    let f = file(&w);
    let said = w.ok(&["--file", &f, "sandbox", "s", "--set", "none"], 0);
    assert!(said.contains("set the sandbox of `s` to none"), "{said}");
    let text = w.text();
    assert!(
        text.contains("// kept") && text.contains("\"sandbox\": \"none\""),
        "{text}"
    );
    let run = w.run(&["--file", &f, "check", "s"]);
    run.expect_code(0);
    assert!(!run.stderr.contains("unconfined"), "{run}");
    w.ok(
        &["--file", &f, "sandbox", "s", "--allow-read", "/usr/share"],
        0,
    );
    // --allow-* alone widen the policy it has (`none` stays closed).
    let entry = &written_jsonc(&w)["mcpServers"]["s"]["sandbox"];
    assert_eq!(entry["read"], json!(["/usr/share"]), "{entry}");
    assert_eq!(
        entry["network"]["outbound"]["insecure_allow_all"], false,
        "{entry}"
    );
    let run = w.run(&["--file", &f, "sandbox", "r", "--set", "none"]);
    run.expect_code(2).stderr_has("not to a remote URL");
    let run = w.run(&["--file", &f, "sandbox", "s", "--set", "sometimes"]);
    run.expect_code(2).stderr_has("sometimes:1");
}

#[test]
fn export_says_a_sandboxed_server_runs_unconfined_in_the_other_client() {
    let w = World::new();
    w.write(json!({
        "boxed": {"command": "{fixture}", "sandbox": "none"},
        "bare": {"command": "{fixture}"},
    }));
    let f = file(&w);
    let to = w.path("other.json").to_string_lossy().into_owned();
    let run = w.run(&["--file", &f, "export", "--to", &to]);
    run.expect_code(0)
        .stderr_has("`boxed` runs in a sandbox (none) under mcpctl")
        .stderr_has("there it runs unconfined");
    assert!(!run.stderr.contains("`bare` runs in a sandbox"), "{run}");
}

#[test]
fn hostile_input_is_refused_escaped_and_bounded() {
    let w = World::new();
    w.write(json!({}));
    // An escape sequence in a path never reaches the terminal raw.
    let run = add(&w, "bad", &["--no-check", "--allow-read", "rel\u{1b}[2Jx"]);
    run.expect_code(2);
    assert!(!run.stderr.contains('\u{1b}'), "{run}");
    // A profile that is not a regular file, or too big, is refused at once.
    add(&w, "bad", &["--no-check", "--sandbox", "/dev/zero"])
        .expect_code(2)
        .stderr_has("not a regular file");
    let fifo = w.path("fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    add(
        &w,
        "bad",
        &["--no-check", "--sandbox", &fifo.to_string_lossy()],
    )
    .expect_code(2)
    .stderr_has("not a regular file");
    // A path over the whole file system holds mcpctl's state.
    add(&w, "bad", &["--no-check", "--allow-write", "/"])
        .expect_code(2)
        .stderr_has("mcpctl's state");
    add(
        &w,
        "bad",
        &["--no-check", "--allow-host", "a.example b.example"],
    )
    .expect_code(2)
    .stderr_has("not a host name or address");
    let big = w.path("big.json");
    std::fs::write(
        &big,
        format!("{{\"name\": \"{}\"}}", "x".repeat(300 * 1024)),
    )
    .unwrap();
    add(
        &w,
        "bad",
        &["--no-check", "--sandbox", &big.to_string_lossy()],
    )
    .expect_code(2)
    .stderr_has("larger than");
    // A symlink into mcpctl's state is its state.
    std::fs::create_dir_all(w.state()).unwrap();
    std::os::unix::fs::symlink(w.state(), w.path("link")).unwrap();
    add(&w, "bad", &["--no-check", "--allow-write", "~/link"])
        .expect_code(2)
        .stderr_has("mcpctl's state");
    // `privileged: true` in a ToolHive profile is never honoured.
    std::fs::write(w.path("priv.json"), "{\"privileged\": true}").unwrap();
    let p = w.path("priv.json").to_string_lossy().into_owned();
    add(&w, "bad", &["--no-check", "--sandbox", &p])
        .expect_code(2)
        .stderr_has("`privileged` must be false");
    assert_eq!(written(&w)["mcpServers"], json!({}));
}

/// A server with no network and only its own files that reads a planted key before it serves: the
/// refusal it prints is followed by mcpctl's note naming the path.
fn reads_a_key_then_serves(w: &World) -> String {
    let key = w.path(".ssh/id_rsa");
    std::fs::create_dir_all(key.parent().unwrap()).unwrap();
    std::fs::write(&key, "PRIVATE\n").unwrap();
    let script = format!(
        "cat '{}' >/dev/null; exec '{}'",
        key.display(),
        fixture().display()
    );
    // The fixture's directory readable (the launcher is `sh`), no network.
    let dir = fixture().parent().unwrap().to_string_lossy().into_owned();
    let profile = json!({"read": [dir]});
    w.write(json!({"s": {"command": "sh", "args": ["-c", script], "sandbox": profile}}));
    key.to_string_lossy().into_owned()
}

#[test]
fn a_refused_path_appears_in_logs_with_the_path_and_the_fix() {
    let w = World::short("sbl");
    let key = reads_a_key_then_serves(&w);
    w.ok(&["start", "s"], 0);
    let logs = w.ok(&["logs", "s"], 0);
    assert!(
        logs.contains("in sandbox profile (`mcpctl sandbox s`"),
        "{logs}"
    );
    assert!(
        logs.contains(&format!("{key}: Permission denied")),
        "{logs}"
    );
    let note = format!("[mcpctl] sandbox (profile): `{key}` was refused");
    assert!(logs.contains(&note), "{logs}");
    assert!(
        logs.contains("mcpctl sandbox s --allow-read PATH"),
        "{logs}"
    );
    w.ok(&["stop", "s"], 0);
}

#[test]
fn a_server_that_exits_on_a_refusal_names_it_in_checks_report() {
    let w = World::new();
    let key = w.path(".ssh/id_rsa");
    std::fs::create_dir_all(key.parent().unwrap()).unwrap();
    std::fs::write(&key, "PRIVATE\n").unwrap();
    let script = format!("cat '{}' || exit 3", key.display());
    w.write(json!({"s": {"command": "sh", "args": ["-c", script], "sandbox": "none"}}));
    let run = w.run(&["--file", &file(&w), "check", "s"]);
    run.expect_code(1)
        .stdout_has("exit code 3")
        .stdout_has(&format!("sandbox (none): `{}` was refused", key.display()));
}
