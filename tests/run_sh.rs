//! `bash tests/run.sh`, the test command, works for a contributor who is
//! not root (issue 9, item 10): the pinned real servers go into the
//! checkout's git-ignored `.peers/`, and a missing system tool is named with
//! how to get it, before anything is installed.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::checkout as root;

/// A copy of the script in an empty project, so that what it creates shows.
fn script_copy(dir: &Path) -> PathBuf {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    let copy = tests.join("run.sh");
    std::fs::copy(root().join("tests/run.sh"), &copy).unwrap();
    copy
}

/// PATH with only `dirname` (the script's first command): every tool the
/// suite needs is missing.
fn bare_path(dir: &Path) -> PathBuf {
    let bin = dir.join("bare-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let dirname = which::which("dirname").expect("dirname");
    std::os::unix::fs::symlink(dirname, bin.join("dirname")).unwrap();
    bin
}

#[test]
fn missing_system_tools_are_named_with_how_to_get_them() {
    let dir = tempfile::tempdir().unwrap();
    let script = script_copy(dir.path());
    let bin = bare_path(dir.path());
    let bash = which::which("bash").expect("bash");
    for (args, cargo_named) in [(&["--peers-only"][..], false), (&[][..], true)] {
        let out = Command::new(&bash)
            .arg(&script)
            .args(args)
            .env_clear()
            .env("PATH", &bin)
            .env("HOME", dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        for (tool, how) in [
            ("node", "apt-get install nodejs npm"),
            ("npm", "apt-get install npm"),
            ("python3", "python3-venv"),
            ("script", "apt-get install bsdutils"),
            ("curl", "apt-get install curl"),
            ("time", "apt-get install time"),
        ] {
            assert!(
                stderr.contains(&format!("  - {tool} (")) && stderr.contains(how),
                "{tool} not named with `{how}`:\n{stderr}"
            );
        }
        assert_eq!(stderr.contains("  - cargo (Rust"), cargo_named, "{stderr}");
        assert!(
            !dir.path().join(".peers").exists(),
            "it installed before naming what is missing"
        );
    }
}

#[test]
fn peers_live_in_the_checkout_and_come_first_on_path() {
    let out = Command::new("bash")
        .arg(root().join("tests/run.sh"))
        .arg("--peers-only")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let exports = String::from_utf8(out.stdout).unwrap();
    assert!(exports.starts_with("export PATH="), "{exports}");
    // What a contributor's shell sees after `eval "$(bash tests/run.sh --peers-only)"`,
    // with nothing of this process's environment but HOME.
    let probe = r#"eval "$EXPORTS"
        command -v mcp-server-everything
        command -v uvx
        uvx --version
        env -i HOME="$HOME" PATH="$PATH" uv cache dir"#;
    let shell = Command::new("bash")
        .args(["-c", probe])
        .env_clear()
        .env("HOME", std::env::var_os("HOME").unwrap_or_default())
        .env("EXPORTS", &exports)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&shell.stdout);
    assert!(
        shell.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&shell.stderr)
    );
    let lines: Vec<&str> = said.lines().collect();
    let peers = root().join(".peers");
    let peers = peers.to_str().unwrap();
    assert!(lines[0].starts_with(peers), "{said}");
    assert!(lines[0].ends_with("/mcp-server-everything"), "{said}");
    assert_eq!(lines[1], format!("{peers}/bin/uvx"), "{said}");
    assert!(lines[2].starts_with("uvx 0.13.9"), "{said}");
    assert_eq!(lines[3], format!("{peers}/uv/cache"), "{said}");
    // Never committed.
    let ignored = Command::new("git")
        .args(["check-ignore", "-q", ".peers/bin/uvx"])
        .current_dir(root())
        .status()
        .unwrap();
    assert!(ignored.success(), ".peers is not git-ignored");
}

/// Issue 21: the ignored tests of every file are named with their reason
/// (read from the source, so no build is needed), which is what run.sh
/// prints when it cannot run them, and what it runs as root.
#[test]
fn ignored_tests_of_every_file_are_listed_with_their_reason() {
    let dir = tempfile::tempdir().unwrap();
    let script = script_copy(dir.path());
    std::fs::write(
        dir.path().join("tests/alpha.rs"),
        "#[test]\n#[ignore = \"needs root to bind port 80\"]\nfn binds_a_low_port() {}\n\n#[test]\nfn runs_always() {}\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn slow_one() {}\n}\n",
    )
    .unwrap();
    let bin = bare_path(dir.path());
    for tool in ["find", "sort", "xargs", "awk"] {
        let path = which::which(tool).unwrap_or_else(|_| panic!("{tool}"));
        std::os::unix::fs::symlink(path, bin.join(tool)).unwrap();
    }
    let out = Command::new(which::which("bash").expect("bash"))
        .arg(&script)
        .arg("--list-ignored")
        .env_clear()
        .env("PATH", &bin)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "  - src/lib.rs: slow_one (no reason given)",
            "  - tests/alpha.rs: binds_a_low_port (needs root to bind port 80)",
        ],
        "{stdout}"
    );
    // As root every file's ignored tests run, not one file's; otherwise
    // each one that did not run is named.
    let text = std::fs::read_to_string(root().join("tests/run.sh")).unwrap();
    assert!(
        text.contains("cargo test --locked -- --ignored\n"),
        "{text}"
    );
    assert!(!text.contains("--test supervisor -- --ignored"), "{text}");
    assert!(
        text.contains("so these ignored tests did not run"),
        "{text}"
    );
}
