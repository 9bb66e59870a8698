//! What a launched stdio server inherits (issue 9, item 6): the proxy and CA
//! variables pass through by default, other variables only when named in
//! `MCPCTL_INHERIT_ENV`, which every spawn failure's hint and the help, man
//! page and README name.

mod support;

use support::Sandbox;

const NETWORK: &[(&str, &str)] = &[
    ("HTTP_PROXY", "http://proxy.test:3128"),
    ("HTTPS_PROXY", "http://proxy.test:3129"),
    ("NO_PROXY", "localhost,.corp"),
    ("http_proxy", "http://proxy.test:3130"),
    ("https_proxy", "http://proxy.test:3131"),
    ("no_proxy", "127.0.0.1"),
    ("SSL_CERT_FILE", "/etc/corp/ca.pem"),
    ("SSL_CERT_DIR", "/etc/corp/certs"),
    ("NODE_EXTRA_CA_CERTS", "/etc/corp/node-ca.pem"),
    ("REQUESTS_CA_BUNDLE", "/etc/corp/requests-ca.pem"),
];

fn write_defs(sb: &Sandbox, servers: serde_json::Value) -> String {
    let path = sb.path("servers.json");
    std::fs::write(
        &path,
        serde_json::json!({ "mcpServers": servers }).to_string(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn proxy_and_ca_variables_reach_the_server_without_being_listed() {
    let sb = Sandbox::new();
    // Prints what it got on stderr (shown in the failure), then exits.
    let file = write_defs(
        &sb,
        serde_json::json!({"envdump": {"command": "sh", "args": ["-c", "env | sort >&2; exit 7"]}}),
    );
    let run = sb.run_with(&["--file", &file, "check"], |cmd| {
        cmd.env_remove("MCPCTL_INHERIT_ENV")
            .env("MCPCTL_TEST_UNLISTED", "kept-back");
        for (name, value) in NETWORK {
            cmd.env(name, value);
        }
    });
    run.expect_code(1);
    let shown = format!("{}{}", run.stdout, run.stderr);
    for (name, value) in NETWORK {
        assert!(
            shown.contains(&format!("{name}={value}")),
            "{name} missing\n{run}"
        );
    }
    assert!(!shown.contains("kept-back"), "{run}");
}

#[test]
fn every_spawn_failure_hint_names_mcpctl_inherit_env() {
    let sb = Sandbox::new();
    // A regular file without the execute bit: the spawn itself fails.
    let not_exec = sb.path("not-exec.sh");
    std::fs::write(&not_exec, "#!/bin/sh\n").unwrap();
    let file = write_defs(
        &sb,
        serde_json::json!({
            "exits": {"command": "sh", "args": ["-c", "echo needs FOO_TOKEN >&2; exit 3"]},
            "missing": {"command": "mcpctl-test-no-such-launcher"},
            "not-exec": {"command": not_exec},
        }),
    );
    for name in ["exits", "missing", "not-exec"] {
        let run = sb.run(&["--file", &file, "check", name]);
        run.expect_code(1);
        let shown = format!("{}{}", run.stdout, run.stderr);
        assert!(
            shown.contains("hint:") && shown.contains("MCPCTL_INHERIT_ENV"),
            "{name}: the hint does not name MCPCTL_INHERIT_ENV\n{run}"
        );
    }
    // Through the supervisor too, where the supervisor's environment counts.
    let start = sb.run(&["--file", &file, "start", "exits"]);
    let stop = sb.run(&["--file", &file, "supervisor", "stop"]);
    start.expect_code(1).stderr_has("MCPCTL_INHERIT_ENV");
    stop.expect_code(0);
}

#[test]
fn help_man_page_and_readme_document_mcpctl_inherit_env() {
    let sb = Sandbox::new();
    let help = sb.run(&["--help"]);
    help.expect_code(0).stdout_has("MCPCTL_INHERIT_ENV");
    for needle in ["HTTPS_PROXY", "NODE_EXTRA_CA_CERTS"] {
        help.stdout_has(needle);
    }
    sb.run(&["check", "--help"])
        .expect_code(0)
        .stdout_has("MCPCTL_INHERIT_ENV");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["man/mcpctl.1", "man/mcpctl-check.1", "README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(text.contains("MCPCTL_INHERIT_ENV"), "{doc}");
        assert!(text.contains("NODE_EXTRA_CA_CERTS"), "{doc}");
    }
}
