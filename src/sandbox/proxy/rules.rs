//! Which destinations the egress proxy lets a sandboxed server reach: a
//! profile's `allow_host` and `allow_port`, with ToolHive's meaning so a
//! profile carries over (its Squid egress: `allowed_ports AND
//! allowed_dsts`; `*.example.com` and `.example.com` cover the domain and
//! its subdomains; names compare without case or a trailing dot).
//!
//! - `allow_host` only: those hosts, any port.
//! - `allow_host` and `allow_port`: those hosts, on those ports.
//! - `allow_port` only: any host, on those ports.
//! - An entry with its own `:PORT` (mcpctl's addition) allows that port
//!   only, whatever `allow_port` says.
//!
//! A name is matched as spelled and never resolved unless it is listed
//! (resolving any name a server asks for would leak data through DNS); an
//! address entry matches the address literally. Loopback, link-local and
//! unspecified addresses (the host's own services, a cloud's metadata
//! endpoint) are reached only when listed as addresses, or through a
//! listed `localhost` name (see [`is_special`]).

use std::net::IpAddr;

use crate::sandbox::Outbound;

/// One `allow_host` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRule {
    pattern: Pattern,
    port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    /// This name exactly (lowercase, no trailing dot).
    Name(String),
    /// This domain and every name under it.
    Domain(String),
    /// This address.
    Addr(IpAddr),
}

/// A destination a server asked the proxy for (the host part).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    /// A host name (lowercase, no trailing dot).
    Name(String),
    /// An address literal.
    Addr(IpAddr),
}

impl std::fmt::Display for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Host::Name(name) => f.write_str(name),
            Host::Addr(IpAddr::V6(v6)) => write!(f, "[{v6}]"),
            Host::Addr(addr) => write!(f, "{addr}"),
        }
    }
}

/// The whole allow list of one launch.
#[derive(Debug, Clone, Default)]
pub struct Allowed {
    hosts: Vec<HostRule>,
    ports: Vec<u16>,
}

/// What the list says about one destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Reach it; `local` when a loopback answer is expected (a listed
    /// address, or a listed `localhost`).
    Allowed {
        /// Loopback and other special addresses may be dialled.
        local: bool,
    },
    /// Refused, with the reason for the server's log.
    Refused(&'static str),
}

/// Read one `allow_host` entry (`name`, `*.domain`, `.domain`, an IPv4 or
/// IPv6 address, `[v6]`, each optionally with `:PORT`); the error says
/// what is wrong.
pub fn parse_entry(entry: &str) -> Result<HostRule, String> {
    if let Ok(addr) = entry.parse::<IpAddr>() {
        return Ok(HostRule {
            pattern: Pattern::Addr(addr),
            port: None,
        });
    }
    let (host, port) = split_port(entry)?;
    if let Ok(addr) = host.parse::<IpAddr>() {
        return Ok(HostRule {
            pattern: Pattern::Addr(addr),
            port,
        });
    }
    let wildcard = host.strip_prefix("*.").or_else(|| host.strip_prefix('.'));
    let pattern = match (parse_host(wildcard.unwrap_or(host)), wildcard.is_some()) {
        (Some(Host::Name(name)), true) => Pattern::Domain(name),
        (Some(Host::Name(name)), false) => Pattern::Name(name),
        (Some(Host::Addr(addr)), false) => Pattern::Addr(addr),
        (Some(Host::Addr(_)), true) => return Err("a wildcard takes a domain name".into()),
        (None, _) if host.contains('*') => {
            return Err(
                "a wildcard is written *.example.com (for any host, use insecure_allow_all)".into(),
            );
        }
        (None, _) => return Err("not a host name or address".into()),
    };
    Ok(HostRule { pattern, port })
}

/// `host[:port]` and `[v6][:port]` split; the port checked.
fn split_port(entry: &str) -> Result<(&str, Option<u16>), String> {
    let (host, port) = match entry.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']').ok_or("an unclosed `[`")?;
            match after {
                "" => (inside, None),
                _ => (
                    inside,
                    Some(after.strip_prefix(':').ok_or("text after `]`")?),
                ),
            }
        }
        None => match entry.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (entry, None),
        },
    };
    let port = match port {
        None => None,
        Some(text) => Some(
            text.parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or("the port must be 1-65535 (an IPv6 address with a port takes brackets)")?,
        ),
    };
    Ok((host, port))
}

