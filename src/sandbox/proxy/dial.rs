//! Reaching an allowed destination from mcpctl's own network namespace:
//! the allow list first, then (for a listed name) resolution here, never
//! in the server's namespace, then the resolved addresses checked again
//! (a listed name that resolves to the host's loopback or a metadata
//! address is refused unless that address is listed too), then a bounded
//! connect to the first that answers.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpStream;

use super::rules::{Allowed, Host, Verdict, is_special};

/// How long resolving a name may take.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long connecting to one address may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// At most this many resolved addresses are tried.
const MAX_ADDRESSES: usize = 4;

/// Why a destination was not reached.
#[derive(Debug)]
pub enum Refusal {
    /// The profile does not allow it (answered 403).
    NotAllowed(&'static str),
    /// Allowed, but it could not be reached (answered 502).
    Unreachable(String),
}

/// Connect to `host:port` if `rules` allow it.
pub async fn dial(rules: &Allowed, host: &Host, port: u16) -> Result<TcpStream, Refusal> {
    let local = match rules.check(host, port) {
        Verdict::Refused(why) => return Err(Refusal::NotAllowed(why)),
        Verdict::Allowed { local } => local,
    };
    let found = resolve(host, port).await?;
    let usable = usable(&found, local, rules);
    if usable.is_empty() {
        return Err(Refusal::NotAllowed(
            "a loopback, link-local or unspecified address (or a name resolving only to such) not listed in allow_host",
        ));
    }
    let mut last = String::from("no address");
    for addr in usable {
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(addr)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(e)) => last = format!("{addr}: {e}"),
            Err(_) => last = format!("{addr}: no answer within {CONNECT_TIMEOUT:?}"),
        }
    }
    Err(Refusal::Unreachable(last))
}

/// The resolved addresses that may be dialled: a special address (see
/// [`is_special`]) only when the rule expected one or lists it.
fn usable(found: &[SocketAddr], local: bool, rules: &Allowed) -> Vec<SocketAddr> {
    found
        .iter()
        .copied()
        .filter(|a| local || !is_special(a.ip()) || rules.address_listed(a.ip(), a.port()))
        .take(MAX_ADDRESSES)
        .collect()
}

async fn resolve(host: &Host, port: u16) -> Result<Vec<SocketAddr>, Refusal> {
    let name = match host {
        Host::Addr(addr) => return Ok(vec![SocketAddr::new(*addr, port)]),
        Host::Name(name) => name.as_str(),
    };
    match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((name, port))).await {
        Ok(Ok(addrs)) => Ok(addrs.collect()),
        Ok(Err(e)) => Err(Refusal::Unreachable(format!("resolving: {e}"))),
        Err(_) => Err(Refusal::Unreachable("resolving timed out".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::proxy::rules::tests::allowed as rules;

    #[test]
    fn a_listed_name_that_resolves_to_loopback_or_metadata_is_not_dialled() {
        let found: Vec<SocketAddr> = [
            "127.0.0.1:443",
            "169.254.169.254:443",
            "[::1]:443",
            "0.0.0.0:443",
        ]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
        let listed = rules(&["api.example.com"], &[]);
        assert!(usable(&found, false, &listed).is_empty());
        let public: SocketAddr = "93.184.215.14:443".parse().unwrap();
        assert_eq!(usable(&[found[0], public], false, &listed), vec![public]);
        // Listed as an address too: then it is meant.
        let both = rules(&["api.example.com", "127.0.0.1:443"], &[]);
        assert_eq!(usable(&found, false, &both), vec![found[0]]);
        // A listed `localhost` expects loopback.
        assert_eq!(usable(&found, true, &listed).len(), 4);
    }

    #[tokio::test]
    async fn an_unlisted_name_is_refused_before_any_lookup() {
        let listed = rules(&["127.0.0.1:80"], &[]);
        let host = Host::Name("secret-data.attacker.example".into());
        match dial(&listed, &host, 80).await {
            Err(Refusal::NotAllowed(why)) => assert_eq!(why, "host not in allow_host"),
            other => panic!("{other:?}"),
        }
    }
}
