//! `mcpctl search` as a whole process against the loopback registry.

mod support;

use std::process::Output;

use serde_json::Value;
use support::{TestRegistry, World};

fn mcpctl(w: &World, registry: &str, args: &[&str]) -> Output {
    mcpctl_with_timeout(w, registry, args, "5")
}

fn mcpctl_with_timeout(w: &World, registry: &str, args: &[&str], timeout: &str) -> Output {
    let cache = w.dir.path();
    w.command()
        .args(args)
        .env("MCPCTL_REGISTRY_URL", registry)
        .env("MCPCTL_CACHE_DIR", cache)
        .env("MCPCTL_FILE", cache.join("servers.json"))
        .env("MCPCTL_REGISTRY_TIMEOUT", timeout)
        .env("COLUMNS", "60")
        .env_remove("CI")
        .output()
        .expect("run mcpctl")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn search_shows_every_page_with_install_forms_and_hides_the_deprecated() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(&w, &registry.url, &["search", "io.github", "--all"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    for expected in [
        "io.github.modelcontextprotocol/server-everything  2026.8.31  active",
        "  npm:@modelcontextprotocol/server-everything@2026.8.31",
        "  npm:@modelcontextprotocol/server-everything@2026.8.31 (streamable-http)",
        "  oci:ghcr.io/github/github-mcp-server:0.20.2",
        "  pypi:weather-mcp-server==0.5.0",
        "  pypi:mcp-server-time==2026.10.19",
        "  nuget:Knapcode.SampleMcpServer@0.5.0 (mcpctl cannot install this kind)",
        "io.github.github/github-mcp-server  0.20.2  active  \"GitHub MCP Server\"",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
    assert!(!stdout.contains("old-weather"), "{stdout}");
    assert!(!stdout.contains("io.github.broken/entry"), "{stdout}");
    assert!(
        stderr.contains("warning: skipped malformed entry")
            && stderr.contains("io.github.broken/entry"),
        "{stderr}"
    );
    assert!(
        stderr.contains("6 results; 1 deprecated or deleted hidden"),
        "{stderr}"
    );
    assert_eq!(registry.hits(), 3, "three pages");
    // Descriptions are cut to the width (COLUMNS=60 when not a terminal).
    for line in stdout.lines() {
        let install_form = ["npm:", "pypi:", "oci:", "nuget:", "remote:"]
            .iter()
            .any(|p| line.trim_start().starts_with(p));
        if line.starts_with("  ") && !install_form {
            assert!(line.chars().count() <= 60, "{line:?}");
        }
    }
    assert!(stdout.contains("…"), "the long GitHub description is cut");
}

#[test]
fn a_remote_only_entry_shows_its_transport_and_url() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(&w, &registry.url, &["search", "acme"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("com.example/acme-analytics  2.0.0  active  \"ACME Analytics\""));
    assert!(stdout.contains("  remote: streamable-http https://analytics.example.com/mcp"));
}

#[test]
fn include_deprecated_shows_the_status() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(
        &w,
        &registry.url,
        &["search", "weather", "--include-deprecated"],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("io.github.example/old-weather  0.9.5  deprecated"),
        "{stdout}"
    );
}

#[test]
fn json_output_is_one_parseable_document() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(
        &w,
        &registry.url,
        &["search", "io.github", "--all", "--json"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["registry"], registry.url.as_str());
    let servers = doc["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 6);
    let github = servers
        .iter()
        .find(|s| s["name"] == "io.github.github/github-mcp-server")
        .unwrap();
    assert_eq!(github["status"], "active");
    assert_eq!(
        github["install"][0],
        "oci:ghcr.io/github/github-mcp-server:0.20.2"
    );
    assert_eq!(doc["hidden"], 1);
    assert_eq!(doc["warnings"].as_array().unwrap().len(), 1);
}

#[test]
fn a_limit_says_how_to_see_more() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(&w, &registry.url, &["search", "io.github", "--limit", "2"]);
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| !l.starts_with(' ') && !l.is_empty())
            .count(),
        2
    );
    assert!(text(&out.stderr).contains("more match: --limit 4 or --all"));
}

#[test]
fn the_second_search_is_served_from_the_cache_and_refresh_bypasses_it() {
    let registry = TestRegistry::start();
    let w = World::new();
    let first = mcpctl(&w, &registry.url, &["search", "io.github", "--all"]);
    assert_eq!(registry.hits(), 3);
    let second = mcpctl(&w, &registry.url, &["search", "io.github", "--all"]);
    assert_eq!(registry.hits(), 3, "no request on a warm cache");
    assert_eq!(first.stdout, second.stdout);
    mcpctl(
        &w,
        &registry.url,
        &["search", "io.github", "--all", "--refresh"],
    );
    assert_eq!(registry.hits(), 6);
    assert!(w.dir.path().join("registry").is_dir());
}

#[test]
fn registry_failures_exit_1_with_a_hint() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(&w, &registry.url, &["search", "boom"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: the registry failed with HTTP 500"),
        "{stderr}"
    );
    assert!(stderr.contains("hint: "), "{stderr}");

    let out = mcpctl_with_timeout(&w, &registry.url, &["search", "slow"], "1");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("did not answer within 1 s"), "{stderr}");

    let out = mcpctl(&w, "http://127.0.0.1:9", &["search", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("is unreachable"));
}

#[test]
fn the_registry_flag_beats_the_environment() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(
        &w,
        "http://127.0.0.1:9",
        &["search", "acme", "--registry", &registry.url],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(registry.hits(), 1);
}

#[test]
fn no_match_says_what_to_try() {
    let registry = TestRegistry::start();
    let w = World::new();
    let out = mcpctl(&w, &registry.url, &["search", "zzz-nothing"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("no registry entries match `zzz-nothing`; try a shorter part")
    );
}

#[test]
fn a_registry_that_floods_is_cut_off_at_the_bound_not_buffered() {
    // 64 MiB, four times the bound: mcpctl must hang up after 16 MiB.
    let flood = support::FloodServer::start(64 << 20);
    let w = World::new();
    let out = mcpctl(&w, &flood.url, &["search", "x"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the body is larger than 16777216 bytes"),
        "{stderr}"
    );
    assert_eq!(
        flood.read_whole.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the whole flood was read before it was measured"
    );
}
