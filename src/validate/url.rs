//! Remote URLs: https; plain http to this machine, or, with a warning, to
//! the networks operators run gateways on (private and link-local
//! addresses, single-label and `.internal`/`.local` names); plain http to a
//! public host only with `--allow-http`. Never credentials inside the URL
//! (they would be printed, logged and committed).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, ToSocketAddrs};
use std::sync::mpsc;
use std::time::Duration;

use super::{Finding, Rule, Severity};

/// How long a DNS look-up may take before mcpctl stops waiting for it.
const RESOLVE_WAIT: Duration = Duration::from_secs(2);

/// Check a remote server URL; warnings for hosts that do not resolve and
/// for plain http off this machine. `allow_http` accepts plain http to a
/// public host (with a warning) instead of refusing it.
pub fn check(raw: &str, allow_http: bool) -> Vec<Finding> {
    let templated = raw.contains("${");
    // Messages quote the URL with any credentials in it masked.
    let shown = crate::text::mask_userinfo(raw);
    let parsed = match url::Url::parse(raw) {
        Ok(parsed) => parsed,
        Err(_) if templated => return Vec::new(),
        Err(err) => {
            return vec![Finding::error(
                Rule::Url,
                format!("`{shown}` is not a valid URL: {err}"),
                "give a full URL such as https://mcp.example.com/mcp",
            )];
        }
    };
    let mut findings = Vec::new();
    if !parsed.username().is_empty() || parsed.password().is_some() {
        findings.push(Finding::error(
            Rule::Url,
            "the URL contains credentials (user:password@)",
            "remove them from the URL and pass them as a header, e.g. --header 'Authorization: Bearer ${TOKEN}'",
        ));
    }
    let loopback = is_loopback(&parsed);
    match parsed.scheme() {
        "https" => {}
        "http" if loopback => {}
        "http" => match local_network(&parsed) {
            Some(kind) => findings.push(Finding::warning(
                Rule::Url,
                format!("`{shown}` uses plain http to {kind}: traffic and headers are not encrypted"),
                "use https:// if the server offers it",
            )),
            None if allow_http => findings.push(Finding::warning(
                Rule::Url,
                format!("`{shown}` uses plain http to a public host: traffic and headers are not encrypted"),
                "use https:// if the server offers it (accepted because of --allow-http)",
            )),
            None => findings.push(Finding::error(
                Rule::Url,
                format!("`{shown}` uses plain http to a public host"),
                "use https://, or pass --allow-http to accept it (plain http needs no flag for loopback, private and link-local addresses, single-label names and .internal/.local hosts)",
            )),
        },
        other => findings.push(Finding::error(
            Rule::Url,
            format!("`{shown}` uses the scheme `{other}`; MCP servers are reached over https"),
            "use an https:// URL (or http:// for a server on this machine)",
        )),
    }
    let refused = findings.iter().any(|f| f.severity == Severity::Error);
    let unresolved = parsed
        .host_str()
        .filter(|_| !refused && !loopback && !templated)
        .filter(|host| !resolves(host, parsed.port_or_known_default().unwrap_or(443)));
    if let Some(host) = unresolved {
        findings.push(Finding::warning(
            Rule::Url,
            format!("host `{host}` does not resolve from here"),
            "check the spelling, your DNS, or a VPN",
        ));
    }
    findings
}

/// True for `localhost`, 127.0.0.0/8 and `::1`.
pub fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(domain)) => {
            domain.eq_ignore_ascii_case("localhost") || domain.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// The kind of network a host is on when it is not the public internet: a
/// private or link-local address, or a name that only a local resolver
/// answers (a single label such as a compose service, `.internal`,
/// `.local` or `.home.arpa`). `None` for a public host.
pub fn local_network(url: &url::Url) -> Option<&'static str> {
    match url.host()? {
        url::Host::Ipv4(ip) => ipv4_kind(ip),
        url::Host::Ipv6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => ipv4_kind(v4),
            None => ipv6_kind(ip),
        },
        url::Host::Domain(domain) => {
            let domain = domain.trim_end_matches('.').to_ascii_lowercase();
            if !domain.contains('.') {
                Some("a single-label host")
            } else if [".internal", ".local", ".home.arpa"]
                .iter()
                .any(|suffix| domain.ends_with(suffix))
            {
                Some("a local-only domain")
            } else {
                None
            }
        }
    }
}

