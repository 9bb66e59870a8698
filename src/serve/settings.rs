//! The settings of one `serve` run, as the command line gave them: read
//! by every session, the catalog and the audit log.

use crate::defs::Sources;

/// Settings of one `serve` run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The definition files.
    pub sources: Sources,
    /// The profile served (`None`: the default grants, `tools`).
    pub profile: Option<String>,
    /// Between server and tool in exposed names.
    pub separator: String,
    /// Start granted servers that are not running (unless `--no-start`).
    pub start_all: bool,
    /// Per-call timeout in milliseconds.
    pub timeout_ms: u64,
}
