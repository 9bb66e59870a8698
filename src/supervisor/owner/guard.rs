//! The lockfile guard: which tools of the current catalog are held back.
//!
//! The verdict is computed on demand (`status`, `tools`, `call`) and cached
//! against the catalog id and the lockfile's stamp, so a new catalog (start,
//! refresh) or a new lockfile (`mcpctl approve`, `mcpctl lock`) is judged
//! afresh without any message to the supervisor.

use std::sync::Arc;

use super::{Inner, Owner};
use crate::lock::guard::{self, Stamp, Verdict};
use crate::supervisor::protocol::{ErrorCode, WireError};

/// A verdict and what it was computed from.
pub(super) struct Cached {
    catalog_id: String,
    stamp: Option<Stamp>,
    verdict: Option<Arc<Verdict>>,
}

impl Owner {
    /// The verdict on the current catalog; `None` without a catalog or a
    /// lockfile.
    pub(super) fn verdict(&self, st: &mut Inner) -> Option<Arc<Verdict>> {
        let catalog = st.catalog.clone()?;
        let (_, stamp) = guard::stamp(&st.def.source);
        if let Some(cached) = &st.guard
            && cached.catalog_id == catalog.id
            && cached.stamp == stamp
        {
            return cached.verdict.clone();
        }
        let verdict = stamp
            .and_then(|_| {
                let allow = st.allow_insecure_file || crate::defs::trust::allowed_by_env();
                guard::evaluate(&st.def.source, &self.name, &catalog.parsed(), allow)
            })
            .map(Arc::new);
        if let Some(v) = verdict.as_ref().filter(|v| v.drifted()) {
            let held: Vec<&str> = v.held.keys().map(String::as_str).collect();
            crate::supervisor::logs::note(
                &self.log_path(),
                &format!(
                    "drifted from {}: holding back {}",
                    v.lockfile.display(),
                    if held.is_empty() {
                        "no tools (only removals)".to_string()
                    } else {
                        crate::output::sanitize(&held.join(", ")).into_owned()
                    }
                ),
            );
        }
        st.guard = Some(Cached {
            catalog_id: catalog.id.clone(),
            stamp,
            verdict: verdict.clone(),
        });
        verdict
    }

    /// Refuse a call to a held tool (exit 4), naming the drift.
    pub(super) fn refuse_held(&self, tool: &str) -> Result<(), WireError> {
        let mut st = self.lock();
        let Some(verdict) = self.verdict(&mut st) else {
            return Ok(());
        };
        match verdict.held(tool) {
            None => Ok(()),
            Some(why) => Err(WireError::new(
                ErrorCode::Conflict,
                format!(
                    "`{}` drifted from {}: {why}; the tool is held back until approved",
                    self.name,
                    verdict.lockfile.display()
                ),
            )
            .hint(format!(
                "review the change with `mcpctl approve {} --dry-run`, then `mcpctl approve {}`",
                self.name, self.name
            ))),
        }
    }
}
