//! VS Code's `envFile`: a dotenv file whose variables a launched server
//! gets. Like a `${VAR}`, it is read only when a process launches, and its
//! values are secrets: they reach the child's environment and the
//! [`super::redact::Redactor`], and nothing mcpctl prints or writes. The
//! file is bounded, and a malformed line is named by its number, never
//! shown, since it may hold a secret.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::model::ServerDef;
use super::vars;

/// The largest `envFile` mcpctl reads; anything bigger is a mistake.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// Why an `envFile` could not be used; never carries a value from it.
#[derive(Debug, thiserror::Error)]
pub enum EnvFileError {
    /// Its path names a variable that is not set.
    #[error(transparent)]
    Var(#[from] vars::VarError),
    /// It cannot be read.
    #[error("envFile {}: {reason}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// It is a FIFO, a device, a socket or a directory: reading one could
    /// block the launch forever.
    #[error("envFile {} is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// It is larger than [`MAX_BYTES`].
    #[error("envFile {} is larger than {MAX_BYTES} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// A line is not `KEY=VALUE`.
    #[error("envFile {}:{line}: not a KEY=VALUE line (dotenv syntax)", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
    },
}

/// The file `def`'s `envFile` names, its `${VAR}`s expanded and a relative
/// path taken from the workspace folder (the folder holding `.vscode`, as
/// VS Code does, else the definitions file's own); `None` without one.
pub fn path(def: &ServerDef) -> Result<Option<PathBuf>, vars::VarError> {
    let Some(written) = &def.env_file else {
        return Ok(None);
    };
    let expanded = PathBuf::from(vars::expand(&def.name, &written.to_string_lossy())?);
    if expanded.is_absolute() {
        return Ok(Some(expanded));
    }
    Ok(Some(
        super::format::workspace_folder(&def.source).join(expanded),
    ))
}

/// The variables of `def`'s `envFile`, in file order; empty without one.
pub fn load(def: &ServerDef) -> Result<Vec<(String, String)>, EnvFileError> {
    let Some(path) = path(def)? else {
        return Ok(Vec::new());
    };
    let unreadable = |e: std::io::Error| EnvFileError::Unreadable {
        path: path.clone(),
        reason: e.to_string(),
    };
    // Non-blocking, so a FIFO with no writer is refused below, not waited on.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(&path)
        .map_err(unreadable)?;
    let kind = file.metadata().map_err(unreadable)?.file_type();
    if let Some(kind) = super::store::special_kind(kind).or(kind.is_dir().then_some("a directory"))
    {
        return Err(EnvFileError::NotRegular { path, kind });
    }
    let mut text = String::new();
    file.take(MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(EnvFileError::TooLarge { path });
    }
    parse(&path, &text)
}

/// Parse dotenv text with `dotenvy`, one line at a time so that a bad
/// line is reported by number (dotenvy's own error quotes the line).
fn parse(path: &Path, text: &str) -> Result<Vec<(String, String)>, EnvFileError> {
    let mut out = Vec::new();
    let mut pending = String::new();
    let mut first_line = 1;
    for (index, line) in text.lines().enumerate() {
        if pending.is_empty() {
            first_line = index + 1;
        }
        pending.push_str(line);
        pending.push('\n');
        // A quoted value may span lines: read on until dotenvy accepts it.
        let mut items = dotenvy::from_read_iter(pending.as_bytes());
        match items.by_ref().collect::<Result<Vec<_>, _>>() {
            Ok(vars) => {
                out.extend(vars);
                pending.clear();
            }
            Err(dotenvy::Error::LineParse(..)) if open_quote(&pending) => {}
            Err(_) => {
                return Err(EnvFileError::Malformed {
                    path: path.to_path_buf(),
                    line: first_line,
                });
            }
        }
    }
    if pending.is_empty() {
        Ok(out)
    } else {
        Err(EnvFileError::Malformed {
            path: path.to_path_buf(),
            line: first_line,
        })
    }
}

/// True when `text` has an unclosed `"` or `'` value (a multi-line value).
fn open_quote(text: &str) -> bool {
    let Some((_, value)) = text.split_once('=') else {
        return false;
    };
    let value = value.trim_start();
    let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    value[1..].matches(quote).count() == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Vec<(String, String)>, EnvFileError> {
        parse(Path::new(".env"), text)
    }

    #[test]
    fn reads_dotenv_lines_comments_quotes_and_export() {
        let vars =
            parsed("# a comment\nA=1\nexport B=\"two words\"\n\nC='x=y'\nD=\"line1\nline2\"\n")
                .unwrap();
        assert_eq!(
            vars,
            [
                ("A".to_string(), "1".to_string()),
                ("B".to_string(), "two words".to_string()),
                ("C".to_string(), "x=y".to_string()),
                ("D".to_string(), "line1\nline2".to_string()),
            ]
        );
    }

    #[test]
    fn a_bad_line_is_named_by_number_without_its_text() {
        let err = parsed("A=1\nthis is s3cret\n").unwrap_err();
        let shown = err.to_string();
        assert_eq!(
            shown,
            "envFile .env:2: not a KEY=VALUE line (dotenv syntax)"
        );
        assert!(!shown.contains("s3cret"));
        assert!(matches!(
            parsed("A=\"open\n"),
            Err(EnvFileError::Malformed { line: 1, .. })
        ));
    }
}
