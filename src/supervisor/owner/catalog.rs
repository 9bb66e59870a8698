//! The tool catalog: complete snapshots (validators compiled on first
//! call), refresh (publish only when complete) and the `tools` answer.

use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use std::collections::BTreeSet;

use rmcp::model::{Prompt, ResourceTemplate, Tool};

use super::Owner;
use super::state::{State, failed, from_connect};
use crate::lock::guard::Verdict;
use crate::mcp::Connection;
use crate::mcp::connection::DEFAULT_MAX_PAGES;
use crate::supervisor::admit;
use crate::supervisor::protocol::{Body, ErrorCode, HeldTool, ServerStatus, ToolInfo, WireError};

/// The budget of a refresh (every `tools/list` page).
pub const REFRESH_BUDGET: Duration = Duration::from_secs(30);

/// How many compiled validators one catalog keeps. A validator costs tens of
/// times its schema's JSON, so they are compiled when a tool is first
/// called, and the least recently used one goes when the cache is full.
pub const VALIDATOR_CACHE: usize = 64;

/// A published, complete tool catalog.
///
/// Each tool is kept once, as the compact JSON it was listed as, all in one
/// buffer: a parsed schema costs several times its JSON, and a supervisor
/// holds many catalogs. Tools are parsed again only when asked for
/// (`tools`, the lockfile guard, a call's validator).
pub struct Snapshot {
    /// The catalog id.
    pub id: String,
    /// Every tool's name and JSON, one after the other.
    text: String,
    /// Where each tool's name and JSON are in `text`, in server order.
    tools: Vec<Stored>,
    /// Compiled validators of recently called tools, most recent last.
    validators: Mutex<Vec<(Box<str>, admit::Compiled)>>,
    /// Names the server listed more than once: held, never served.
    ambiguous: BTreeSet<String>,
    /// The prompts and resource templates listed with it (for the guard).
    extras: Extras,
}

/// The prompts and resource templates of a catalog, as listed (redacted)
/// when the server offers them; the lockfile guard compares them.
#[derive(Debug, Default)]
pub struct Extras {
    /// Every prompt.
    pub prompts: Vec<Prompt>,
    /// Every resource template.
    pub templates: Vec<ResourceTemplate>,
}

/// Where one tool is in [`Snapshot::text`]: its name, then its JSON.
struct Stored {
    name: Range<usize>,
    json: Range<usize>,
}

impl Snapshot {
    /// A catalog of `tools` (which it consumes, keeping each as JSON).
    ///
    /// One buffer rather than one allocation per tool, so the memory the
    /// parsed tools took is left in whole pages, which are given back to
    /// the system once they are dropped ([`crate::supervisor::memory`]).
    pub(super) fn new(id: String, tools: Vec<Tool>) -> Snapshot {
        let ambiguous = crate::lock::ambiguous(&tools);
        let mut text = String::new();
        let mut stored = Vec::with_capacity(tools.len());
        for tool in &tools {
            let Ok(json) = serde_json::to_string(tool) else {
                continue;
            };
            let start = text.len();
            text.push_str(&tool.name);
            let name = start..text.len();
            text.push_str(&json);
            stored.push(Stored {
                json: name.end..text.len(),
                name,
            });
        }
        drop(tools);
        text.shrink_to_fit();
        crate::supervisor::memory::release();
        Snapshot {
            id,
            text,
            tools: stored,
            validators: Mutex::new(Vec::new()),
            ambiguous,
            extras: Extras::default(),
        }
    }

    /// The same catalog with the prompts and templates listed beside it.
    pub(super) fn with_extras(mut self, extras: Extras) -> Snapshot {
        self.extras = extras;
        self
    }

    /// The prompts and resource templates listed with it.
    pub fn extras(&self) -> &Extras {
        &self.extras
    }

    /// True when the server listed `name` more than once.
    pub fn ambiguous(&self, name: &str) -> bool {
        self.ambiguous.contains(name)
    }

