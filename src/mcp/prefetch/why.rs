//! Why a launch's package was not fetched, worded for the operator: what
//! failed, the installer's last stderr lines, and what to do.

use std::path::Path;

use super::Refusal;
use super::step::Failed;
use crate::mcp::error::{ConnectError, Phase};

/// A [`ConnectError::Fetch`] before the server's name is put on it.
#[derive(Debug)]
pub(super) struct Why {
    what: String,
    detail: String,
    tail: Vec<String>,
    hint: String,
}

impl Why {
    /// The error, for `server`.
    pub fn error(self, server: &str) -> ConnectError {
        ConnectError::Fetch {
            server: server.to_string(),
            phase: Phase::Spawn,
            what: self.what,
            detail: self.detail,
            stderr_tail: self.tail,
            hint: self.hint,
        }
    }
}

/// "Off" knowingly: the way out of every refusal.
const OFF: &str = "or set \"sandbox\": \"off\" knowingly";

/// An installer step (npm, uv) that failed.
pub(super) fn step(what: &str, failed: Failed, npm: bool) -> Why {
    let common = "check the network and your registry configuration; the package is cached once fetched, so a slow first fetch may need `--timeout 300` (or `connect_timeout`) once";
    let hint = if npm {
        format!(
            "npm's stderr is above ({common}); install scripts are not run outside the sandbox (`--ignore-scripts`)"
        )
    } else {
        format!(
            "uv's stderr is above ({common}); only wheels are installed outside the sandbox (`--no-build`): a package that must be built from source needs an install of your own, {OFF}"
        )
    };
    Why {
        what: what.to_string(),
        detail: failed.detail,
        tail: failed.tail,
        hint,
    }
}

/// mcpctl's cache could not be used.
pub(super) fn io(what: &str, detail: String) -> Why {
    Why {
        what: what.to_string(),
        detail,
        tail: Vec::new(),
        hint: "check that mcpctl's cache directory (`~/.cache/mcpctl/packages`) is yours and writable, and that `npm`/`uv` is installed beside the launcher".into(),
    }
}

/// A tree that needs a directory no sandbox may grant.
pub(super) fn ungrantable(what: &str, dir: &Path) -> Why {
    let shown = crate::text::sanitize(&dir.display().to_string()).into_owned();
    Why {
        what: what.to_string(),
        detail: format!(
            "it needs {shown}, which holds your home directory or the definitions file"
        ),
        tail: Vec::new(),
        hint: format!("install the interpreter elsewhere (e.g. `uv python install`), {OFF}"),
    }
}

/// A launch mcpctl does not fetch for, as the error a user reads.
pub(super) fn refused(program: &Path, refusal: Refusal) -> Why {
    let launcher = program
        .file_name()
        .map(|n| crate::text::sanitize(&n.to_string_lossy()).into_owned())
        .unwrap_or_default();
    let (detail, hint) = match refusal {
        Refusal::Syntax(detail) => (
            format!("mcpctl does not fetch for {detail}"),
            format!(
                "write the launch as `{launcher} PACKAGE@VERSION ARGS…` (npx: `-y`, `-p`, `--registry`; uvx: `--from`, `--with`, `--python`, index options), {OFF}"
            ),
        ),
        Refusal::NotRegistry { spec } => (
            format!("`{spec}` is not a registry package"),
            format!(
                "only registry packages are fetched outside the sandbox; run a local checkout with `node`/`python` and a `read` grant, {OFF}"
            ),
        ),
        Refusal::Missing { detail } => (
            detail,
            "name the bin or command to run (npx: `-p PACKAGE BIN`; uvx: `--from PACKAGE COMMAND`)"
                .into(),
        ),
    };
    Why {
        what: format!("the package `{launcher}` names"),
        detail,
        tail: Vec::new(),
        hint,
    }
}