/// A requested host as it appears in a URL or `CONNECT` (`[v6]`, an IPv4
/// address or a name), normalised; `None` when it is neither.
pub fn parse_host(host: &str) -> Option<Host> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    if let Some(inside) = bare {
        return inside
            .parse()
            .ok()
            .map(|a: std::net::Ipv6Addr| Host::Addr(IpAddr::V6(a)));
    }
    let lower = host.to_ascii_lowercase();
    let name = lower.strip_suffix('.').unwrap_or(&lower);
    if let Ok(v4) = name.parse::<std::net::Ipv4Addr>() {
        return Some(Host::Addr(IpAddr::V4(v4)));
    }
    valid_name(name).then(|| Host::Name(name.to_string()))
}

/// Letters, digits, `-` and `_` in non-empty labels of at most 63, 253 in all.
fn valid_name(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// True for the addresses a name must not lead to unless listed: the
/// host's own loopback, `0.0.0.0/8` and `::` (which Linux connects to
/// the host), link-local (a cloud's metadata endpoint), multicast and
/// broadcast.
pub fn is_special(addr: IpAddr) -> bool {
    match addr.to_canonical() {
        IpAddr::V4(v4) => {
            v4.is_loopback()
                || v4.octets()[0] == 0
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_broadcast()
        }
        IpAddr::V6(v6) => {
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || v6.is_unicast_link_local()
        }
    }
}

impl HostRule {
    fn port_fits(&self, port: u16, ports: &[u16]) -> bool {
        match self.port {
            Some(own) => own == port,
            None => ports.is_empty() || ports.contains(&port),
        }
    }

    fn matches(&self, host: &Host) -> bool {
        match (&self.pattern, host) {
            (Pattern::Name(want), Host::Name(name)) => want == name,
            (Pattern::Domain(domain), Host::Name(name)) => {
                name == domain
                    || name
                        .strip_suffix(domain.as_str())
                        .is_some_and(|head| head.ends_with('.'))
            }
            (Pattern::Addr(want), Host::Addr(addr)) => want.to_canonical() == addr.to_canonical(),
            _ => false,
        }
    }

    fn is_localhost(&self) -> bool {
        match &self.pattern {
            Pattern::Name(name) | Pattern::Domain(name) => {
                name == "localhost" || name.ends_with(".localhost")
            }
            Pattern::Addr(_) => true,
        }
    }
}

impl Allowed {
    /// The list of a profile's `network.outbound` (checked at load; an
    /// entry that does not parse is refused again here).
    pub fn new(outbound: &Outbound) -> Result<Allowed, String> {
        let hosts = outbound
            .allow_host
            .iter()
            .map(|entry| parse_entry(entry))
            .collect::<Result<_, _>>()?;
        Ok(Allowed {
            hosts,
            ports: outbound.allow_port.clone(),
        })
    }

    /// Whether `host:port` may be reached.
    pub fn check(&self, host: &Host, port: u16) -> Verdict {
        if self.hosts.is_empty() {
            return if self.ports.contains(&port) {
                Verdict::Allowed { local: false }
            } else {
                Verdict::Refused("port not in allow_port")
            };
        }
        let mut named = false;
        for rule in self.hosts.iter().filter(|rule| rule.matches(host)) {
            named = true;
            if rule.port_fits(port, &self.ports) {
                return Verdict::Allowed {
                    local: rule.is_localhost(),
                };
            }
        }
        Verdict::Refused(if named {
            "port not allowed for this host"
        } else {
            "host not in allow_host"
        })
    }

    /// True when `addr:port` is listed as an address.
    pub fn address_listed(&self, addr: IpAddr, port: u16) -> bool {
        self.check(&Host::Addr(addr), port) == (Verdict::Allowed { local: true })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The rules of a profile listing `hosts` and `ports`.
    pub(in crate::sandbox::proxy) fn allowed(hosts: &[&str], ports: &[u16]) -> Allowed {
        Allowed::new(&Outbound {
            insecure_allow_all: false,
            allow_host: hosts.iter().map(|h| h.to_string()).collect(),
            allow_port: ports.to_vec(),
        })
        .unwrap()
    }

    fn passes(rules: &Allowed, host: &str, port: u16) -> bool {
        let host = parse_host(host).unwrap();
        matches!(rules.check(&host, port), Verdict::Allowed { .. })
    }

    #[test]
    fn hosts_only_allow_any_port_and_ports_narrow_them() {
        let any_port = allowed(&["api.example.com"], &[]);
        assert!(passes(&any_port, "api.example.com", 443));
        assert!(passes(&any_port, "API.Example.COM.", 8080));
        assert!(!passes(&any_port, "example.com", 443));
        assert!(!passes(&any_port, "api.example.com.evil.net", 443));
        let narrowed = allowed(&["api.example.com"], &[443]);
        assert!(passes(&narrowed, "api.example.com", 443));
        assert!(!passes(&narrowed, "api.example.com", 80));
    }

    #[test]
    fn ports_only_allow_any_host_on_them_as_in_toolhive() {
        let rules = allowed(&[], &[443]);
        assert!(passes(&rules, "anything.example", 443));
        assert!(!passes(&rules, "anything.example", 22));
        // Any host, but a special address only when listed.
        assert!(!rules.address_listed("127.0.0.1".parse().unwrap(), 443));
    }

    #[test]
    fn an_entry_port_allows_that_port_only() {
        let rules = allowed(&["127.0.0.1:8080", "[::1]:9090"], &[443]);
        assert!(passes(&rules, "127.0.0.1", 8080));
        assert!(!passes(&rules, "127.0.0.1", 443));
        assert!(passes(&rules, "[::1]", 9090));
        // The same address spelled as IPv4-mapped IPv6 is the same address.
        assert!(passes(&rules, "[::ffff:127.0.0.1]", 8080));
        assert!(!passes(&rules, "[::ffff:127.0.0.1]", 8081));
        assert!(
            !passes(&rules, "localhost", 8080),
            "names are not resolved to match"
        );
    }

    #[test]
    fn wildcards_cover_the_domain_and_below_only() {
        for entry in ["*.example.com", ".example.com"] {
            let rules = allowed(&[entry], &[]);
            assert!(passes(&rules, "example.com", 443), "{entry}");
            assert!(passes(&rules, "a.b.example.com", 443), "{entry}");
            assert!(!passes(&rules, "badexample.com", 443), "{entry}");
            assert!(!passes(&rules, "example.com.evil.net", 443), "{entry}");
        }
    }

    #[test]
    fn bad_entries_are_refused() {
        for entry in [
            "*",
            "ex*ample.com",
            "*.1.2.3.4",
            "host:0",
            "host:99999",
            "::1:80x",
            "[::1",
            "a..b",
            "",
            "host:80:90",
        ] {
            assert!(parse_entry(entry).is_err(), "{entry:?} was accepted");
        }
        for entry in [
            "::1",
            "[::1]:80",
            "10.0.0.1",
            "a-b_c.example",
            "localhost:3000",
        ] {
            assert!(parse_entry(entry).is_ok(), "{entry:?} was refused");
        }
    }

    #[test]
    fn requested_hosts_must_be_names_or_addresses() {
        for host in ["*.example.com", "a b", "exa%6dple.com", "[not-v6]", ""] {
            assert!(parse_host(host).is_none(), "{host:?}");
        }
        assert_eq!(
            parse_host("127.0.0.1."),
            Some(Host::Addr("127.0.0.1".parse().unwrap()))
        );
    }

    #[test]
    fn special_addresses_are_the_hosts_own_and_link_local() {
        for addr in [
            "127.0.0.2",
            "0.0.0.0",
            "0.1.2.3",
            "169.254.169.254",
            "::1",
            "::",
            "fe80::1",
            "::ffff:127.0.0.1",
            "224.0.0.1",
        ] {
            assert!(is_special(addr.parse().unwrap()), "{addr}");
        }
        for addr in ["10.0.0.1", "93.184.215.14", "2606:2800::1"] {
            assert!(!is_special(addr.parse().unwrap()), "{addr}");
        }
    }
}
