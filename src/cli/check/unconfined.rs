//! `check`'s one warning per run about local servers that run unconfined
//! because their entry has no `sandbox` field (hand-written, imported),
//! naming the command that gives them one.

use crate::defs::ServerDef;
use crate::defs::sandbox_kind::unconfined;
use crate::output;

/// How many names the warning lists before "and N more".
const NAMES_SHOWN: usize = 10;

/// The warning for `defs`, or `None` when every local one is contained
/// (or is `"off"`, knowingly).
pub fn warning(defs: &[ServerDef]) -> Option<(String, String)> {
    let names = unconfined(defs);
    let first = *names.first()?;
    let count = names.len();
    let shown: Vec<&str> = names.iter().take(NAMES_SHOWN).copied().collect();
    let more = count.saturating_sub(NAMES_SHOWN);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let message = format!(
        "{count} local server{} run{} unconfined (no sandbox): {}{more}",
        if count == 1 { "" } else { "s" },
        if count == 1 { "s" } else { "" },
        shown.join(", ")
    );
    // Names are checked at load (letters, digits, `-_.`): safe to paste.
    let hint = format!(
        "add one with `mcpctl sandbox {first} --set network` (or none, or a PROFILE.json); `--set off` keeps it unconfined, knowingly"
    );
    Some((message, hint))
}

/// Print [`warning`] on stderr, once.
pub fn warn(defs: &[ServerDef]) {
    if let Some((message, hint)) = warning(defs) {
        output::warn(&message, Some(&hint));
    }
}
