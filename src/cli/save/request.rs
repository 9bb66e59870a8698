//! What a save is asked to do: the file, how strictly, and what to say.

use std::path::PathBuf;

use crate::validate::{Finding, Policy};

/// The registry's notes and the name they were written for, printed once
/// the saved name is known.
pub type RegistryNotes = (String, Vec<String>);

/// How `add` and `add-json` save a definition once it is built.
pub struct Save {
    /// The file to write.
    pub target: PathBuf,
    /// The operator chose the name: an existing entry is a conflict (or,
    /// with `force`, replaced) instead of a reason to pick `NAME-2`.
    pub explicit_name: bool,
    /// Replace an existing entry; let a missing launcher through.
    pub force: bool,
    /// Pin and plain-http strictness.
    pub policy: Policy,
    /// Skip the connection before saving.
    pub no_check: bool,
    /// Print what would be written, write nothing.
    pub dry_run: bool,
    /// Show literal env and header values in the output.
    pub show_secrets: bool,
    /// The entry to write instead of one rendered from the definition
    /// (`add-json` keeps the operator's fields as typed).
    pub entry: Option<serde_json::Value>,
    /// Say so when `target` is not among the files commands read.
    pub note_outside_sources: bool,
    /// The registry's notes, printed once the saved name is known.
    pub registry_notes: Option<RegistryNotes>,
    /// Warnings found before validation (the registry's supply-chain
    /// checks), already printed; reported in `--json` with the others.
    pub extra_warnings: Vec<Finding>,
}
