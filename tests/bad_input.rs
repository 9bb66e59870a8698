//! Malformed and hostile definition files: each gives a clear error that
//! names the file (with line and column where there is one), and the file
//! is left byte-for-byte as it was, even when the command wanted to write.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use support::{Run, Sandbox, bytes};

/// Run a read (`list`) and a write (`add`) against `file`; both must fail
/// with `code`, mention `needle`, and leave the bytes untouched.
#[track_caller]
fn assert_refused(sb: &Sandbox, file: &Path, code: i32, needle: &str) -> Run {
    let before = std::fs::symlink_metadata(file)
        .ok()
        .map(|_| std::fs::read(file).ok());
    let f = file.to_str().unwrap();
    let list = sb.run(&["--file", f, "list"]);
    list.expect_code(code)
        .stderr_has(needle)
        .stderr_has("error: ");
    let add = sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "--name",
        "new",
        "--command",
        "sh",
    ]);
    add.expect_code(code).stderr_has(needle);
    let after = std::fs::symlink_metadata(file)
        .ok()
        .map(|_| std::fs::read(file).ok());
    assert_eq!(before, after, "file changed");
    let dir = file.parent().unwrap();
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
    list
}

fn write(sb: &Sandbox, name: &str, content: &[u8]) -> PathBuf {
    let path = sb.path(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn invalid_json_syntax() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"{\n  \"a\": {\"command\": \"sh\"\n");
    let run = assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:3:1: EOF while parsing", f.display()),
    );
    run.stderr_has("hint: fix the file by hand at that position");
}

#[test]
fn invalid_yaml_syntax() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.yaml",
        b"mcpServers:\n  a:\n    command: sh\n    args: [sh\n    env: x\n",
    );
    assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:5:8: did not find expected ',' or ']'", f.display()),
    );
}

#[test]
fn wrong_field_type_points_at_it() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\"mcpServers\": {\n  \"a\": {\"command\": \"sh\", \"args\": \"-y pkg\"}\n}}\n",
    );
    assert_refused(&sb, &f, 2, "a.json:2:")
        .stderr_has("invalid type: string \"-y pkg\", expected a sequence");
}

#[test]
fn empty_file() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"");
    assert_refused(&sb, &f, 2, "the file is empty")
        .stderr_has("hint: write `{\"mcpServers\": {}}` into it");
}

#[test]
fn not_utf8() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"{\"a\": {\"command\": \"sh\xff\xfe\"}}");
    assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:1:22: the file is not valid UTF-8 text", f.display()),
    );
}

#[test]
fn binary_file_with_nul_bytes() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
    assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:1:1: the file is not valid UTF-8 text", f.display()),
    );
}

#[test]
fn fifty_megabyte_file() {
    let sb = Sandbox::new();
    let path = sb.path("big.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(50 * 1024 * 1024).unwrap();
    drop(file);
    assert_refused(&sb, &path, 2, "more than the 16777216-byte limit")
        .stderr_has("hint: is this the right file?");
}

#[test]
fn duplicate_server_key_json() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\"mcpServers\": {\n\"a\": {\"command\": \"sh\"},\n\"a\": {\"command\": \"cat\"}}}",
    );
    assert_refused(&sb, &f, 2, "duplicate key `a`").stderr_has("a.json:3:");
}

#[test]
fn duplicate_key_yaml() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.yaml",
        b"mcpServers:\n  a:\n    command: sh\n  a:\n    command: cat\n",
    );
    assert_refused(&sb, &f, 2, "duplicate");
}

#[test]
fn duplicate_env_key() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\"a\": {\"command\": \"sh\", \"env\": {\"K\": \"1\", \"K\": \"2\"}}}",
    );
    assert_refused(&sb, &f, 2, "duplicate key `K`");
}

#[test]
fn top_level_array() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"[{\"command\": \"sh\"}]");
    assert_refused(
        &sb,
        &f,
        2,
        "expected a map of server names to definitions, or a map with an `mcpServers` key",
    );
}

