//! The lockfile guard: which tools of the current catalog are held back.
//!
//! The verdict is computed on demand (`status`, `tools`, `call`) and cached
//! against the catalog id and the lockfile's stamp, so a new catalog (start,
//! refresh) or a new lockfile (`mcpctl approve`, `mcpctl lock`) is judged
//! afresh without any message to the supervisor.

use std::sync::Arc;

use super::{Inner, Owner};
use crate::lock::guard::{self, Stamp, Verdict};
use crate::supervisor::admit;
use crate::supervisor::protocol::WireError;

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
                let tools = catalog.parsed();
                let extras = catalog.extras();
                let listed = guard::Listed {
                    tools: &tools,
                    prompts: &extras.prompts,
                    templates: &extras.templates,
                };
                guard::evaluate(&st.def.source, &self.name, listed, allow)
            })
            .map(Arc::new);
        if let Some(v) = verdict.as_ref().filter(|v| v.drifted()) {
            let held: Vec<&str> = (v.held.keys())
                .chain(v.held_prompts.keys())
                .chain(v.held_templates.keys())
                .map(String::as_str)
                .collect();
            crate::supervisor::logs::note(
                &self.log_path(),
                &format!(
                    "drifted from {}: holding back {}",
                    v.lockfile.display(),
                    if held.is_empty() {
                        "nothing (only removals)".to_string()
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

    /// Refuse a call to a held tool (exit 4), naming the drift (or that
    /// the server lists the tool twice).
    pub(super) fn refuse_held(&self, tool: &str) -> Result<(), WireError> {
        let mut st = self.lock();
        if st.catalog.as_ref().is_some_and(|c| c.ambiguous(tool)) {
            return Err(admit::listed_twice(&self.name, tool));
        }
        let Some(verdict) = self.verdict(&mut st) else {
            return Ok(());
        };
        match verdict.held(tool) {
            None => Ok(()),
            Some(why) => Err(admit::drifted(&self.name, &verdict, why, "tool")),
        }
    }

    /// Refuse a `prompts/get` of a prompt the lock does not pin as it is
    /// now (new, changed, or everything without a locked block).
    pub(super) fn refuse_held_prompt(&self, prompt: &str) -> Result<(), WireError> {
        let mut st = self.lock();
        let Some(verdict) = self.verdict(&mut st) else {
            return Ok(());
        };
        let unlocked = || match &verdict.locked {
            Some(locked) if !locked.prompts.contains_key(prompt) => Some(format!(
                "prompt `{}` is not in the lock",
                crate::output::sanitize(prompt)
            )),
            Some(_) => None,
            None => Some("the server is not in the lock".to_string()),
        };
        let why = verdict.held_prompts.get(prompt).cloned().or_else(unlocked);
        match why {
            None => Ok(()),
            Some(why) => Err(admit::drifted(&self.name, &verdict, &why, "prompt")),
        }
    }
}
