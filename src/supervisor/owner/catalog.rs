//! The tool catalog: complete snapshots with compiled validators, refresh
//! (publish only when complete) and the `tools` answer.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::Tool;
use serde_json::Value;

use super::Owner;
use super::state::{State, failed, from_connect};
use crate::mcp::connection::DEFAULT_MAX_PAGES;
use crate::supervisor::admit;
use crate::supervisor::protocol::{Body, ErrorCode, HeldTool, ServerStatus, ToolInfo, WireError};

/// The budget of a refresh (every `tools/list` page).
pub const REFRESH_BUDGET: Duration = Duration::from_secs(30);

/// A published, complete tool catalog with compiled validators.
pub struct Snapshot {
    /// The catalog id.
    pub id: String,
    /// The tools, in server order.
    pub tools: Vec<Tool>,
    pub(super) validators: HashMap<String, admit::Compiled>,
}

impl Snapshot {
    pub(super) fn new(id: String, tools: Vec<Tool>) -> Snapshot {
        let validators = tools
            .iter()
            .map(|t| (t.name.to_string(), admit::compile(t)))
            .collect();
        Snapshot {
            id,
            tools,
            validators,
        }
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
            conn.list_tools(deadline, REFRESH_BUDGET, DEFAULT_MAX_PAGES)
                .await
        };
        let mut st = self.lock();
        if st.state == State::Refreshing {
            st.state = State::Ready;
        }
        match listed {
            Ok(pages) => {
                st.catalog = Some(Arc::new(Snapshot::new(
                    self.shared.new_id("c"),
                    pages.tools,
                )));
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

    /// The current catalog.
    pub fn tools(&self) -> Result<Body, WireError> {
        let mut st = self.lock();
        let verdict = self.verdict(&mut st);
        let held = |name: &str| verdict.as_ref().and_then(|v| v.held(name));
        match (&st.live, &st.catalog) {
            (Some(live), Some(cat)) => Ok(Body::Tools {
                name: self.name.clone(),
                binding_id: live.binding_id.clone(),
                catalog_id: cat.id.clone(),
                stale: st.catalog_stale,
                held: cat
                    .tools
                    .iter()
                    .filter_map(|t| {
                        held(&t.name).map(|why| HeldTool {
                            name: t.name.to_string(),
                            reason: why.to_string(),
                        })
                    })
                    .collect(),
                tools: cat
                    .tools
                    .iter()
                    .filter(|t| held(&t.name).is_none())
                    .map(|t| ToolInfo {
                        name: t.name.to_string(),
                        description: t.description.as_ref().map(|d| d.to_string()),
                        input_schema: Value::Object((*t.input_schema).clone()),
                    })
                    .collect(),
            }),
            _ => Err(self.not_ready(st.state)),
        }
    }
}
