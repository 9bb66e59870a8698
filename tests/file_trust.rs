//! Definition files the operator does not control are refused for
//! launching, as ssh refuses such a config: group- or world-writable files
//! and directories, and files owned by another uid. `--allow-insecure-file`
//! (or `MCPCTL_ALLOW_INSECURE_FILE=1`) overrides it for one run; read-only
//! verbs only warn; writes keep the file's mode and owner.

mod support;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use support::{Run, Sandbox};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `defs/servers.json` holding the fixture server as `a`, mode 0644 in a 0700 dir.
fn definitions(sb: &Sandbox) -> PathBuf {
    let dir = sb.path("defs");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o700);
    let file = dir.join("servers.json");
    let entry = serde_json::json!({"command": support::fixture().to_str().unwrap(), "args": []});
    std::fs::write(
        &file,
        serde_json::json!({"mcpServers": {"a": entry}}).to_string(),
    )
    .unwrap();
    chmod(&file, 0o644);
    file
}

/// The refusal names the path, the reason, the fix and the override.
#[track_caller]
fn assert_bad_permissions(run: &Run, path: &Path, why: &str) {
    run.expect_code(2)
        .stderr_has("error: ")
        .stderr_has(&format!("bad permissions on {}: {why}\n", path.display()))
        .stderr_has(&format!(
            "hint: fix with `chmod go-w {}`, or pass --allow-insecure-file",
            path.display()
        ));
}

/// The launching verbs that run without a supervisor.
fn one_shot_launches(f: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["--file", f, "check", "a"],
        vec!["--file", f, "check"],
        vec![
            "--file",
            f,
            "call",
            "--direct",
            "a",
            "echo",
            "--arg",
            "message=hi",
        ],
    ]
}

#[test]
fn writable_files_and_directories_are_refused_for_launching() {
    let sb = Sandbox::new();
    let file = definitions(&sb);
    let dir = file.parent().unwrap().to_path_buf();
    let f = file.to_str().unwrap();
    for args in one_shot_launches(f) {
        sb.run(&args).expect_code(0);
    }
    for (path, mode, why) in [
        (&file, 0o664, "group-writable"),
        (&file, 0o646, "world-writable"),
        (&dir, 0o770, "group-writable"),
        (&dir, 0o707, "world-writable"),
    ] {
        chmod(path, mode);
        for args in one_shot_launches(f) {
            assert_bad_permissions(&sb.run(&args), path, why);
            // The flag, or the variable, overrides the refusal for this run.
            let mut with_flag = args.clone();
            with_flag.insert(0, "--allow-insecure-file");
            sb.run(&with_flag).expect_code(0);
            sb.run_with(&args, |cmd| {
                cmd.env("MCPCTL_ALLOW_INSECURE_FILE", "1");
            })
            .expect_code(0);
        }
        // `add` refuses before its check launches anything, and writes nothing.
        let before = std::fs::read(&file).unwrap();
        let add = sb.run(&["--file", f, "add", "--name", "b", "--command", "sh"]);
        assert_bad_permissions(&add, path, why);
        assert_eq!(std::fs::read(&file).unwrap(), before);
        // Read-only verbs warn and go on.
        sb.run(&["--file", f, "list"])
            .expect_code(0)
            .stderr_has(&format!(
                "warning: bad permissions on {}: {why}",
                path.display()
            ));
        sb.run(&["--file", f, "show", "a"])
            .expect_code(0)
            .stderr_has("warning: bad permissions on");
        chmod(path, if path == &dir { 0o700 } else { 0o644 });
    }
    // A sticky world-writable directory (like /tmp) holding our own
    // private file is fine: nobody else can replace the file.
    chmod(&dir, 0o1777);
    for args in one_shot_launches(f) {
        sb.run(&args).expect_code(0);
    }
    chmod(&dir, 0o700);
}

/// `MCPCTL_ALLOW_INSECURE_FILE` lowers a guard: it takes yes and no as
/// operators write them, and a word that is neither (once read as yes) is
/// refused naming the variable, launching nothing.
#[test]
fn the_override_variable_takes_yes_and_no_words_only() {
    let sb = Sandbox::new();
    let file = definitions(&sb);
    let f = file.to_str().unwrap();
    chmod(&file, 0o646);
    let check = |value: &str| {
        sb.run_with(&["--file", f, "check", "a"], |cmd| {
            cmd.env("MCPCTL_ALLOW_INSECURE_FILE", value);
        })
    };
    for yes in ["1", "true", "yes", "on", "On"] {
        check(yes).expect_code(0);
    }
    for no in ["0", "false", "no", "off"] {
        assert_bad_permissions(&check(no), &file, "world-writable");
    }
    for neither in ["banana", "2"] {
        check(neither)
            .expect_code(2)
            .stderr_has(&format!(
                "error: invalid value '{neither}' for '--allow-insecure-file'"
            ))
            .stderr_has("hint: the value comes from MCPCTL_ALLOW_INSECURE_FILE");
    }
    chmod(&file, 0o644);
}