#[test]
fn top_level_scalar_yaml() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.yaml", b"just a string\n");
    assert_refused(&sb, &f, 2, "expected a map of server names");
}

#[test]
fn symlink_loop() {
    let sb = Sandbox::new();
    let a = sb.path("loop-a.json");
    let b = sb.path("loop-b.json");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert_refused(&sb, &a, 1, "symbolic links");
}

#[test]
fn directory_instead_of_file() {
    let sb = Sandbox::new();
    let dir = sb.path("servers.json");
    std::fs::create_dir(&dir).unwrap();
    let run = sb.run(&["--file", dir.to_str().unwrap(), "list"]);
    run.expect_code(2)
        .stderr_has("is a directory, not a definition file");
    sb.run(&[
        "--file",
        dir.to_str().unwrap(),
        "add",
        "--no-check",
        "--command",
        "sh",
    ])
    .expect_code(2)
    .stderr_has("is a directory, not a definition file");
    assert!(dir.is_dir());
}

#[test]
fn unknown_transport() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\n  \"a\": {\"transport\": \"websocket\", \"url\": \"wss://x\"}\n}",
    );
    assert_refused(
        &sb,
        &f,
        2,
        &format!(
            "{}:2:3: server `a`: unknown transport `websocket`",
            f.display()
        ),
    );
}

#[test]
fn command_and_url_together() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.yaml",
        b"mcpServers:\n  a:\n    command: sh\n    url: https://x.test/mcp\n",
    );
    assert_refused(&sb, &f, 2, "server `a`: a stdio server cannot have a `url`");
}

#[test]
fn entry_that_is_not_an_object() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"{\"mcpServers\": {\"a\": \"npx -y pkg\"}}");
    assert_refused(
        &sb,
        &f,
        2,
        "expected a server definition (an object with `command` or `url`)",
    )
    .stderr_has("a.json:1:");
}

#[test]
fn negative_timeout() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\"a\": {\"command\": \"sh\", \"connect_timeout\": -5}}",
    );
    assert_refused(
        &sb,
        &f,
        2,
        "a.json:1:2: server `a`: `connect_timeout` must be a positive number of seconds, not -5",
    );
}

#[test]
fn trailing_garbage() {
    let sb = Sandbox::new();
    let f = write(&sb, "a.json", b"{\"a\": {\"command\": \"sh\"}} trailing");
    assert_refused(&sb, &f, 2, "trailing characters");
}

