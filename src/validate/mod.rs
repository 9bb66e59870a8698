//! Validation before save: names, launchers, version pins, URLs and
//! seconds, each a rule over plain strings.
//!
//! Every rule returns [`Finding`]s rather than failing fast, so `add` can
//! report every problem of a definition at once. A warning is printed and
//! the write goes ahead; an error stops it. `--require-pin` turns unpinned
//! packages from warnings into errors. This floor knows nothing of the
//! definition model: `defs` reads names and timeouts through these rules,
//! and holds a whole definition against them in `defs::rules`.

pub mod launcher;
pub mod name;
pub mod pins;
pub mod seconds;
pub mod url;

use crate::error::{Also, Diagnostic, ExitCode};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Printed; does not stop the write.
    Warning,
    /// Stops the write.
    Error,
}

/// Which class of problem a finding is, for exit codes and `--json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The server name.
    Name,
    /// The launcher binary.
    Launcher,
    /// A package version pin.
    Pin,
    /// A remote URL.
    Url,
    /// The MCP Registry's supply-chain checks (ownership, look-alike names).
    Registry,
}

/// One problem found in a definition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// Which rule found it.
    pub rule: Rule,
    /// Warning or error.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: String,
}

impl Finding {
    /// An error finding.
    pub fn error(rule: Rule, message: impl Into<String>, hint: impl Into<String>) -> Finding {
        Finding {
            rule,
            severity: Severity::Error,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// A warning finding.
    pub fn warning(rule: Rule, message: impl Into<String>, hint: impl Into<String>) -> Finding {
        Finding {
            rule,
            severity: Severity::Warning,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// Options that change how strict validation is.
#[derive(Debug, Clone, Copy, Default)]
pub struct Policy {
    /// Unpinned packages are errors instead of warnings.
    pub require_pin: bool,
    /// Plain `http://` to a public host is a warning instead of an error
    /// (`add --allow-http`).
    pub allow_http: bool,
}

/// Validation stopped a write; carries every error finding. The first is
/// the error and its hint; the others follow, each with its own hint.
#[derive(Debug, thiserror::Error)]
#[error("{}", .findings.first().map_or("the definition is invalid", |f| f.message.as_str()))]
pub struct ValidationError {
    /// The error findings (warnings are printed separately).
    pub findings: Vec<Finding>,
}

impl Diagnostic for ValidationError {
    fn exit_code(&self) -> ExitCode {
        if self
            .findings
            .iter()
            .all(|finding| finding.rule == Rule::Launcher)
        {
            ExitCode::NotFound
        } else {
            ExitCode::Usage
        }
    }

    fn hint(&self) -> Option<String> {
        self.findings.first().map(|f| f.hint.clone())
    }

    fn also(&self) -> Vec<Also> {
        self.findings
            .iter()
            .skip(1)
            .map(|f| Also {
                message: f.message.clone(),
                hint: Some(f.hint.clone()),
            })
            .collect()
    }
}