#[test]
fn the_supervisor_refuses_to_launch_from_a_writable_file() {
    let sb = Sandbox::new();
    let file = definitions(&sb);
    let f = file.to_str().unwrap();
    chmod(&file, 0o666);
    let why = "group- and world-writable";
    assert_bad_permissions(&sb.run(&["--file", f, "start", "a"]), &file, why);
    let status = sb.run(&["--file", f, "status", "a", "--json"]);
    status.expect_code(0);
    assert_eq!(status.json()["servers"][0]["state"], "stopped", "{status}");
    sb.run(&["--file", f, "--allow-insecure-file", "start", "a"])
        .expect_code(0);
    assert_bad_permissions(&sb.run(&["--file", f, "restart", "a"]), &file, why);
    sb.run(&["--file", f, "restart", "a", "--allow-insecure-file"])
        .expect_code(0);
    sb.run(&["--file", f, "stop", "a"]).expect_code(0);
}

#[test]
fn a_write_keeps_the_mode() {
    let sb = Sandbox::new();
    let file = definitions(&sb);
    chmod(&file, 0o640);
    let f = file.to_str().unwrap();
    sb.run(&["--file", f, "disable", "a"]).expect_code(0);
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o640);
    // A new file in a new directory is never writable by others, whatever the umask.
    let fresh = sb.path("new/dir/servers.json");
    let add = sb.run_with(
        &[
            "--file",
            fresh.to_str().unwrap(),
            "add",
            "--no-check",
            "--name",
            "b",
            "--command",
            "sh",
        ],
        |cmd| {
            cmd.env("PATH", "/usr/bin:/bin");
        },
    );
    add.expect_code(0);
    for path in [&fresh, &sb.path("new/dir"), &sb.path("new")] {
        let mode = std::fs::metadata(path).unwrap().mode();
        assert_eq!(mode & 0o022, 0, "{} is {mode:o}", path.display());
    }
}

/// Root only: the file must belong to another uid (65534, `nobody`), which
/// only root can arrange. CI runs the suite as root; anyone else sees this
/// test fail with that reason rather than pass without checking anything.
#[test]
fn a_file_owned_by_another_uid_is_refused_and_a_write_keeps_its_owner() {
    assert!(
        nix::unistd::geteuid().is_root(),
        "this test needs root (to chown a file to uid 65534); CI runs it as root"
    );
    let sb = Sandbox::new();
    let file = definitions(&sb);
    let f = file.to_str().unwrap();
    std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
    chmod(&file, 0o640);
    let check = sb.run(&["--file", f, "check", "a"]);
    check
        .expect_code(2)
        .stderr_has(&format!(
            "error: bad permissions on {}: owned by uid 65534, not by you (uid 0) or root",
            file.display()
        ))
        .stderr_has(&format!("hint: fix with `chown 0 {}`", file.display()));
    sb.run(&["--file", f, "--allow-insecure-file", "check", "a"])
        .expect_code(0);
    // Root editing the user's file leaves it the user's, with its mode.
    sb.run(&["--file", f, "disable", "a"]).expect_code(0);
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    assert_eq!(meta.mode() & 0o7777, 0o640);
    let listed = sb.run(&["--file", f, "list", "--json"]);
    assert_eq!(
        listed.json()["servers"][0]["enabled"],
        false,
        "the write happened\n{listed}"
    );
}

#[test]
fn a_writable_directory_above_the_file_is_refused() {
    let sb = Sandbox::new();
    let file = definitions(&sb);
    chmod(&file, 0o600);
    // `sandbox/q` world-writable, `sandbox/q/defs` private: whoever can
    // write `q` can swap `defs` for a directory of their own.
    let q = sb.path("q");
    std::fs::create_dir(&q).unwrap();
    let moved = q.join("defs");
    std::fs::rename(file.parent().unwrap(), &moved).unwrap();
    chmod(&q, 0o777);
    let inner = moved.join("servers.json");
    let f = inner.to_str().unwrap();
    for args in one_shot_launches(f) {
        assert_bad_permissions(&sb.run(&args), &q, "group- and world-writable");
    }
    chmod(&q, 0o755);
    sb.run(&["--file", f, "check", "a"]).expect_code(0);
}
