//! A refusal a sandboxed server hits, found in its own stderr, so the log
//! names the path or host with what widens the sandbox knowingly.
//!
//! Landlock's own denial records (ABI 7 audit) go to the kernel's audit
//! log, which only root reads, and are off by default for a program that
//! was exec'd after the ruleset: mcpctl cannot show them to the operator.
//! What every runtime does print is the error it got: Node's `EACCES:
//! permission denied, open '/p'`, Python's `[Errno 13] Permission denied:
//! '/p'`, coreutils' and the shell's `/p: Permission denied`, Node's
//! `getaddrinfo EAI_AGAIN host` and curl's `Could not resolve host: host`
//! when the network is closed. Those lines are recognised here; the note
//! says "outside the sandbox's rules?" because a permission error can also
//! be the file system's own.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many notes one launch adds at most (a server retrying in a loop
/// must not double its log).
pub const MAX_NOTES: usize = 20;

/// For each stderr line, the line to add after it, if any.
pub type Annotator = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// What a stderr line says was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denied {
    /// An absolute path the server could not open, create or run.
    Path(String),
    /// A host it could not resolve or reach.
    Host(String),
}

const PATH_QUOTED: &[&str] = &[
    "EACCES: permission denied, ",
    "EPERM: operation not permitted, ",
    "EROFS: read-only file system, ",
    "Permission denied: ",
    "Operation not permitted: ",
    "Read-only file system: ",
];

const PATH_BEFORE: &[&str] = &[
    ": Permission denied",
    ": Operation not permitted",
    ": Read-only file system",
];

const HOST_AFTER: &[&str] = &[
    "getaddrinfo EAI_AGAIN ",
    "getaddrinfo ENOTFOUND ",
    "connect ENETUNREACH ",
    "Could not resolve host: ",
];

/// The path or host `line` says was refused, if it says so in a form
/// recognised here; a host only when `network_closed`.
pub fn denied_in(line: &str, network_closed: bool) -> Option<Denied> {
    for marker in PATH_QUOTED {
        if let Some(at) = line.find(marker) {
            let rest = &line[at + marker.len()..];
            if let Some(path) = quoted(rest).filter(|p| p.starts_with('/')) {
                return Some(Denied::Path(path.to_string()));
            }
        }
    }
    for marker in PATH_BEFORE {
        if let Some(at) = line.find(marker) {
            let before = &line[..at];
            let last = before.rsplit(": ").next().unwrap_or(before);
            let path = [
                "cannot create ",
                "can't create ",
                "cannot open ",
                "can't open ",
            ]
            .iter()
            .fold(last, |p, prefix| p.strip_prefix(prefix).unwrap_or(p))
            .trim();
            if path.starts_with('/') && !path.contains(' ') {
                return Some(Denied::Path(path.to_string()));
            }
        }
    }
    if network_closed {
        for marker in HOST_AFTER {
            if let Some(at) = line.find(marker) {
                let host: String = line[at + marker.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || ".-_:[]".contains(*c))
                    .collect();
                if !host.is_empty() {
                    return Some(Denied::Host(host));
                }
            }
        }
    }
    None
}

/// The first `'…'` or `"…"` string at the start of `text` (after an
/// operation word such as `open`).
fn quoted(text: &str) -> Option<&str> {
    let start = text.find(['\'', '"'])?;
    let quote = text[start..].chars().next()?;
    let rest = &text[start + 1..];
    rest.find(quote).map(|end| &rest[..end])
}

/// The `[mcpctl]` line written after a stderr line that names a refusal.
pub fn note(server: &str, kind: &str, denied: &Denied) -> String {
    let shown = |s: &str| crate::text::sanitize(s).into_owned();
    match denied {
        Denied::Path(path) => format!(
            "[mcpctl] sandbox ({kind}): `{}` was refused; if it lies outside the sandbox's rules (`mcpctl sandbox {server}`), widen them knowingly with `mcpctl sandbox {server} --allow-read PATH` (or --allow-write)",
            shown(path)
        ),
        Denied::Host(host) => format!(
            "[mcpctl] sandbox ({kind}): host `{}` unreachable: this sandbox closes the network; allow it knowingly with `mcpctl sandbox {server} --allow-host HOST[:PORT]` or `--set network`",
            shown(host)
        ),
    }
}

/// A stderr annotator for one launch of `server` under a sandbox of
/// `kind`: for each line, the note to add after it, at most
/// [`MAX_NOTES`] times.
pub fn annotator(server: &str, kind: &'static str, network_closed: bool) -> Annotator {
    let server = server.to_string();
    let count = AtomicUsize::new(0);
    Arc::new(move |line: &str| {
        if line.starts_with("[mcpctl]") {
            return None;
        }
        let denied = denied_in(line, network_closed)?;
        (count.fetch_add(1, Ordering::Relaxed) < MAX_NOTES).then(|| note(&server, kind, &denied))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(line: &str) -> Option<String> {
        match denied_in(line, true)? {
            Denied::Path(p) => Some(p),
            Denied::Host(_) => None,
        }
    }

    #[test]
    fn runtimes_name_the_refused_path() {
        let cases = [
            "Error: EACCES: permission denied, open '/home/u/.ssh/id_rsa'",
            "PermissionError: [Errno 13] Permission denied: '/home/u/.ssh/id_rsa'",
            "cat: /home/u/.ssh/id_rsa: Permission denied",
            "sh: 1: cannot create /home/u/.ssh/id_rsa: Permission denied",
            "OSError: [Errno 30] Read-only file system: '/home/u/.ssh/id_rsa'",
        ];
        for line in cases {
            assert_eq!(path(line).as_deref(), Some("/home/u/.ssh/id_rsa"), "{line}");
        }
        assert_eq!(path("Permission denied (os error 13)"), None);
        assert_eq!(path("ssh: connect: Permission denied"), None);
    }

    #[test]
    fn a_closed_network_names_the_host_and_an_open_one_does_not() {
        let line = "Error: getaddrinfo EAI_AGAIN api.example.com";
        assert_eq!(
            denied_in(line, true),
            Some(Denied::Host("api.example.com".into()))
        );
        assert_eq!(denied_in(line, false), None);
        let curl = "curl: (6) Could not resolve host: x.example";
        assert_eq!(
            denied_in(curl, true),
            Some(Denied::Host("x.example".into()))
        );
    }

    #[test]
    fn notes_are_bounded_and_never_about_their_own_lines() {
        let annotate = annotator("s", "none", true);
        let line = "cat: /x: Permission denied";
        let notes = (0..MAX_NOTES + 5).filter_map(|_| annotate(line)).count();
        assert_eq!(notes, MAX_NOTES);
        assert_eq!(
            annotator("s", "none", true)("[mcpctl] cat: /x: Permission denied"),
            None
        );
    }
}