fn ipv4_kind(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_private() {
        Some("a private address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if a == 100 && (64..128).contains(&b) {
        // RFC 6598 shared address space (carrier NAT, Tailscale).
        Some("a private address")
    } else {
        None
    }
}

fn ipv6_kind(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if first & 0xfe00 == 0xfc00 {
        Some("a private address")
    } else if first & 0xffc0 == 0xfe80 {
        Some("a link-local address")
    } else {
        None
    }
}

fn resolves(host: &str, port: u16) -> bool {
    let (tx, rx) = mpsc::channel();
    let target = format!("{host}:{port}");
    std::thread::spawn(move || {
        let ok = target
            .to_socket_addrs()
            .is_ok_and(|mut addrs| addrs.next().is_some());
        let _ = tx.send(ok);
    });
    rx.recv_timeout(RESOLVE_WAIT).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_and_loopback_http_pass() {
        assert!(check("http://127.0.0.1:3001/mcp", false).is_empty());
        assert!(check("http://localhost:3001/mcp", false).is_empty());
        assert!(check("http://[::1]:3001/mcp", false).is_empty());
        assert!(check("https://${HOST}/mcp", false).is_empty());
    }

    #[test]
    fn local_networks_are_told_from_public_hosts() {
        let kind = |raw: &str| local_network(&url::Url::parse(raw).unwrap());
        for private in [
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://172.31.255.255/",
            "http://192.168.1.10/",
            "http://100.64.0.1/",
            "http://[fd12:3456::1]/",
            "http://[fc00::1]/",
            "http://[::ffff:10.0.0.1]/",
        ] {
            assert_eq!(kind(private), Some("a private address"), "{private}");
        }
        for link in ["http://169.254.1.1/", "http://[fe80::1]/"] {
            assert_eq!(kind(link), Some("a link-local address"), "{link}");
        }
        assert_eq!(
            kind("http://mcp-gateway:8080/mcp"),
            Some("a single-label host")
        );
        for name in [
            "http://gw.internal/",
            "http://nas.local/",
            "http://x.home.arpa/",
        ] {
            assert_eq!(kind(name), Some("a local-only domain"), "{name}");
        }
        for public in [
            "http://8.8.8.8/",
            "http://172.32.0.1/",
            "http://100.128.0.1/",
            "http://[2001:db8::1]/",
            "http://mcp.example.com/",
            "http://local.example.com/",
        ] {
            assert_eq!(kind(public), None, "{public}");
        }
    }

    #[test]
    fn rejects_remote_http_credentials_and_bad_urls() {
        let http = check("http://mcp.example.com/mcp", false);
        assert_eq!(
            http[0].message,
            "`http://mcp.example.com/mcp` uses plain http to a public host"
        );
        assert_eq!(http[0].severity, Severity::Error);
        let allowed = check("http://mcp.example.com/mcp", true);
        assert_eq!(allowed[0].severity, Severity::Warning);
        let creds = check("https://user:pw@127.0.0.1/mcp", false);
        assert_eq!(
            creds[0].message,
            "the URL contains credentials (user:password@)"
        );
        let bad = check("not a url", false);
        assert!(
            bad[0].message.starts_with("`not a url` is not a valid URL"),
            "{}",
            bad[0].message
        );
        let ftp = check("ftp://127.0.0.1/x", false);
        assert!(ftp[0].message.contains("scheme `ftp`"));
    }
}
