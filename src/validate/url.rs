//! Remote URLs: https, or plain http only to this machine, and never with
//! credentials inside the URL (they would be printed, logged and committed).

use std::net::{IpAddr, ToSocketAddrs};
use std::sync::mpsc;
use std::time::Duration;

use super::{Finding, Rule};

/// How long a DNS look-up may take before mcpctl stops waiting for it.
const RESOLVE_WAIT: Duration = Duration::from_secs(2);

/// Check a remote server URL; warnings for hosts that do not resolve.
pub fn check(raw: &str) -> Vec<Finding> {
    let templated = raw.contains("${");
    let parsed = match url::Url::parse(raw) {
        Ok(parsed) => parsed,
        Err(_) if templated => return Vec::new(),
        Err(err) => {
            return vec![Finding::error(
                Rule::Url,
                format!("`{raw}` is not a valid URL: {err}"),
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
        "http" => findings.push(Finding::error(
            Rule::Url,
            format!("`{raw}` uses plain http to a remote host"),
            "use https://, or http:// only for localhost / 127.0.0.1 / [::1]",
        )),
        other => findings.push(Finding::error(
            Rule::Url,
            format!("`{raw}` uses the scheme `{other}`; MCP servers are reached over https"),
            "use an https:// URL (or http:// for a server on this machine)",
        )),
    }
    let unresolved = parsed
        .host_str()
        .filter(|_| findings.is_empty() && !loopback && !templated)
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
        assert!(check("http://127.0.0.1:3001/mcp").is_empty());
        assert!(check("http://localhost:3001/mcp").is_empty());
        assert!(check("http://[::1]:3001/mcp").is_empty());
        assert!(check("https://${HOST}/mcp").is_empty());
    }

    #[test]
    fn rejects_remote_http_credentials_and_bad_urls() {
        let http = check("http://mcp.example.com/mcp");
        assert_eq!(
            http[0].message,
            "`http://mcp.example.com/mcp` uses plain http to a remote host"
        );
        let creds = check("https://user:pw@127.0.0.1/mcp");
        assert_eq!(
            creds[0].message,
            "the URL contains credentials (user:password@)"
        );
        let bad = check("not a url");
        assert!(
            bad[0].message.starts_with("`not a url` is not a valid URL"),
            "{}",
            bad[0].message
        );
        let ftp = check("ftp://127.0.0.1/x");
        assert!(ftp[0].message.contains("scheme `ftp`"));
    }
}
