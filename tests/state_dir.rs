//! One rule for mcpctl's own files: a `MCPCTL_STATE_DIR` that is shared
//! (open to others) is left alone and a private `mcpctl-<uid>` inside it is
//! used, by the token store as by the supervisor and the write locks. A
//! token file planted in the shared directory is never read.

mod support;

use std::os::unix::fs::PermissionsExt;

use support::{Sandbox, files_under};

#[test]
fn the_token_store_keeps_to_the_private_subdirectory_of_a_shared_state_dir() {
    let sandbox = Sandbox::new();
    let shared = sandbox.shared_state();
    let planted = shared.join("oauth.json");
    std::fs::write(&planted, "planted by another user\n").unwrap();
    sandbox
        .run(&[
            "--file",
            "s.json",
            "add",
            "--no-check",
            "--name",
            "remote",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--auth",
            "oauth",
        ])
        .expect_code(0);

    let status = sandbox.run(&["--file", "s.json", "auth", "status", "--json"]);
    status.expect_code(0);
    let servers = status.json()["servers"].clone();
    assert_eq!(servers[0]["name"], "remote", "{status}");
    assert_eq!(servers[0]["signed_in"], false, "{status}");
    assert_eq!(
        std::fs::read_to_string(&planted).unwrap(),
        "planted by another user\n",
        "the planted file is left as it was"
    );
    let mode = std::fs::metadata(&shared).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o1777, "the shared directory is never chmod-ed");
}

/// Attack (issue 20): a `mcpctl-<uid>` planted in a shared state directory
/// as a link to a directory of ours is never followed, by the supervisor,
/// the definition files' write locks or the token store: each refuses,
/// naming the path and what is wrong, with a hint, and the linked directory
/// is neither chmod-ed, written nor read (a token file in it stays unread).
#[test]
fn a_planted_link_in_place_of_the_private_subdirectory_is_never_followed() {
    let sandbox = Sandbox::new();
    let shared = sandbox.shared_state();
    let victim = sandbox.path("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(victim.join("oauth.json"), "planted\n").unwrap();
    let planted = shared.join(format!("mcpctl-{}", nix::unistd::geteuid()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    sandbox
        .write(serde_json::json!({"remote": {"url": "http://127.0.0.1:9/mcp", "auth": "oauth"}}));
    let shown = planted.display().to_string();
    for args in [
        &["auth", "status", "--json"][..],
        &["supervisor", "start"],
        &[
            "add",
            "--no-check",
            "--name",
            "b",
            "--url",
            "http://127.0.0.1:9/b",
        ],
    ] {
        let run = sandbox.run(args);
        assert_ne!(run.code, 0, "{args:?}\n{run}");
        run.stderr_has(&shown)
            .stderr_has("is a symbolic link")
            .stderr_has("hint: remove");
    }
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o755, "the linked directory is never chmod-ed");
    assert_eq!(
        files_under(&victim),
        [victim.join("oauth.json")],
        "nothing is written through the link"
    );
}

/// A `mcpctl-<uid>` of ours that is open to others (made by hand, or by
/// another tool) is refused with the `chmod` to run, never chmod-ed by
/// mcpctl; once private it is used.
#[test]
fn an_open_private_subdirectory_is_refused_with_the_chmod_to_run() {
    let sandbox = Sandbox::new();
    let shared = sandbox.shared_state();
    let private = shared.join(format!("mcpctl-{}", nix::unistd::geteuid()));
    std::fs::create_dir(&private).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
    sandbox
        .write(serde_json::json!({"remote": {"url": "http://127.0.0.1:9/mcp", "auth": "oauth"}}));
    let run = sandbox.run(&["auth", "status", "--json"]);
    assert_ne!(run.code, 0, "{run}");
    run.stderr_has(&format!(
        "{} is open to others (mode 755)",
        private.display()
    ))
    .stderr_has(&format!(
        "hint: if {0} is yours, run `chmod 700 {0}`",
        private.display()
    ));
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o7777;
    assert_eq!(
        mode, 0o755,
        "mcpctl never chmods a directory it did not create"
    );
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    sandbox.run(&["auth", "status", "--json"]).expect_code(0);
}
