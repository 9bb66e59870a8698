//! `mcpctl add`: validate a new definition, then write it without touching
//! anything else in the file.
//!
//! The rooms: `args.rs` (the command line), `claude.rs` (Claude Code's
//! syntax), `flags.rs` (a definition from flags), `registry.rs` (a
//! definition from the MCP Registry, with its supply-chain checks); the save
//! itself is `cli/save/`, shared with `add-json`, `import` and `export`.

mod args;
mod claude;
mod flags;
mod registry;
pub(crate) mod sandbox;

use serde_json::json;

pub use self::args::Args;
use self::claude::claude_form;
use self::flags::definition_from_args;
use self::registry::registry_definition;
use super::Context;
use super::save::{Save, save_definition};
use crate::defs::render;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;

/// Validate and save a new definition.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let args = claude_form(args)?;
    let target = args.save.target(ctx)?;
    let (catalog, kept) = ctx.catalog_keeping(&target)?;
    // Secrets written literally by `add NAME --store-secret`, masked in output.
    let mut stored_secrets = Vec::new();
    // The registry's notes name the entry; they are printed once its saved
    // name is known.
    let mut registry_notes = None;
    // The registry's supply-chain warnings, in `--json`'s `warnings` too.
    let mut extra_warnings = Vec::new();
    let mut def = match &args.registry_name {
        Some(spec) => {
            let (def, secrets, notes, supply) = registry_definition(ctx, &args, spec, &target)?;
            stored_secrets = secrets;
            registry_notes = Some(notes);
            extra_warnings = supply;
            def
        }
        None => definition_from_args(&args, &target)?,
    };
    if args.pin
        && let Some(note) = super::pin::pin_definition(&mut def, &target)?
    {
        output::note(note);
    }
    let save = Save {
        registry_notes,
        extra_warnings,
        ..args.save.save(target, args.name.is_some())
    };
    let Some((def, format)) = save_definition(ctx, &catalog, kept, def, &save, &stored_secrets)?
    else {
        return Ok(ExitCode::Success);
    };
    if args.registry_name.is_some() && !ctx.json {
        // Show exactly what was written (secrets are ${VAR} references).
        let entry = render::entry_value(&def, format);
        let pretty = serde_json::to_string_pretty(&json!({ def.name.clone(): entry }))
            .map_err(std::io::Error::from)
            .map_err(UsageError::from)?;
        output::line(pretty)?;
    }
    Ok(ExitCode::Success)
}
