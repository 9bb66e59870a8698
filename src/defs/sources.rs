//! Which definition files a command reads, and where `add` writes.
//!
//! Precedence: `--file PATH` (repeatable), then `MCPCTL_FILE` (a
//! `:`-separated list), then the per-user default
//! `<config dir>/mcpctl/servers.json` from `directories`.

use std::path::{Path, PathBuf};

/// Where the list of sources came from, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// `--file` on the command line.
    Flag,
    /// The `MCPCTL_FILE` environment variable.
    Env,
    /// The per-user default path.
    Default,
}

/// The definition files a command works on, in precedence order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources {
    /// The files, first one first.
    pub files: Vec<PathBuf>,
    /// How they were chosen.
    pub origin: Origin,
}

impl Sources {
    /// Resolve from `--file` values and the environment.
    pub fn resolve(flag_files: &[PathBuf]) -> Sources {
        Self::resolve_with(flag_files, std::env::var_os("MCPCTL_FILE"), default_file())
    }

    fn resolve_with(
        flag_files: &[PathBuf],
        env: Option<std::ffi::OsString>,
        default: PathBuf,
    ) -> Sources {
        if !flag_files.is_empty() {
            return Sources {
                files: dedup(flag_files.to_vec()),
                origin: Origin::Flag,
            };
        }
        if let Some(env) = env {
            let files: Vec<PathBuf> = std::env::split_paths(&env)
                .filter(|p| !p.as_os_str().is_empty())
                .collect();
            if !files.is_empty() {
                return Sources {
                    files: dedup(files),
                    origin: Origin::Env,
                };
            }
        }
        Sources {
            files: vec![default],
            origin: Origin::Default,
        }
    }

    /// The file `add` writes to when `--to` is not given: the first source.
    pub fn primary(&self) -> &Path {
        &self.files[0]
    }

    /// The sources as one comma-separated string, for messages.
    pub fn describe(&self) -> String {
        self.files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Keep the first spelling of each file: `a.json`, `./a.json` and a
/// symlink to it are one source, so they are read (and supervised) once.
fn dedup(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen: Vec<PathBuf> = Vec::with_capacity(files.len());
    let mut out: Vec<PathBuf> = Vec::with_capacity(files.len());
    for file in files {
        let canon = canonical(&file);
        if !seen.contains(&canon) {
            seen.push(canon);
            out.push(file);
        }
    }
    out
}

/// `path` made absolute with symlinks resolved, even if it (or its
/// directory) does not exist yet: the longest existing ancestor is
/// canonicalised and the rest is appended with `.` and `..` folded, so
/// every spelling of one file gives one path.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(path)
    };
    let mut folded = PathBuf::new();
    for part in abs.components() {
        match part {
            std::path::Component::ParentDir => {
                folded.pop();
            }
            std::path::Component::CurDir => {}
            other => folded.push(other),
        }
    }
    let mut missing = Vec::new();
    let mut existing = folded.as_path();
    let mut base = loop {
        if let Ok(p) = existing.canonicalize() {
            break p;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                existing = parent;
            }
            _ => break existing.to_path_buf(),
        }
    };
    for part in missing.iter().rev() {
        base.push(part);
    }
    base
}

/// `<config dir>/mcpctl/servers.json`, or `./servers.json` when the platform
/// has no home directory at all.
pub fn default_file() -> PathBuf {
    directories::BaseDirs::new()
        .map(|dirs| dirs.config_dir().join("mcpctl").join("servers.json"))
        .unwrap_or_else(|| PathBuf::from("servers.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_env_beats_default() {
        let default = PathBuf::from("/d/servers.json");
        let flag = Sources::resolve_with(
            &[PathBuf::from("a.json")],
            Some("b.json".into()),
            default.clone(),
        );
        assert_eq!(
            (flag.files, flag.origin),
            (vec![PathBuf::from("a.json")], Origin::Flag)
        );
        let env = Sources::resolve_with(&[], Some("b.json::c.yaml".into()), default.clone());
        assert_eq!(
            env.files,
            vec![PathBuf::from("b.json"), PathBuf::from("c.yaml")]
        );
        let fallback = Sources::resolve_with(&[], None, default.clone());
        let dup = Sources::resolve_with(
            &[
                PathBuf::from("/d/x/../a.json"),
                PathBuf::from("/d/./a.json"),
            ],
            None,
            default.clone(),
        );
        assert_eq!(dup.files, vec![PathBuf::from("/d/x/../a.json")]);
        assert_eq!(
            (fallback.files, fallback.origin),
            (vec![default], Origin::Default)
        );
    }
}
