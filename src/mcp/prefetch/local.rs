//! `node SCRIPT`, `python SCRIPT` and a virtual environment's `python`:
//! nothing to fetch, but what they run lies outside the system paths the
//! sandbox reads by default. Granted read-only: the environment a venv's
//! interpreter belongs to and the prefix it links to (from `pyvenv.cfg`),
//! and the project a script belongs to (above its outermost
//! `node_modules`, or its nearest ancestor holding `package.json`,
//! `pyproject.toml` or `setup.py`, else its directory), each only if it
//! holds neither the home directory nor the definitions file.

use std::path::{Path, PathBuf};

/// What a project's root holds.
const PROJECT_MARKERS: &[&str] = &["package.json", "pyproject.toml", "setup.py"];

/// How far above a script its project root is looked for.
const PROJECT_DEPTH: usize = 4;

/// The directories `program args` needs read, beyond the defaults.
pub(super) fn grants(program: &Path, args: &[String], cwd: &Path) -> Vec<PathBuf> {
    let base = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let node = base == "node" || base == "nodejs";
    let python = base.starts_with("python");
    let mut dirs = Vec::new();
    if python && let Some((venv, prefix)) = venv_of(program) {
        dirs.extend([venv, prefix]);
    }
    if (node || python)
        && let Some(script) = args.iter().find(|a| !a.starts_with('-'))
    {
        let script = cwd.join(script);
        if script.is_file()
            && let Ok(script) = script.canonicalize()
        {
            dirs.push(project_of(&script));
        }
    }
    dirs.dedup();
    dirs
}

/// A venv interpreter (`<venv>/bin/python`, not followed through its
/// link): the venv and the prefix of the interpreter `pyvenv.cfg` names.
pub(super) fn venv_of(program: &Path) -> Option<(PathBuf, PathBuf)> {
    let venv = program.parent()?.parent()?;
    let cfg = std::fs::read_to_string(venv.join("pyvenv.cfg")).ok()?;
    let home = cfg
        .lines()
        .filter_map(|line| line.split_once('='))
        .find(|(key, _)| key.trim() == "home")
        .map(|(_, value)| PathBuf::from(value.trim()))?;
    let home = home.canonicalize().unwrap_or(home);
    let prefix = match home.file_name() {
        Some(name) if name == "bin" => home.parent().map(Path::to_path_buf).unwrap_or(home),
        _ => home,
    };
    Some((venv.to_path_buf(), prefix))
}

/// The project `script` belongs to: the directory holding the outermost
/// `node_modules` on its path (a package's dependencies sit beside it
/// there), else its nearest ancestor holding a project marker, else its
/// own directory.
fn project_of(script: &Path) -> PathBuf {
    if let Some(root) = script
        .ancestors()
        .filter(|d| d.file_name().is_some_and(|n| n == "node_modules"))
        .last()
        .and_then(Path::parent)
    {
        return root.to_path_buf();
    }
    let dir = script.parent().unwrap_or(Path::new("/"));
    dir.ancestors()
        .take(PROJECT_DEPTH)
        .find(|d| PROJECT_MARKERS.iter().any(|m| d.join(m).is_file()))
        .unwrap_or(dir)
        .to_path_buf()
}
