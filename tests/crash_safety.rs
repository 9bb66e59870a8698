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
