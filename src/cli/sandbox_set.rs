//! `mcpctl sandbox NAME --set …`: write a new `sandbox` field into an
//! existing entry, in its own file, keeping the file's comments; the same
//! words, profile files and `--allow-*` flags as `add`, checked the same way.

use serde_json::json;

use super::Context;
use super::add::sandbox::{SandboxFlags, apply};
use super::toggle::edit_file;
use crate::defs::ServerDef;
use crate::defs::edit::Edit;
use crate::error::{ExitCode, Result};
use crate::output;

/// Set `def`'s policy from `flags` (`--set` as `sandbox`) and report it.
pub fn run(ctx: &Context, def: &ServerDef, flags: SandboxFlags) -> Result<ExitCode> {
    // --set replaces the policy; --allow-* alone widen the one it has.
    let mut changed = def.clone();
    if flags.sandbox.is_some() {
        changed.sandbox = None;
    }
    apply(&mut changed, &flags)?;
    let value = changed.sandbox.as_ref().map(|s| s.to_value());
    edit_file(
        &def.source,
        std::slice::from_ref(&def.name),
        false,
        |name| Edit::SetField {
            name: name.to_string(),
            key: "sandbox",
            value: value.clone(),
        },
    )?;
    let kind = changed.sandbox.as_ref().map_or("unset", |s| s.kind());
    if ctx.json {
        output::print_json(&json!({
            "name": def.name,
            "file": def.source,
            "sandbox": value,
        }))?;
    } else {
        output::line(format!(
            "set the sandbox of `{}` to {kind} in {}",
            output::sanitize(&def.name),
            output::sanitize(&def.source.display().to_string())
        ))?;
    }
    Ok(ExitCode::Success)
}
