//! The launcher must exist before a definition is saved: a bare command on
//! PATH, or a path that exists and is executable. When it is missing, say
//! which runtime provides it and how to install that.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::{Finding, Rule};

/// How to get a well-known launcher, by its file name.
pub fn install_hint(command: &str) -> String {
    let base = Path::new(command)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| command.to_string());
    match base.as_str() {
        "npx" | "npm" | "node" => {
            "`npx` comes with Node.js: install Node.js 18 or newer (e.g. `apt-get install nodejs npm`)".to_string()
        }
        "bunx" | "bun" => "`bunx` comes with Bun: see https://bun.sh to install it".to_string(),
        "pnpm" => "install pnpm with `npm install -g pnpm` (needs Node.js)".to_string(),
        "yarn" => "install Yarn with `npm install -g yarn` (needs Node.js)".to_string(),
        "uvx" | "uv" => "`uvx` comes with uv: install it with `pip install uv`".to_string(),
        "pipx" => "install pipx with `pip install pipx`".to_string(),
        "python" | "python3" => "install Python 3 (e.g. `apt-get install python3`)".to_string(),
        "docker" => "install Docker (the docker CLI and a running engine)".to_string(),
        "podman" => "install Podman (e.g. `apt-get install podman`)".to_string(),
        other => format!("install `{other}` or put its directory on PATH, or give an absolute path"),
    }
}

/// Check that `command` can be launched; `None` when it can.
///
/// A command containing `/` is a path (relative ones are taken from `cwd`,
/// as the child will see them); anything else is looked up on PATH.
pub fn check(command: &str, cwd: Option<&Path>) -> Option<Finding> {
    if command.is_empty() {
        return Some(Finding::error(
            Rule::Launcher,
            "the command is empty",
            "pass the program to run with --command",
        ));
    }
    if command.contains("${") {
        return None;
    }
    if command.contains('/') {
        let path = match cwd {
            Some(cwd) if Path::new(command).is_relative() => cwd.join(command),
            _ => Path::new(command).to_path_buf(),
        };
        return match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => None,
            Ok(meta) if meta.is_file() => Some(Finding::error(
                Rule::Launcher,
                format!("launcher {} is not executable", path.display()),
                format!("run `chmod +x {}`", path.display()),
            )),
            Ok(_) => Some(Finding::error(
                Rule::Launcher,
                format!("launcher {} is not a file", path.display()),
                "give the path of the program itself".to_string(),
            )),
            Err(_) => Some(Finding::error(
                Rule::Launcher,
                format!("launcher {} does not exist", path.display()),
                install_hint(command),
            )),
        };
    }
    match which::which(command) {
        Ok(_) => None,
        Err(_) => Some(Finding::error(
            Rule::Launcher,
            format!("launcher `{command}` is not on PATH"),
            install_hint(command),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_commands_on_path() {
        assert_eq!(check("sh", None), None);
    }

    #[test]
    fn missing_runtime_names_how_to_install_it() {
        let finding = check("uvx-definitely-missing", None).unwrap();
        assert_eq!(
            finding.message,
            "launcher `uvx-definitely-missing` is not on PATH"
        );
        assert_eq!(
            install_hint("uvx"),
            "`uvx` comes with uv: install it with `pip install uv`"
        );
        assert!(install_hint("/usr/local/bin/npx").contains("Node.js"));
    }

    #[test]
    fn paths_must_exist_and_be_executable() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("server.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let finding = check(script.to_str().unwrap(), None).unwrap();
        assert!(
            finding.message.ends_with("is not executable"),
            "{}",
            finding.message
        );
        assert!(finding.hint.starts_with("run `chmod +x "));
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(check(script.to_str().unwrap(), None), None);
        assert_eq!(check("./server.sh", Some(dir.path())), None);
        let missing = check("/nonexistent/bin/server", None).unwrap();
        assert_eq!(
            missing.message,
            "launcher /nonexistent/bin/server does not exist"
        );
    }
}
