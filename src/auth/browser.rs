//! Opening the authorization URL, after checking it is safe to open.
//!
//! The URL comes from the authorization server's metadata, so a hostile
//! server chooses it: only `https`, or `http` to a loopback host, is ever
//! handed to a browser (never `file:`, `javascript:` or a scheme some
//! desktop maps to a program). `$BROWSER` wins whenever it is set, with or
//! without a terminal (how tests and remote shells pick their browser);
//! else `xdg-open` (or `open` on macOS). The URL is passed as one argument,
//! never through a shell.

use std::process::{Command, Stdio};

/// Why `url` must not be opened, or `None` when it may.
pub fn refusal(url: &str) -> Option<String> {
    let parsed = match url::Url::parse(url) {
        Ok(parsed) => parsed,
        Err(e) => return Some(format!("it is not a valid URL ({e})")),
    };
    match parsed.scheme() {
        "https" if parsed.host_str().is_some() => None,
        "http" if is_loopback(&parsed) => None,
        "http" => Some("plain http is allowed only to a loopback host".into()),
        scheme => Some(format!(
            "the `{scheme}:` scheme is not https; only https (or http on loopback) is opened"
        )),
    }
}

/// True when `url`'s host is a loopback address or `localhost`.
pub fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// The program (and its leading arguments) that opens a URL here.
fn opener() -> Option<Vec<String>> {
    if let Some(browser) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
        // `$BROWSER` may be a `:`-separated list; the first entry is used,
        // split on whitespace like a command line without a shell.
        let first = browser.to_string_lossy().split(':').next()?.to_string();
        let words: Vec<String> = first.split_whitespace().map(str::to_string).collect();
        return (!words.is_empty()).then_some(words);
    }
    let name = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    which::which(name)
        .ok()
        .map(|p| vec![p.to_string_lossy().into_owned()])
}

/// Launch the browser on `url` (already checked with [`refusal`]); the
/// child is reaped on a background thread. Returns what was run, or why
/// nothing could be.
pub fn open(url: &str) -> Result<String, String> {
    let Some(mut words) = opener() else {
        return Err("no browser found (set BROWSER, or install xdg-open)".into());
    };
    let program = words.remove(0);
    let mut child = Command::new(&program)
        .args(&words)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run `{program}`: {e}"))?;
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::refusal;

    #[test]
    fn only_https_or_loopback_http_is_opened() {
        assert!(refusal("https://as.example/authorize?x=1").is_none());
        assert!(refusal("http://127.0.0.1:9/authorize").is_none());
        assert!(refusal("http://localhost:9/authorize").is_none());
        assert!(refusal("http://[::1]:9/authorize").is_none());
        for bad in [
            "http://as.example/authorize",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "ms-settings:display",
            "not a url",
        ] {
            assert!(refusal(bad).is_some(), "{bad} was accepted");
        }
    }
}
