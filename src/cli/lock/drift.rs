//! The drift report: each server compared with its lockfile, as `lock
//! --check`, `check --locked` and `approve` print it and put it in `--json`.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::observe::{Locks, Observed};
use crate::check::Outcome;
use crate::cli::Context;
use crate::error::Result;
use crate::lock::artifact;
use crate::lock::diff::{self, Change, compare};
use crate::mcp::{self, ConnectError};
use crate::output;

/// One server's comparison with its lockfile.
#[derive(Debug)]
pub(crate) struct Drift {
    name: String,
    lockfile: PathBuf,
    /// `None`: the server was not reached, so not compared.
    changes: Option<Vec<Change>>,
    /// What may explain the changes (see [`diff::capabilities_note`]).
    note: Option<String>,
}

/// `check --locked`: compare what discovery saw with each lock, using the
/// artifact as the definition names it (no registry).
pub(crate) fn drift_offline(ctx: &Context, outcomes: &[Outcome]) -> Result<Vec<Drift>> {
    let observed: Vec<Observed> = outcomes
        .iter()
        .filter_map(|o| {
            let result = match o.result.as_ref()? {
                Ok(report) => Ok(crate::lock::block(report, artifact::offline(&o.def))),
                Err(e) => Err(ConnectError::Transport {
                    server: o.def.name.clone(),
                    phase: e.phase().unwrap_or(mcp::Phase::Spawn),
                    detail: e.to_string(),
                }),
            };
            Some((o.def.clone(), result))
        })
        .collect();
    drift_of(&observed, &mut Locks::new(ctx.allow_insecure_file), true)
}

pub(crate) fn drift_of(
    observed: &[Observed],
    locks: &mut Locks,
    offline: bool,
) -> Result<Vec<Drift>> {
    let mut drift = Vec::new();
    for (def, result) in observed {
        let (path, lock) = locks.get(&def.source)?;
        let locked = lock.as_ref().and_then(|l| l.servers.get(&def.name));
        let changes = result.as_ref().ok().map(|now| match locked {
            Some(locked) => compare(locked, now, offline),
            None => vec![Change::NotLocked],
        });
        let note = locked
            .zip(changes.as_ref())
            .and_then(|(locked, changes)| diff::capabilities_note(locked, changes));
        drift.push(Drift {
            name: def.name.clone(),
            lockfile: path.clone(),
            changes,
            note,
        });
    }
    Ok(drift)
}

/// True when any server drifted or is not in its lock.
pub(crate) fn any_drift(drift: &[Drift]) -> bool {
    drift
        .iter()
        .any(|d| d.changes.as_ref().is_some_and(|c| !c.is_empty()))
}

fn status(d: &Drift) -> &'static str {
    match &d.changes {
        None => "unchecked",
        Some(c) if c.is_empty() => "ok",
        Some(c) if c == &[Change::NotLocked] => "not_locked",
        Some(_) => "drifted",
    }
}

/// Add `lock` to each server entry of a `--json` document, and `drifted`.
pub(crate) fn add_drift_json(doc: &mut Value, drift: &[Drift]) {
    let entries: Vec<Value> = drift.iter().map(drift_json).collect();
    if let Some(servers) = doc.get_mut("servers").and_then(Value::as_array_mut) {
        for entry in servers.iter_mut() {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some(d) = drift.iter().find(|d| Some(&d.name) == name.as_ref()) {
                entry["lock"] = drift_json(d);
            }
        }
        if servers.is_empty() {
            *servers = entries;
        }
    }
    doc["drifted"] = json!(
        drift
            .iter()
            .filter(|d| d.changes.as_ref().is_some_and(|c| !c.is_empty()))
            .count()
    );
}

pub(crate) fn drift_json(d: &Drift) -> Value {
    json!({
        "name": d.name,
        "lockfile": d.lockfile,
        "status": status(d),
        "changes": d.changes.clone().unwrap_or_default(),
    })
}

/// Print every server that drifted, with what changed, a blank line
/// between servers (a caller that printed a table first separates it).
pub(crate) fn print_drift(drift: &[Drift]) -> Result<()> {
    let drifted = drift
        .iter()
        .filter_map(|d| Some((d, d.changes.as_ref().filter(|c| !c.is_empty())?)));
    for (i, (d, changes)) in drifted.enumerate() {
        if i > 0 {
            output::line("")?;
        }
        output::line(format!(
            "DRIFT {} ({}): {} change{}",
            d.name,
            d.lockfile.display(),
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        ))?;
        print_changes(changes)?;
        if let Some(note) = &d.note {
            output::line(format!("  note: {note}"))?;
        }
        output::line(format!(
            "  hint: review it, then `mcpctl approve {}` (or `mcpctl lock {}`) to accept it",
            d.name, d.name
        ))?;
    }
    Ok(())
}

/// The lines of a change list, indented under a heading.
pub(crate) fn print_changes(changes: &[Change]) -> Result<()> {
    for change in changes {
        output::line(format!("  {}", change.summary()))?;
        for line in change.detail() {
            output::line(format!("      {line}"))?;
        }
    }
    Ok(())
}