    /// Why the tool `name` is held: listed twice by the server (whatever
    /// the lock says), or the lockfile verdict's reason.
    pub fn held<'a>(&self, verdict: Option<&'a Verdict>, name: &str) -> Option<&'a str> {
        if self.ambiguous(name) {
            return Some(crate::lock::LISTED_TWICE);
        }
        verdict.and_then(|v| v.held(name))
    }

    /// Every name listed more than once.
    pub fn ambiguous_names(&self) -> impl Iterator<Item = &String> {
        self.ambiguous.iter()
    }

    /// How many tools it lists.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when it lists no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Each tool's name and JSON, in server order.
    fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tools
            .iter()
            .map(|t| (&self.text[t.name.clone()], &self.text[t.json.clone()]))
    }

    /// True when it lists a tool named `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.entries().any(|(n, _)| n == name)
    }

    /// Every tool, parsed (for the lockfile guard, which hashes them all).
    pub fn parsed(&self) -> Vec<Tool> {
        self.entries()
            .filter_map(|(_, json)| serde_json::from_str(json).ok())
            .collect()
    }

    /// The validator of `name`'s inputSchema, compiled on first use and
    /// cached (at most [`VALIDATOR_CACHE`] of them); `None` for no such tool.
    pub fn validator(&self, name: &str) -> Option<admit::Compiled> {
        let lock = || self.validators.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut cache = lock();
            if let Some(at) = cache.iter().position(|(n, _)| &**n == name) {
                let hit = cache.remove(at);
                let compiled = hit.1.clone();
                cache.push(hit);
                return Some(compiled);
            }
        }
        let (_, json) = self.entries().find(|(n, _)| *n == name)?;
        let tool: Tool = serde_json::from_str(json).ok()?;
        let compiled = admit::compile(&tool);
        let mut cache = lock();
        if !cache.iter().any(|(n, _)| &**n == name) {
            if cache.len() >= VALIDATOR_CACHE {
                drop(cache.remove(0));
            }
            cache.push((name.into(), compiled.clone()));
        }
        Some(compiled)
    }
}

/// The prompts and resource templates `conn`'s server offers, listed as
/// `lock` lists them; none when it fails to list them (the guard then
/// holds any it lists later, since `serve` compares each with the lock).
pub(super) async fn extras(conn: &Connection, deadline: Instant, budget: Duration) -> Extras {
    match crate::mcp::discover::full_catalog(conn, deadline, budget, DEFAULT_MAX_PAGES).await {
        Ok((prompts, templates)) => Extras { prompts, templates },
        Err(_) => Extras::default(),
    }
}

impl Owner {
    /// Re-list tools; publish a new catalog only when complete.
    pub async fn refresh(self: &Arc<Self>) -> Result<ServerStatus, WireError> {
        self.refresh_binding(None).await
    }

    pub(super) async fn refresh_binding(
        self: &Arc<Self>,
        binding: Option<&str>,
    ) -> Result<ServerStatus, WireError> {
        // Never queue a refresh behind another operation: say so instead.
        // (A refresh triggered by list_changed waits its turn instead, so
        // the change is never lost.)
        let _op = match self.op.try_lock() {
            Ok(guard) => guard,
            Err(_) if binding.is_some() => self.op.lock().await,
            Err(_) => {
                let state = self.lock().state;
                return Err(self.busy(state.as_str()));
            }
        };
        let live = {
            let mut st = self.lock();
            let live = match (&st.live, st.state) {
                (Some(live), State::Ready) => live.clone(),
                _ => {
                    return Err(WireError::new(
                        ErrorCode::Conflict,
                        format!(
                            "`{}` is {}, and only a ready server can be refreshed",
                            self.name,
                            st.state.as_str()
                        ),
                    )
                    .hint(format!("run `mcpctl start {}`", self.name)));
                }
            };
            if binding.is_some_and(|b| b != live.binding_id) {
                return Err(WireError::new(ErrorCode::Stale, "binding changed"));
            }
            st.state = State::Refreshing;
            live
        };
        let listed = {
            let mut conn = live.conn.lock().await;
            let deadline = Instant::now() + REFRESH_BUDGET;
            match conn
                .list_tools(deadline, REFRESH_BUDGET, DEFAULT_MAX_PAGES)
                .await
            {
                Ok(pages) => Ok((pages, extras(&conn, deadline, REFRESH_BUDGET).await)),
                Err(e) => Err(e),
            }
        };
        let mut st = self.lock();
        if st.state == State::Refreshing {
            st.state = State::Ready;
        }
        match listed {
            Ok((pages, extras)) => {
                let snapshot = Snapshot::new(self.shared.new_id("c"), pages.tools);
                st.catalog = Some(Arc::new(snapshot.with_extras(extras)));
                st.catalog_stale = false;
                drop(st);
                Ok(self.status())
            }
            Err(e) => {
                st.catalog_stale = true;
                st.last_error = Some(from_connect(&e));
                Err(failed(format!(
                    "refresh failed; the old catalog is kept and marked stale: {e}"
                )))
            }
        }
    }

