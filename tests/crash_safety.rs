//! A writer killed with SIGKILL in the middle of a write leaves either the
//! old file or the new file, whole. The debug build's fault hook
//! (`MCPCTL_FAULT_PAUSE`) parks the writer at a chosen point so the test can
//! kill it there.

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use support::{Sandbox, bytes};

/// Start an `add`, wait until it pauses at `stage`, SIGKILL it, and return
/// the file's bytes afterwards.
fn kill_at(sb: &Sandbox, file: &std::path::Path, stage: &str) -> Vec<u8> {
    let mut child = sb
        .command()
        .args([
            "--file",
            file.to_str().unwrap(),
            "add",
            "--no-check",
            "--name",
            "new",
            "--command",
            "sh",
        ])
        .env("MCPCTL_FAULT_PAUSE", stage)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line.trim(),
        format!("fault-injection: paused at {stage}"),
        "the hook did not fire; is this a debug build?"
    );
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
    bytes(file)
}

const OLD: &str = "{\n  \"mcpServers\": {\n    \"old\": {\"command\": \"sh\"}\n  }\n}\n";

#[test]
fn killed_mid_write_leaves_the_old_file() {
    let sb = Sandbox::new();
    let file = sb.path("s.json");
    std::fs::write(&file, OLD).unwrap();
    assert_eq!(kill_at(&sb, &file, "mid-write"), OLD.as_bytes());
    assert_eq!(kill_at(&sb, &file, "before-rename"), OLD.as_bytes());
    let doc = sb
        .run(&["--file", file.to_str().unwrap(), "list", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(doc["servers"].as_array().unwrap().len(), 1);
}

#[test]
fn killed_after_rename_leaves_the_new_file_whole() {
    let sb = Sandbox::new();
    let file = sb.path("s.json");
    std::fs::write(&file, OLD).unwrap();
    let after = String::from_utf8(kill_at(&sb, &file, "after-rename")).unwrap();
    assert!(after.contains("\"new\""), "{after}");
    let doc = sb
        .run(&["--file", file.to_str().unwrap(), "list", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(doc["servers"].as_array().unwrap().len(), 2);
}

/// The names in `dir` that end with `suffix`.
fn names_ending(dir: &std::path::Path, suffix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(suffix))
        .collect()
}

/// A writer killed before its rename leaves a temp file; the next write
/// removes it, so no litter survives.
#[test]
fn the_next_write_removes_a_killed_writers_temp_file() {
    let sb = Sandbox::new();
    let dir = sb.path("project");
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join("s.json");
    std::fs::write(&file, OLD).unwrap();
    assert_eq!(kill_at(&sb, &file, "mid-write"), OLD.as_bytes());
    let first = names_ending(&dir, ".tmp");
    assert_eq!(first.len(), 1, "the kill left no temp file to clean");
    // The second writer removes the first one's temp before it is killed too.
    assert_eq!(kill_at(&sb, &file, "before-rename"), OLD.as_bytes());
    let second = names_ending(&dir, ".tmp");
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(first, second);
    let unrelated = dir.join(".s.json.notours.tmp");
    std::fs::write(&unrelated, "keep").unwrap();
    sb.run(&[
        "--file",
        file.to_str().unwrap(),
        "add",
        "--no-check",
        "--name",
        "later",
        "--command",
        "sh",
    ])
    .expect_code(0);
    assert_eq!(names_ending(&dir, ".tmp"), [".s.json.notours.tmp"]);
    let doc = sb
        .run(&["--file", file.to_str().unwrap(), "list", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(doc["servers"].as_array().unwrap().len(), 2);
}

/// Writes lock a file in mcpctl's private state directory, keyed by the
/// canonical path: nothing but the file itself is left beside it.
#[test]
fn no_lock_file_is_left_beside_the_users_file() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let dir = sb.path("project");
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join(".mcp.json");
    let f = file.to_str().unwrap();
    sb.add_sh(f, "a");
    sb.run(&["--file", f, "disable", "a"]).expect_code(0);
    sb.run(&["--file", f, "remove", "a"]).expect_code(0);
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, [".mcp.json"]);
    let locks = sb.path("state").join("locks");
    let mode = std::fs::metadata(&locks).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "lock directory mode {mode:o}");
    assert_eq!(names_ending(&locks, ".lock").len(), 1);
    // Another spelling of the same file takes the same lock.
    let relative = sb.run_with(
        &[
            "--file",
            "./.mcp.json",
            "add",
            "--no-check",
            "--name",
            "b",
            "--command",
            "sh",
        ],
        |cmd| {
            cmd.current_dir(&dir);
        },
    );
    relative.expect_code(0);
    assert_eq!(names_ending(&locks, ".lock").len(), 1);
}
