//! Paths in a profile: how they may be spelled, what `~` means, and the
//! places no profile may open for writing (mcpctl's own state: OAuth
//! tokens, the supervisor's socket, lockfiles' locks).

use std::path::{Component, Path, PathBuf};

use super::error::PolicyError;

/// Refuse a spelling that is not absolute (`/…`), home-relative (`~`,
/// `~/…`) or a `${VAR}` reference, or that holds `..` or a NUL.
pub fn check_spelling(path: &str, at: &str) -> Result<(), PolicyError> {
    let shown = crate::text::sanitize(path);
    let anchored =
        path.starts_with('/') || path == "~" || path.starts_with("~/") || path.starts_with("${");
    if !anchored {
        return Err(PolicyError {
            message: format!("`{at}` path `{shown}` is relative"),
            hint: "give an absolute path, or one starting with ~/ or ${workspaceFolder}".into(),
        });
    }
    if path.contains('\0')
        || Path::new(path)
            .components()
            .any(|c| c == Component::ParentDir)
    {
        return Err(PolicyError {
            message: format!("`{at}` path `{shown}` holds `..`"),
            hint: "name the directory itself".into(),
        });
    }
    Ok(())
}

/// `~` and `~/…` against `$HOME`; other spellings unchanged.
pub fn expand_home(path: &str, home: Option<&Path>) -> PathBuf {
    match (path.strip_prefix('~'), home) {
        (Some(""), Some(home)) => home.to_path_buf(),
        (Some(rest), Some(home)) if rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(path),
    }
}

/// mcpctl's own directories: the run-time one (socket, locks) and the
/// persistent one (OAuth tokens), both spelled as the user may write them
/// and as the file system resolves them.
pub fn protected_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in [
        crate::state_dir::base_dir(),
        crate::state_dir::persistent_dir(),
    ] {
        if let Ok(real) = dir.canonicalize() {
            dirs.push(real);
        }
        dirs.push(dir);
    }
    dirs
}

/// True when `path` is one of `dirs`, inside one, or holds one.
pub fn overlaps(path: &Path, dirs: &[PathBuf]) -> bool {
    dirs.iter()
        .any(|dir| path.starts_with(dir) || dir.starts_with(path))
}

/// Refuse a `read` or `write` path that is mcpctl's state, lies inside it
/// or holds it (`~` holds `~/.local/state/mcpctl`, and with it the OAuth
/// tokens). `${VAR}` spellings are checked again at launch, once expanded
/// (see [`checked_not_state`]).
pub fn check_not_state(path: &str, at: &str) -> Result<(), PolicyError> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    checked_not_state(&expand_home(path, home.as_deref()), path, at)
}

/// The refusal of an expanded path that overlaps mcpctl's state.
pub fn checked_not_state(path: &Path, spelled: &str, at: &str) -> Result<(), PolicyError> {
    let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let dirs = protected_dirs();
    if overlaps(path, &dirs) || overlaps(&real, &dirs) {
        return Err(PolicyError {
            message: format!(
                "`{at}` path `{}` overlaps mcpctl's state directory (OAuth tokens, the supervisor's socket)",
                crate::text::sanitize(spelled)
            ),
            hint: "name a narrower directory that does not hold mcpctl's state".into(),
        });
    }
    Ok(())
}
