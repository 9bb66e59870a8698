//! What a save says: the action and the entry (or `--json`'s document),
//! then what to do next (sign in, check, read a file outside the sources).

use std::path::Path;

use serde_json::json;

use super::entry;
use super::request::Save;
use crate::cli::Context;
use crate::defs::ServerDef;
use crate::defs::format::Format;
use crate::error::{Result, UsageError};
use crate::output;
use crate::validate::Finding;

/// Report a save (or, with `dry_run_format`, the entry a dry run would
/// write in that format).
pub(super) fn report(
    ctx: &Context,
    save: &Save,
    def: &ServerDef,
    action: &str,
    warnings: &[Finding],
    dry_run_format: Option<Format>,
) -> Result<()> {
    let target = &save.target;
    if ctx.json {
        let mut doc = json!({
            "action": action.replace(' ', "-"),
            "file": target,
            "server": output::server_json(def, save.show_secrets),
            "warnings": warnings,
        });
        if let Some(format) = dry_run_format {
            doc["entry"] = entry::shown(entry::planned(save, def, format), save.show_secrets);
        }
        output::print_json(&doc)?;
        return Ok(());
    }
    output::line(format!(
        "{action} `{}` to {} ({}: {})",
        def.name,
        target.display(),
        def.transport,
        def.target()
    ))?;
    if let Some(format) = dry_run_format {
        let entry = entry::shown(entry::planned(save, def, format), save.show_secrets);
        let pretty = serde_json::to_string_pretty(&json!({ def.name.clone(): entry }))
            .map_err(std::io::Error::from)
            .map_err(UsageError::from)?;
        output::line(pretty)?;
    }
    note_next_step(save, def, dry_run_format.is_some());
    Ok(())
}

/// After a save: how to sign in or check, when the save did not connect.
fn note_next_step(save: &Save, def: &ServerDef, dry_run: bool) {
    if let Some(auth) = def.auth.as_ref().filter(|_| !dry_run) {
        let name = output::sanitize(&def.name);
        output::note(match auth.grant {
            crate::defs::Grant::ClientCredentials => format!(
                "note: connection check skipped; `mcpctl check {name}` signs in with the client credentials"
            ),
            crate::defs::Grant::AuthorizationCode if signed_in(def) => {
                format!("note: signed in; `mcpctl check {name}` uses the stored token")
            }
            crate::defs::Grant::AuthorizationCode => format!(
                "note: sign in with `mcpctl login {name}`; until then `check` cannot connect"
            ),
        });
    } else if save.no_check && !dry_run {
        output::note("note: connection check skipped; run `mcpctl check` to connect");
    }
}

/// True when a token is stored for `def`'s URL (after `add` signed in).
fn signed_in(def: &ServerDef) -> bool {
    let Ok(target) = crate::auth::flow::Target::from_def(def) else {
        return false;
    };
    crate::auth::store::read().is_ok_and(|file| file.for_resource(&target.url).is_some())
}

/// After a scoped write: tell the operator how to see the entry when the
/// file is not one of those commands read.
pub(super) fn note_if_outside_sources(ctx: &Context, target: &Path) {
    let canon = crate::defs::sources::canonical(target);
    let read = ctx
        .sources
        .files
        .iter()
        .any(|f| crate::defs::sources::canonical(f) == canon);
    if !read {
        output::note(format!(
            "note: {} is not one of the definition files ({}); read it with `mcpctl --file {} list`",
            target.display(),
            ctx.sources.describe(),
            target.display()
        ));
    }
}