    /// The current catalog: the tools the lockfile guard lets through, or
    /// with `with_held` every tool (the held ones are named in `held`
    /// either way).
    pub fn tools(&self, with_held: bool) -> Result<Body, WireError> {
        let mut st = self.lock();
        let verdict = self.verdict(&mut st);
        let held = |name: &str| {
            st.catalog
                .as_ref()
                .and_then(|c| c.held(verdict.as_deref(), name))
        };
        let mut named = BTreeSet::new();
        match (&st.live, &st.catalog) {
            (Some(live), Some(cat)) => Ok(Body::Tools {
                name: self.name.clone(),
                binding_id: live.binding_id.clone(),
                catalog_id: cat.id.clone(),
                stale: st.catalog_stale,
                held: cat
                    .entries()
                    .filter(|(name, _)| named.insert(*name))
                    .filter_map(|(name, _)| {
                        held(name).map(|why| HeldTool {
                            name: name.to_string(),
                            reason: why.to_string(),
                        })
                    })
                    .collect(),
                tools: cat
                    .entries()
                    .filter(|(name, _)| with_held || held(name).is_none())
                    .filter_map(|(_, json)| serde_json::from_str::<ToolInfo>(json).ok())
                    .collect(),
            }),
            _ => Err(self.not_ready(st.state)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(n: usize) -> Tool {
        let schema = json!({"type":"object","properties":{format!("p{n}"):{"type":"string"}},"required":[format!("p{n}")]});
        Tool::new(
            format!("t{n}"),
            "d",
            schema.as_object().expect("an object").clone(),
        )
    }

    #[test]
    fn validators_are_compiled_on_first_use_and_bounded() {
        let tools: Vec<Tool> = (0..3 * VALIDATOR_CACHE).map(tool).collect();
        let snapshot = Snapshot::new("c1".into(), tools.clone());
        assert_eq!(snapshot.len(), tools.len());
        assert_eq!(
            snapshot.parsed(),
            tools,
            "kept as JSON, parsed back the same"
        );
        assert!(snapshot.validators.lock().unwrap().is_empty());
        for n in 0..3 * VALIDATOR_CACHE {
            let validator = snapshot.validator(&format!("t{n}")).unwrap().unwrap();
            assert!(validator.is_valid(&json!({format!("p{n}"): "x"})));
            assert!(!validator.is_valid(&json!({format!("p{n}"): 1})));
            assert!(snapshot.validators.lock().unwrap().len() <= VALIDATOR_CACHE);
        }
        // The least recently used went first; a hit moves a tool to the end.
        let cached = |n: usize| {
            snapshot
                .validators
                .lock()
                .unwrap()
                .iter()
                .any(|(name, _)| **name == *format!("t{n}"))
        };
        assert!(!cached(0) && cached(3 * VALIDATOR_CACHE - 1));
        let first_kept = 2 * VALIDATOR_CACHE;
        snapshot.validator(&format!("t{first_kept}"));
        snapshot.validator("t0");
        assert!(cached(first_kept) && cached(0) && !cached(first_kept + 1));
        assert!(snapshot.validator("nope").is_none());
        assert!(snapshot.contains("t5") && !snapshot.contains("nope"));
    }
}
