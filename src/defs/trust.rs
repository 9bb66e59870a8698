//! Whether a definition file is the operator's own, before mcpctl launches
//! anything it names.
//!
//! A definition file is a list of commands mcpctl runs as the operator. If
//! another user can write the file, or replace it through its directory,
//! that user can run code as the operator. So, like ssh with its config, a
//! file is refused for launching when it, its directory or any directory
//! above it is group- or world-writable, or owned by a uid other than the
//! operator's or root's (whoever can write a directory above can swap the
//! one below it).
//! A world-writable directory with the sticky bit (`/tmp`) is accepted:
//! others cannot rename or delete a file they do not own there, and the
//! file itself must still be ours. A symlink is judged as a file (its own
//! owner) and its target with the target's directory.
//! `--allow-insecure-file` (or `MCPCTL_ALLOW_INSECURE_FILE=1`) overrides the
//! refusal for one run.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::{Diagnostic, ExitCode};

/// A definition file another user could change; launching from it is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad permissions on {}: {why}", path.display())]
pub struct Untrusted {
    /// The file or directory at fault.
    pub path: PathBuf,
    /// What is wrong with it ("group-writable", "owned by uid 65534" …).
    pub why: String,
    /// The shell command that fixes it.
    pub fix: String,
}

impl Untrusted {
    /// What to do next: the fix, or the one-run override.
    pub fn hint_text(&self) -> String {
        format!(
            "fix with `{}`, or pass --allow-insecure-file (or MCPCTL_ALLOW_INSECURE_FILE=1) for one run",
            self.fix
        )
    }
}

impl Diagnostic for Untrusted {
    fn exit_code(&self) -> ExitCode {
        ExitCode::Usage
    }

    fn hint(&self) -> Option<String> {
        Some(self.hint_text())
    }
}

/// `MCPCTL_ALLOW_INSECURE_FILE` set to a yes (`1`, `true`, `yes`, `on`;
/// see [`crate::env_flag`]) in this process's environment: the override,
/// for a process with no command line to carry `--allow-insecure-file`
/// (the supervisor). An unknown word is a no: a typo never lowers a guard.
pub fn allowed_by_env() -> bool {
    crate::env_flag::is_set("MCPCTL_ALLOW_INSECURE_FILE")
}

/// Refuse `file` unless only the operator (or root) can change it; `allow`
/// (the override) skips the check. A file that does not exist passes: there
/// is nothing in it to launch.
pub fn require(file: &Path, allow: bool) -> Result<(), Untrusted> {
    if allow { Ok(()) } else { check(file) }
}

/// Judge `file`, every directory above it, and (for a symlink) the link's
/// target and every directory above the target.
pub fn check(file: &Path) -> Result<(), Untrusted> {
    let me = nix::unistd::geteuid().as_raw();
    let Ok(link) = std::fs::symlink_metadata(file) else {
        return Ok(());
    };
    check_dirs(&parent(file), me)?;
    if link.file_type().is_symlink() {
        check_owner(file, &link, me)?;
        let Ok(target) = std::fs::canonicalize(file) else {
            return Ok(());
        };
        if let Ok(meta) = std::fs::metadata(&target) {
            check_file(&target, &meta, me)?;
        }
        return check_dirs(&parent(&target), me);
    }
    check_file(file, &link, me)
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn check_owner(path: &Path, meta: &std::fs::Metadata, me: u32) -> Result<(), Untrusted> {
    let owner = meta.uid();
    if owner == me || owner == 0 {
        return Ok(());
    }
    Err(Untrusted {
        path: path.to_path_buf(),
        why: format!("owned by uid {owner}, not by you (uid {me}) or root"),
        fix: format!("chown {me} {}", path.display()),
    })
}

fn check_file(path: &Path, meta: &std::fs::Metadata, me: u32) -> Result<(), Untrusted> {
    check_owner(path, meta, me)?;
    writable_by_others(path, meta.mode())
}

/// `dir` and each directory above it, as the kernel resolves them (symlinks
/// followed), up to `/`.
fn check_dirs(dir: &Path, me: u32) -> Result<(), Untrusted> {
    check_dir(dir, me)?;
    let resolved = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    resolved.ancestors().try_for_each(|d| check_dir(d, me))
}

fn check_dir(dir: &Path, me: u32) -> Result<(), Untrusted> {
    let Ok(meta) = std::fs::metadata(dir) else {
        return Ok(());
    };
    check_owner(dir, &meta, me)?;
    const STICKY: u32 = 0o1000;
    if meta.mode() & STICKY != 0 {
        return Ok(());
    }
    writable_by_others(dir, meta.mode())
}

fn writable_by_others(path: &Path, mode: u32) -> Result<(), Untrusted> {
    let why = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (false, false) => return Ok(()),
        (true, false) => "group-writable",
        (false, true) => "world-writable",
        (true, true) => "group- and world-writable",
    };
    Err(Untrusted {
        path: path.to_path_buf(),
        why: why.to_string(),
        fix: format!("chmod go-w {}", path.display()),
    })
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn private_files_pass_and_writable_ones_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("servers.json");
        assert_eq!(check(&file), Ok(()), "a missing file has nothing to launch");
        std::fs::write(&file, "{}").unwrap();
        chmod(&file, 0o644);
        assert_eq!(check(&file), Ok(()));
        chmod(&file, 0o664);
        let err = check(&file).unwrap_err();
        assert_eq!(err.why, "group-writable");
        assert_eq!(err.fix, format!("chmod go-w {}", file.display()));
        assert_eq!(require(&file, true), Ok(()));
        chmod(&file, 0o644);
        chmod(dir.path(), 0o707);
        let err = check(&file).unwrap_err();
        assert_eq!(
            (err.path.as_path(), err.why.as_str()),
            (dir.path(), "world-writable")
        );
        chmod(dir.path(), 0o1777);
        assert_eq!(check(&file), Ok(()), "a sticky directory protects our file");
        chmod(dir.path(), 0o700);
    }

    #[test]
    fn a_symlink_is_judged_by_its_target_too() {
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        let target = shared.join("servers.json");
        std::fs::write(&target, "{}").unwrap();
        chmod(&target, 0o600);
        chmod(&shared, 0o770);
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = check(&link).unwrap_err();
        assert_eq!(err.path, std::fs::canonicalize(&shared).unwrap());
        assert_eq!(err.why, "group-writable");
    }

    #[test]
    fn a_writable_directory_further_up_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("q").join("r");
        std::fs::create_dir_all(&inner).unwrap();
        let file = inner.join("servers.json");
        std::fs::write(&file, "{}").unwrap();
        chmod(&file, 0o600);
        chmod(&inner, 0o700);
        chmod(&dir.path().join("q"), 0o777);
        let err = check(&file).unwrap_err();
        assert_eq!(
            err.path,
            std::fs::canonicalize(dir.path().join("q")).unwrap()
        );
        assert_eq!(err.why, "group- and world-writable");
        chmod(&dir.path().join("q"), 0o755);
        assert_eq!(check(&file), Ok(()));
    }
}