#[test]
fn yaml_alias_bomb() {
    let sb = Sandbox::new();
    let mut doc = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
    let mut prev = "a";
    for name in names {
        doc.push_str(&format!("{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        prev = name;
    }
    let f = write(&sb, "bomb.yaml", doc.as_bytes());
    // Refused for what it is, at once: expanding the aliases would take
    // 9^9 strings, minutes and gigabytes.
    let t0 = std::time::Instant::now();
    assert_refused(
        &sb,
        &f,
        2,
        &format!(
            "{}:1:4: a: invalid type: sequence, expected a server definition",
            f.display()
        ),
    );
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t0.elapsed()
    );
    // The same bomb in unknown fields of a valid entry is never expanded:
    // the file is listed and edited at once.
    let mut doc = String::from("mcpServers:\n  a:\n    command: sh\n");
    doc.push_str(
        "    x-a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut prev = "a";
    for name in names {
        doc.push_str(&format!("    x-{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        prev = name;
    }
    let f = write(&sb, "inner.yaml", doc.as_bytes());
    let t0 = std::time::Instant::now();
    let file = f.to_str().unwrap();
    sb.run(&["--file", file, "list"])
        .expect_code(0)
        .stdout_has("inner.yaml");
    sb.add_sh(file, "b");
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t0.elapsed()
    );
    let after = String::from_utf8(bytes(&f)).unwrap();
    assert!(after.starts_with(&doc), "{after}");
}

/// Root ignores file permissions, so permission tests drop to `nobody`.
fn as_unprivileged(cmd: &mut std::process::Command) {
    if nix::unistd::Uid::effective().is_root() {
        std::os::unix::process::CommandExt::uid(cmd, 65534);
        std::os::unix::process::CommandExt::gid(cmd, 65534);
    }
}

fn open_sandbox() -> Sandbox {
    let sb = Sandbox::new();
    std::fs::set_permissions(sb.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    sb
}

#[test]
fn unreadable_file() {
    let sb = open_sandbox();
    let f = write(&sb, "a.json", b"{\"a\": {\"command\": \"sh\"}}");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o000)).unwrap();
    let before = bytes(&f);
    let run = sb.run_with(&["--file", f.to_str().unwrap(), "list"], as_unprivileged);
    run.expect_code(1)
        .stderr_has(&format!(
            "error: {}: cannot open: Permission denied",
            f.display()
        ))
        .stderr_has("hint: check the permissions of");
    sb.run_with(
        &[
            "--file",
            f.to_str().unwrap(),
            "add",
            "--no-check",
            "--command",
            "sh",
        ],
        as_unprivileged,
    )
    .expect_code(1)
    .stderr_has("cannot open: Permission denied");
    assert_eq!(bytes(&f), before);
}

#[test]
fn read_only_directory() {
    let sb = open_sandbox();
    let dir = sb.path("ro");
    std::fs::create_dir(&dir).unwrap();
    let f = dir.join("s.json");
    std::fs::write(&f, b"{\"mcpServers\": {\"a\": {\"command\": \"sh\"}}}\n").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = bytes(&f);
    let run = sb.run_with(
        &[
            "--file",
            f.to_str().unwrap(),
            "add",
            "--no-check",
            "--name",
            "b",
            "--command",
            "sh",
        ],
        as_unprivileged,
    );
    run.expect_code(1)
        .stderr_has("Permission denied")
        .stderr_has("hint: check the permissions of");
    assert_eq!(bytes(&f), before);
    sb.run_with(&["--file", f.to_str().unwrap(), "list"], as_unprivileged)
        .expect_code(0);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn timeout_that_is_not_a_number() {
    let sb = Sandbox::new();
    let f = write(
        &sb,
        "a.json",
        b"{\"a\": {\"command\": \"sh\", \"connect_timeout\": \"ten\"}}",
    );
    assert_refused(
        &sb,
        &f,
        2,
        "a.json:1:48: invalid type: string \"ten\", expected a number of seconds",
    );
}

/// JSON is JSONC (comments, trailing commas) and nothing looser: each
/// JSON5-ism is refused at its position, in words, and never rewritten.
#[test]
fn json_is_read_as_jsonc_and_nothing_looser() {
    let sb = Sandbox::new();
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "comma.json",
            b"{\"mcpServers\": {\n  \"a\": {\"command\": \"sh\"}\n  \"b\": {\"command\": \"sh\"}\n}}\n",
            "comma.json:2:25: missing comma between items",
        ),
        (
            "quotes.json",
            b"{\"mcpServers\": {\n  'a': {\"command\": \"sh\"}\n}}\n",
            "quotes.json:2:3: single-quoted strings are not JSON; use double quotes",
        ),
        (
            "hex.json",
            b"{\"mcpServers\": {\n  \"a\": {\"command\": \"sh\", \"connect_timeout\": 0x10}\n}}\n",
            "hex.json:2:45: hexadecimal numbers are not JSON; write the number in decimal",
        ),
        (
            "bare.json",
            b"// servers\n{\"mcpServers\": {\n  a: {\"command\": \"sh\"}\n}}\n",
            "bare.json:3:3: object keys must be double-quoted strings",
        ),
        (
            "comment-then-comma.json",
            b"// servers\n{\"mcpServers\": {\n  \"a\": {\"command\": \"sh\"} \"b\": {}\n}}\n",
            "comment-then-comma.json:3:25: missing comma between items",
        ),
    ];
    for (name, content, reason) in cases {
        let f = write(&sb, name, content);
        assert_refused(&sb, &f, 2, reason)
            .stderr_has("hint: fix the file by hand at that position");
    }
    let jsonc = write(
        &sb,
        "ok.json",
        b"{\n  // a comment\n  \"mcpServers\": {\"a\": {\"command\": \"sh\",},}, /* trailing */\n}\n",
    );
    sb.run(&["--file", jsonc.to_str().unwrap(), "list", "--json"])
        .expect_code(0)
        .stdout_has("\"name\": \"a\"");
}

/// Too deep a file is refused before any parser runs, at the bracket or key
/// that goes too deep, and never with a parser's confused "1:1 expected value".
#[test]
fn deep_nesting_is_refused_early_with_its_position() {
    let sb = Sandbox::new();
    let mut jsonc = String::from("// a comment first\n{\"a\": {\"command\": \"sh\", \"x\": ");
    jsonc.push_str(&"[".repeat(1_000));
    jsonc.push_str(&"]".repeat(1_000));
    jsonc.push_str("}}\n");
    let f = write(&sb, "deep.json", jsonc.as_bytes());
    // `{` `{` and 62 `[` fit in 64 levels; the 63rd `[` (column 30 + 62) does not.
    assert_refused(
        &sb,
        &f,
        2,
        &format!(
            "{}:2:92: nested deeper than 64 levels; a definition file needs only a few",
            f.display()
        ),
    );

    // Plain JSON, deep inside a known field: still the nesting error.
    let mut plain = String::from("{\"a\": {\"command\": \"sh\", \"args\": ");
    plain.push_str(&"[".repeat(10_000));
    plain.push_str(&"]".repeat(10_000));
    plain.push_str("}}");
    let f = write(&sb, "plain.json", plain.as_bytes());
    assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:1:95: nested deeper than 64 levels", f.display()),
    );

    let mut block = String::from("mcpServers:\n  a:\n    command: sh\n    x:\n");
    for level in 0..100 {
        block.push_str(&format!("{}k:\n", " ".repeat(6 + 2 * level)));
    }
    let f = write(&sb, "deep.yaml", block.as_bytes());
    assert_refused(&sb, &f, 2, "nested deeper than 64 levels");

    let flow = format!(
        "mcpServers:\n  a:\n    command: sh\n    x: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let f = write(&sb, "flow.yaml", flow.as_bytes());
    let started = std::time::Instant::now();
    assert_refused(
        &sb,
        &f,
        2,
        &format!("{}:4:69: nested deeper than 64 levels", f.display()),
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "refusing took {:?}",
        started.elapsed()
    );
}

/// Run mcpctl `args`; fail the test (after killing it) if it has not ended
/// within `limit`, which is how a read that blocks shows up.
fn run_within(sb: &Sandbox, args: &[&str], limit: std::time::Duration) -> Run {
    let mut child = sb
        .command()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ended = support::wait_until(support::after(limit), || {
        child.try_wait().unwrap().is_some()
    });
    if !ended {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("mcpctl {args:?} still running after {limit:?}: it blocked");
    }
    support::to_run(child.wait_with_output().unwrap())
}

/// A FIFO or a device given as the definition file is refused at once,
/// saying what it is; reading it would block, or never end.
#[test]
fn fifo_and_device_are_refused_without_blocking() {
    let sb = Sandbox::new();
    let fifo = sb.path("servers.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let limit = std::time::Duration::from_secs(20);
    for verb in [&["list"][..], &["add", "--no-check", "--command", "sh"]] {
        let mut args = vec!["--file", fifo.to_str().unwrap()];
        args.extend_from_slice(verb);
        run_within(&sb, &args, limit)
            .expect_code(2)
            .stderr_has(&format!(
                "error: {}: is a named pipe (FIFO), not a regular file",
                fifo.display()
            ))
            .stderr_has("hint: pass the definition file itself with --file PATH");
    }
    run_within(&sb, &["--file", "/dev/zero", "list"], limit)
        .expect_code(2)
        .stderr_has("error: /dev/zero: is a character device, not a regular file");
    let leftovers: Vec<_> = std::fs::read_dir(sb.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
