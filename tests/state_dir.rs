//! One rule for mcpctl's own files: a `MCPCTL_STATE_DIR` that is shared
//! (open to others) is left alone and a private `mcpctl-<uid>` inside it is
//! used, by the token store as by the supervisor and the write locks. A
//! token file planted in the shared directory is never read.

mod support;

use std::os::unix::fs::PermissionsExt;

use support::Sandbox;

#[test]
fn the_token_store_keeps_to_the_private_subdirectory_of_a_shared_state_dir() {
    let sandbox = Sandbox::new();
    let shared = sandbox.path("state");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
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
