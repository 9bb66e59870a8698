//! What `remove`, `enable` and `disable` share: resolve names to their
//! files first (so one unknown name changes nothing), then edit each file
//! once under its lock.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use crate::defs::edit::{self, Edit};
use crate::defs::{Catalog, DefsError, format, store};
use crate::error::Result;

/// Group `names` by the file that defines each, failing on the first
/// unknown name before anything is written.
pub fn group_by_file(
    catalog: &Catalog,
    names: &[String],
) -> Result<IndexMap<PathBuf, Vec<String>>> {
    let mut groups: IndexMap<PathBuf, Vec<String>> = IndexMap::new();
    for name in names {
        let def = catalog.get(name)?;
        let names = groups.entry(def.source.clone()).or_default();
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    Ok(groups)
}

/// Apply `make_edit` to each name in `file`, under the file's lock.
pub fn edit_file(
    file: &Path,
    names: &[String],
    force: bool,
    make_edit: impl Fn(&str) -> Edit,
) -> Result<()> {
    store::modify_existing(file, |text| {
        let parsed = format::parse(file, text)?;
        let edits: Vec<Edit> = names.iter().map(|name| make_edit(name)).collect();
        for name in names {
            if !parsed.servers.iter().any(|def| &def.name == name) {
                return Err(DefsError::NotFound {
                    name: name.clone(),
                    sources: file.display().to_string(),
                    suggestion: None,
                }
                .into());
            }
        }
        let new_text = edit::apply(file, text, &parsed, &edits, force)?;
        Ok(Some((new_text, ())))
    })?;
    Ok(())
}

/// Set the enabled state of `names`, skipping those already in that state.
pub fn set_enabled(
    ctx: &super::Context,
    names: &[String],
    enabled: bool,
) -> Result<super::ExitCode> {
    let catalog = ctx.catalog()?;
    let groups = group_by_file(&catalog, names)?;
    let word = if enabled { "enabled" } else { "disabled" };
    let mut report = Vec::new();
    for (file, names) in &groups {
        let (unchanged, to_change): (Vec<String>, Vec<String>) = names
            .iter()
            .cloned()
            .partition(|name| catalog.get(name).is_ok_and(|def| def.enabled == enabled));
        if !to_change.is_empty() {
            edit_file(file, &to_change, false, |name| Edit::SetEnabled {
                name: name.to_string(),
                enabled,
            })?;
        }
        for name in names {
            let changed = to_change.contains(name);
            report.push(serde_json::json!({"name": name, "file": file, "enabled": enabled, "changed": changed}));
            if !ctx.json {
                let line = if unchanged.contains(name) {
                    format!("`{name}` is already {word} ({})", file.display())
                } else {
                    format!("{word} `{name}` in {}", file.display())
                };
                crate::output::line(line)?;
            }
        }
    }
    if ctx.json {
        crate::output::print_json(&serde_json::json!({ "servers": report }))?;
    }
    Ok(super::ExitCode::Success)
}
