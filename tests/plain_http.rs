//! Plain `http://` where operators use it (issue 9, item 5): loopback as
//! before; private, link-local, single-label and `.internal`/`.local` hosts
//! accepted with a warning; a public host only with `--allow-http`. Every
//! add here is `--no-check`: nothing is sent anywhere.

mod support;

use support::Sandbox;

fn add_url(sb: &Sandbox, file: &str, name: &str, url: &str, extra: &[&str]) -> support::Run {
    let mut args = vec![
        "--file",
        file,
        "add",
        "--no-check",
        "--name",
        name,
        "--url",
        url,
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

#[test]
fn http_to_a_compose_service_is_added_with_a_warning() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    add_url(&sb, f, "gateway", "http://mcp-gateway:8080/mcp", &[])
        .expect_code(0)
        .stderr_has("warning: `http://mcp-gateway:8080/mcp` uses plain http to a single-label host")
        .stdout_has("added `gateway`");
    // Claude Code's spelling of the same.
    sb.run(&[
        "--file",
        f,
        "add",
        "--no-check",
        "-t",
        "http",
        "gw2",
        "http://mcp-gateway:8080/mcp",
    ])
    .expect_code(0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\"url\": \"http://mcp-gateway:8080/mcp\""),
        "{text}"
    );
}

#[test]
fn private_link_local_and_local_domains_are_accepted_with_a_warning() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    let cases = [
        ("ten", "http://10.0.0.5:8080/mcp", "a private address"),
        (
            "one-seven-two",
            "http://172.20.1.1/mcp",
            "a private address",
        ),
        ("home", "http://192.168.1.20:3000/mcp", "a private address"),
        ("ula", "http://[fd00::5]:8080/mcp", "a private address"),
        ("link", "http://169.254.10.2/mcp", "a link-local address"),
        ("link6", "http://[fe80::1]:8080/mcp", "a link-local address"),
        (
            "internal",
            "http://mcp.corp.internal/mcp",
            "a local-only domain",
        ),
        ("mdns", "http://nas.local:8080/mcp", "a local-only domain"),
    ];
    for (name, url, kind) in cases {
        add_url(&sb, f, name, url, &[])
            .expect_code(0)
            .stderr_has(&format!("uses plain http to {kind}"));
    }
    let list = sb.run(&["--file", f, "list", "--json"]).json();
    assert_eq!(list["servers"].as_array().unwrap().len(), cases.len());
    // Loopback stays silent, as before.
    let quiet = add_url(&sb, f, "local", "http://127.0.0.1:3001/mcp", &[]);
    quiet.expect_code(0);
    assert!(!quiet.stderr.contains("warning"), "{quiet}");
}

#[test]
fn a_public_host_needs_allow_http() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    // 203.0.113.0/24 is a documentation range: public, and never reached.
    add_url(&sb, f, "public", "http://203.0.113.7/mcp", &[])
        .expect_code(2)
        .stderr_has("uses plain http to a public host")
        .stderr_has("--allow-http");
    add_url(&sb, f, "public", "http://203.0.113.7/mcp", &["--force"]).expect_code(2);
    assert!(!file.exists(), "a refused add wrote the file");
    let run = add_url(
        &sb,
        f,
        "public",
        "http://203.0.113.7/mcp",
        &["--allow-http", "--json"],
    );
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["warnings"][0]["rule"], "url", "{run}");
    assert!(
        doc["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("plain http to a public host"),
        "{run}"
    );
}
