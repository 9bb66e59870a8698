//! The name a new entry is saved under: an explicit one refused when it is
//! invalid or taken elsewhere, a derived one made unique.

use std::path::Path;

use crate::defs::{Catalog, DefsError, ServerDef};
use crate::error::Result;
use crate::validate::{Finding, Rule, ValidationError, name};

/// An explicit name must be valid, not defined in another file, and not
/// differ only in case from any name (they would share a log file).
pub(super) fn refuse_explicit(catalog: &Catalog, def: &ServerDef, target: &Path) -> Result<()> {
    if let Some(finding) = name::check(&def.name) {
        return Err(ValidationError {
            findings: vec![finding],
        }
        .into());
    }
    if let Some(other) = catalog
        .servers()
        .iter()
        .find(|d| d.name == def.name && d.source != *target)
    {
        return Err(DefsError::Exists {
            name: other.name.clone(),
            path: other.source.clone(),
        }
        .into());
    }
    if let Some(problem) = catalog
        .servers()
        .iter()
        .find_map(|d| name::case_twin(&def.name, &d.name))
    {
        return Err(ValidationError {
            findings: vec![Finding::error(
                Rule::Name,
                problem,
                "choose another --name; names that differ only in case would share a log file"
                    .to_string(),
            )],
        }
        .into());
    }
    Ok(())
}

/// `base`, or `base-2`, `base-3` … whichever is free in every source, in
/// any case (see [`name::case_twin`]).
pub fn unique(base: &str, in_file: &[String], elsewhere: &[String]) -> String {
    let taken = |candidate: &str| {
        in_file
            .iter()
            .chain(elsewhere)
            .any(|n| n.eq_ignore_ascii_case(candidate))
    };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| {
            let suffix = format!("-{n}");
            let keep = name::MAX_LEN - suffix.len();
            format!("{}{suffix}", &base[..base.len().min(keep)])
        })
        .find(|candidate| !taken(candidate))
        .expect("an unused suffix exists")
}
