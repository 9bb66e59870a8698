//! Issue 22, the egress proxy: under a profile listing one loopback host
//! and port, that one destination is reached through mcpctl's proxy and
//! every other fails. The server runs in a network namespace of its own;
//! `HTTP_PROXY`/`HTTPS_PROXY` point at the proxy inside it. The fixture's
//! `probe` tool makes the requests (`http`, `raw`, `connect`) and tries
//! to go around the proxy (`tcp`, `dns`); a loopback web server stands
//! for the destination and records what reached it.

mod support;

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use support::{Loopback, World, dns_server, structured_content};

/// A web server on 127.0.0.1 answering 200 to anything, recording the
/// `Host` and whether a `Proxy-Authorization` reached it.
struct Site {
    server: Loopback,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Site {
    fn start() -> Site {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let server = Loopback::serve(move |_| {
            axum::Router::new().fallback(move |headers: axum::http::HeaderMap| {
                let record = record.clone();
                async move {
                    let host = headers.get("host").and_then(|h| h.to_str().ok());
                    let auth = headers.contains_key("proxy-authorization");
                    record
                        .lock()
                        .unwrap()
                        .push(format!("host={} proxy-auth={auth}", host.unwrap_or("-")));
                    "hello"
                }
            })
        });
        Site { server, seen }
    }

    fn port(&self) -> u16 {
        self.server.addr.port()
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

fn profile(allow_host: &[String]) -> Value {
    json!({"network": {"outbound": {"allow_host": allow_host}}})
}

/// The probe's answer through `call --direct`, and mcpctl's stderr.
fn probe(w: &World, sandbox: Value, args: Value) -> (Map<String, Value>, String) {
    w.write(json!({"h": {"command": "{fixture}", "args": ["--probe"], "sandbox": sandbox}}));
    let file = w.file.to_string_lossy().into_owned();
    let args = args.to_string();
    let call = ["--file", &file, "--json", "call", "h", "probe", "--direct"];
    let run = w.run(&[&call[..], &["--args", &args]].concat());
    run.expect_code(0);
    (structured_content(&run.json()), run.stderr.clone())
}

fn refused_403(seen: &Map<String, Value>, key: &str) {
    let said = seen[key].as_str().unwrap_or_default();
    assert!(
        said.contains("403"),
        "{key}: not refused by the proxy: {seen:#?}"
    );
}

#[test]
fn one_listed_loopback_host_and_port_is_reached_and_every_other_fails() {
    let w = World::new();
    let (allowed, other) = (Site::start(), Site::start());
    let dns = dns_server();
    let resolver = dns.local_addr().unwrap().to_string();
    let (p1, p2) = (allowed.port(), other.port());
    let args = json!({
        "http": [format!("http://127.0.0.1:{p1}/"), format!("http://127.0.0.1:{p2}/"),
                 format!("http://blocked.example:{p1}/"), format!("http://localhost:{p1}/")],
        "connect": [format!("127.0.0.1:{p1}"), format!("127.0.0.1:{p2}")],
        "tcp": format!("127.0.0.1:{p1}"),
        "dns": resolver,
    });
    let (seen, stderr) = probe(&w, profile(&[format!("127.0.0.1:{p1}")]), args);
    assert_eq!(seen.len(), 8, "every probe ran: {seen:#?}");
    assert_eq!(
        seen[&format!("http http://127.0.0.1:{p1}/")],
        "ok",
        "{seen:#?}"
    );
    assert_eq!(seen[&format!("connect 127.0.0.1:{p1}")], "ok", "{seen:#?}");
    for key in [
        format!("http http://127.0.0.1:{p2}/"),
        format!("http http://blocked.example:{p1}/"),
        format!("http http://localhost:{p1}/"),
        format!("connect 127.0.0.1:{p2}"),
    ] {
        refused_403(&seen, &key);
    }
    let around = [format!("tcp 127.0.0.1:{p1}"), format!("dns {resolver}")];
    for key in around {
        let said = seen[&key].as_str().unwrap_or_default();
        assert!(
            said.starts_with("denied"),
            "{key} went around the proxy: {seen:#?}"
        );
    }
    assert!(
        other.seen().is_empty(),
        "the unlisted port was reached: {:?}",
        other.seen()
    );
    // The GET and the GET inside the tunnel; the forged Host and the
    // Proxy-Authorization the probe sent did not pass.
    let want = format!("host=127.0.0.1:{p1} proxy-auth=false");
    assert_eq!(allowed.seen(), vec![want.clone(), want], "{stderr}");
    for host in [format!("127.0.0.1:{p2}"), format!("blocked.example:{p1}")] {
        assert!(
            stderr.contains(&format!("refused GET {host}")),
            "the refusal of {host} is not reported: {stderr}"
        );
    }
}

#[test]
fn the_probes_that_go_around_the_proxy_work_when_the_network_is_open() {
    let w = World::new();
    let site = Site::start();
    let dns = dns_server();
    let resolver = dns.local_addr().unwrap().to_string();
    let args = json!({"tcp": format!("127.0.0.1:{}", site.port()), "dns": resolver});
    let (seen, _) = probe(&w, json!("network"), args);
    assert_eq!(seen.len(), 2, "every probe ran: {seen:#?}");
    let failed: Vec<_> = seen.iter().filter(|(_, v)| *v != "ok").collect();
    assert!(
        failed.is_empty(),
        "a probe failed with the network open: {failed:#?}"
    );
}

#[test]
fn the_refusal_appears_in_the_servers_log_with_the_host() {
    let w = World::short("sbp").marking_fixtures();
    let (allowed, other) = (Site::start(), Site::start());
    let (p1, p2) = (allowed.port(), other.port());
    w.write(json!({"h": {"command": "{fixture}", "args": ["--probe"],
        "sandbox": profile(&[format!("127.0.0.1:{p1}")])}}));
    w.ok(&["start", "h"], 0);
    let args =
        json!({"http": [format!("http://127.0.0.1:{p1}/"), format!("http://127.0.0.1:{p2}/")],
                      "connect": [format!("evil.example:443")]})
        .to_string();
    let seen = structured_content(&w.json(&["call", "h", "probe", "--args", &args], 0));
    assert_eq!(
        seen[&format!("http http://127.0.0.1:{p1}/")],
        "ok",
        "{seen:#?}"
    );
    refused_403(&seen, &format!("http http://127.0.0.1:{p2}/"));
    refused_403(&seen, "connect evil.example:443");
    let logs = w.ok(&["logs", "h"], 0);
    for refused in [
        format!("refused GET 127.0.0.1:{p2}"),
        "refused CONNECT evil.example:443".into(),
    ] {
        assert!(
            logs.contains(&refused),
            "`{refused}` not in the log:\n{logs}"
        );
    }
    w.ok(&["stop", "h"], 0);
    w.assert_no_orphans();
}

/// `raw` requests a hostile server sends to its proxy, each with the
/// status it must get: nothing reaches the unlisted port, nothing
/// unlisted is resolved or dialled, and the proxy keeps serving.
#[test]
fn what_an_attacker_sends_the_proxy_next_is_refused() {
    let w = World::new();
    let (allowed, other) = (Site::start(), Site::start());
    let (p1, p2) = (allowed.port(), other.port());
    let get =
        |target: &str| format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let cases = [
        // Origin form, routed by Host as a transparent proxy would.
        (
            format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{p2}\r\n\r\n"),
            "400",
        ),
        (get(&format!("http://user:pw@127.0.0.1:{p1}/")), "400"),
        (get(&format!("https://127.0.0.1:{p1}/")), "400"),
        (get(&format!("http://[::ffff:127.0.0.1]:{p2}/")), "403"),
        (get(&format!("http://2130706433:{p1}/")), "403"),
        (get(&format!("http://127.1:{p1}/")), "403"),
        (get(&format!("http://blocked.example.:{p1}/")), "403"),
        (get("http://127.0.0.1:3128/"), "403"),
        (
            "CONNECT 127.0.0.1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_string(),
            "400",
        ),
        (
            format!(
                "GET http://127.0.0.1:{p1}/ HTTP/1.1\r\nX-Big: {}\r\n\r\n",
                "a".repeat(70_000)
            ),
            "431",
        ),
    ];
    let mut raw: Vec<String> = cases.iter().map(|(r, _)| r.clone()).collect();
    // Pipelined: the second request, to the unlisted port, rides the
    // connection the first one opened to the listed one.
    let pipelined = format!(
        "GET http://127.0.0.1:{p1}/ HTTP/1.1\r\nHost: x\r\n\r\n{}",
        get(&format!("http://127.0.0.1:{p2}/"))
    );
    raw.push(pipelined.clone());
    let args = json!({"raw": raw, "http": [format!("http://127.0.0.1:{p1}/")]});
    let (seen, _) = probe(&w, profile(&[format!("127.0.0.1:{p1}")]), args);
    for (request, status) in &cases {
        let said = seen[&format!("raw {request}")].as_str().unwrap_or_default();
        let head = &request[..request.len().min(60)];
        assert!(
            said.contains(status),
            "{head:?}: wanted {status}, got {said}"
        );
    }
    assert_eq!(seen[&format!("raw {pipelined}")], "ok", "{seen:#?}");
    assert_eq!(
        seen[&format!("http http://127.0.0.1:{p1}/")],
        "ok",
        "the proxy stopped serving"
    );
    assert!(
        other.seen().is_empty(),
        "the unlisted port was reached: {:?}",
        other.seen()
    );
}

#[test]
fn an_allow_host_the_proxy_cannot_match_is_refused_when_the_file_is_read() {
    for (host, said) in [
        ("*", "wildcard"),
        ("ex*ample.com", "wildcard"),
        ("api.example.com:0", "port"),
        ("api.example.com:99999", "port"),
    ] {
        let w = World::new();
        w.write(json!({"h": {"command": "sh", "sandbox": profile(&[host.to_string()])}}));
        let file = w.file.to_string_lossy().into_owned();
        let run = w.run(&["--file", &file, "list"]);
        let text = format!("{}{}", run.stdout, run.stderr);
        assert!(
            text.contains(&format!("{file}:")) && text.contains(said) && text.contains("hint"),
            "{host}: {run}"
        );
    }
}
