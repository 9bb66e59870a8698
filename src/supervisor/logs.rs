//! Each server's stderr, kept in a size-capped, rotated file.
//!
//! Lines are appended to `<logs dir>/<name>.log`; when that passes
//! [`MAX_LOG_BYTES`] it is renamed to `<name>.log.1` (replacing the older
//! generation) and a new file begins, so a chatty server never fills the
//! disk and `mcpctl logs` can always show the most recent lines.
//!
//! Every line is stamped when it is written (`2026-12-01T01:02:03.456Z `,
//! UTC to the millisecond): the time a line arrived is known only then, and
//! a stamp in the file survives the supervisor that wrote it.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::mcp::stderr::StderrTee;

/// Rotate when the current file reaches this size.
pub const MAX_LOG_BYTES: u64 = 1024 * 1024;

/// The log file of server `name` under `dir`, always inside `dir`.
///
/// Names are validated when the definitions are loaded, so an unsafe one
/// here is a bug elsewhere; as a second line of defence it is never joined
/// to `dir`: its log goes to `invalid-name-<hash>.log` instead.
pub fn log_path(dir: &Path, name: &str) -> PathBuf {
    if crate::validate::name::check(name).is_none() {
        dir.join(format!("{name}.log"))
    } else {
        dir.join(format!(
            "invalid-name-{:016x}.log",
            crate::hash::fnv1a(name.as_bytes())
        ))
    }
}

struct Writer {
    path: PathBuf,
    file: Option<File>,
    size: u64,
    cap: u64,
}

impl Writer {
    fn open(&mut self) {
        if self.file.is_none() {
            self.file = OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(&self.path)
                .ok();
            self.size = self
                .file
                .as_ref()
                .and_then(|f| f.metadata().ok())
                .map_or(0, |m| m.len());
        }
    }

    fn write_line(&mut self, line: &str) {
        let line = &format!("{} {line}", stamp());
        // One line never outgrows the file's cap (stderr lines are already
        // cut at 8 KiB; this holds for any cap and any caller).
        let mut end = line.len().min(self.cap.saturating_sub(1) as usize);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        let line = &line[..end];
        self.open();
        if self.size + line.len() as u64 + 1 > self.cap && self.size > 0 {
            self.file = None;
            let _ = std::fs::rename(&self.path, rotated(&self.path));
            self.open();
        }
        if let Some(file) = self.file.as_mut() {
            let _ = writeln!(file, "{line}");
            self.size += line.len() as u64 + 1;
        }
    }
}

/// The stamp that starts every log line: now, in UTC, to the millisecond.
fn stamp() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// A log line split into its stamp and its text; a line without a stamp
/// (written before stamps, or cut by rotation) has none.
pub fn split_stamp(line: &str) -> (Option<&str>, &str) {
    match line.split_once(' ') {
        Some((stamp, text))
            if chrono::DateTime::parse_from_rfc3339(stamp).is_ok() && stamp.ends_with('Z') =>
        {
            (Some(stamp), text)
        }
        _ => (None, line),
    }
}

fn rotated(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".1");
    PathBuf::from(s)
}

/// A tee that appends every stderr line of one server to its log.
pub fn tee(path: PathBuf, cap: u64) -> StderrTee {
    let writer = Arc::new(Mutex::new(Writer {
        path,
        file: None,
        size: 0,
        cap,
    }));
    Arc::new(move |line: &str| {
        let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
        w.write_line(line);
    })
}

/// Append one line written by the supervisor itself (start, exit, …).
pub fn note(path: &Path, line: &str) {
    if let Ok(mut f) = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
    {
        let _ = writeln!(f, "{} [mcpctl] {line}", stamp());
    }
}

/// The last `n` lines across the rotated and the current file.
pub fn tail(path: &Path, n: usize) -> Vec<String> {
    let mut lines = std::collections::VecDeque::with_capacity(n.min(10_000));
    for p in [rotated(path), path.to_path_buf()] {
        let Ok(file) = File::open(&p) else { continue };
        for line in BufReader::new(file).lines().map_while(Result::ok) {
            if lines.len() == n {
                lines.pop_front();
            }
            if n > 0 {
                lines.push_back(line);
            }
        }
    }
    lines.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsafe_name_never_leaves_the_directory() {
        let dir = Path::new("/state/logs");
        assert_eq!(log_path(dir, "time"), dir.join("time.log"));
        for hostile in ["../../x", "a/b", "", "..", "/etc/passwd", "a\u{1b}b", "x\0"] {
            let path = log_path(dir, hostile);
            assert_eq!(path.parent(), Some(dir), "{hostile:?} gave {path:?}");
            assert!(
                path.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("invalid-name-"),
                "{path:?}"
            );
        }
    }

    #[test]
    fn rotates_at_the_cap_and_tails_across_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.log");
        let t = tee(path.clone(), 100);
        for i in 0..50 {
            t(&format!("line {i:03}"));
        }
        assert!(std::fs::metadata(&path).unwrap().len() <= 100);
        assert!(std::fs::metadata(rotated(&path)).unwrap().len() <= 100);
        let last: Vec<_> = tail(&path, 3)
            .into_iter()
            .map(|l| split_stamp(&l).1.to_string())
            .collect();
        assert_eq!(last, vec!["line 047", "line 048", "line 049"]);
    }

    #[test]
    fn every_line_is_stamped_and_the_stamp_splits_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.log");
        tee(path.clone(), 1000)("hello world");
        note(&path, "ready");
        let lines = tail(&path, 2);
        let (stamp, text) = split_stamp(&lines[0]);
        assert!(
            stamp.is_some_and(|s| s.ends_with('Z') && s.len() == 24),
            "{lines:?}"
        );
        assert_eq!(text, "hello world");
        assert_eq!(split_stamp(&lines[1]).1, "[mcpctl] ready");
        assert_eq!(split_stamp("no stamp here"), (None, "no stamp here"));
    }
}
