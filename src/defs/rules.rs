//! A definition held against the rules of `validate` before it is saved.
//!
//! The rules themselves read plain strings (a command, its arguments, a
//! URL) and sit a floor below `defs`; this is where a typed [`ServerDef`]
//! meets them, so the data still flows one way: file → `ServerDef` → checks.

use super::model::{Launch, ServerDef};
use crate::validate::{Finding, Policy, launcher, pins, url};

/// Check a definition before it is saved: launcher, pins, URL. The name is
/// checked separately ([`crate::validate::name::check`]) because `add` may
/// derive it.
pub fn check_definition(def: &ServerDef, policy: Policy) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Some(process) = def.process() {
        if let Some(finding) = launcher::check(process.command, process.cwd) {
            findings.push(finding);
        }
        findings.extend(pins::check(
            process.command,
            process.args,
            policy.require_pin,
        ));
    }
    if let Launch::Remote { url, .. } = &def.launch {
        findings.extend(url::check(url, policy.allow_http));
    }
    findings
}
