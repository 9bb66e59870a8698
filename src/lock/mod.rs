//! The lockfile: what each server launches (the artifact, with the
//! registry's integrity hash) and what its catalog claims (a hash of the
//! canonical JSON of every tool, prompt and resource template), so that a
//! server that changes behind a stable name is caught in CI (`check
//! --locked`) and held back by the supervisor until `approve`.
//!
//! One lockfile per definitions file, beside it, named by [`file::path_for`]
//! (`servers.json` → `servers.lock`). `file` owns the format, `canonical`
//! the hashing, `artifact` the registry lookups, `diff` the comparison, `shown`
//! how a drift is printed and `guard` the supervisor's verdict.

pub mod artifact;
pub mod canonical;
pub mod diff;
pub mod error;
pub mod file;
pub mod guard;
pub mod shown;

use std::collections::{BTreeMap, BTreeSet};

pub use error::LockError;
pub use file::{Artifact, LockFile, ServerLock};

use crate::mcp::DiscoveryReport;

/// The block a server gets from what discovery saw and its artifact.
pub fn block(report: &DiscoveryReport, artifact: Artifact) -> ServerLock {
    let (server_name, server_version) = match report.server_name_version() {
        Some((n, v)) => (Some(n), Some(v)),
        None => (None, None),
    };
    ServerLock {
        transport: report.transport.as_str().to_string(),
        artifact,
        server_name,
        server_version,
        protocol: report.protocol_version.clone(),
        capabilities: crate::mcp::client::offered_capability_names(),
        tools: tools(&report.tools),
        prompts: report
            .prompt_list
            .iter()
            .map(|p| (p.name.to_string(), canonical::prompt(p)))
            .collect(),
        resource_templates: report
            .resource_templates
            .iter()
            .map(|t| (t.name.to_string(), canonical::template(t)))
            .collect(),
    }
}

/// Why a tool whose name the server lists more than once is held: which
/// of its definitions a call would reach is the server's choice, so no
/// definition of it can be locked, granted, served or called.
pub const LISTED_TWICE: &str = "listed twice by the server";

/// Pin every tool, by name. A name listed more than once pins neither
/// definition but [`ambiguous_pin`], so a lock, a grant and a server agree
/// that it is not one tool, and the day it is listed once its definition
/// is a change to approve.
pub fn tools(tools: &[rmcp::model::Tool]) -> BTreeMap<String, canonical::Pinned> {
    let twice = ambiguous(tools);
    tools
        .iter()
        .map(|t| {
            let name = t.name.to_string();
            let pin = if twice.contains(&name) {
                ambiguous_pin()
            } else {
                canonical::tool(t)
            };
            (name, pin)
        })
        .collect()
}

/// The names listed more than once in `tools` (see [`LISTED_TWICE`]).
pub fn ambiguous(tools: &[rmcp::model::Tool]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    tools
        .iter()
        .filter(|t| !seen.insert(t.name.as_ref()))
        .map(|t| t.name.to_string())
        .collect()
}

/// What the lock records for a name listed more than once.
pub fn ambiguous_pin() -> canonical::Pinned {
    canonical::Pinned::of(
        &serde_json::json!({ "ambiguous": LISTED_TWICE }),
        &["ambiguous"],
    )
}
