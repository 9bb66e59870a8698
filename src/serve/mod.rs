//! `mcpctl serve`: the supervised servers as one MCP endpoint for agents.
//!
//! `serve` is a client of the supervisor's socket, never a second
//! supervisor: agent requests become the socket's `tools` and `call`, so
//! every guarantee of `mcpctl call` holds. Only granted tools are exposed
//! ([`crate::defs::grants`]), named `<server>__<tool>` ([`naming`]), from
//! one merged catalog ([`catalog`]); a watcher tells connected agents when
//! that catalog changes and ends the session when the supervisor goes.

pub mod audit;
pub mod catalog;
pub mod config;
pub mod error;
pub mod handler;
pub mod http;
pub mod naming;
pub mod passthrough;
pub mod relay;
pub mod settings;
pub mod shared;
pub mod token;
pub mod upstream;
pub mod whole;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;

pub use error::ServeError;
use handler::Gateway;
use shared::{Changed, Shared};

/// How often the watcher looks at the supervisor and the definition files.
pub const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Start the granted servers that may be started and are not running, and
/// wait until they are ready (or failed); failures are reported, not fatal.
/// Blocking, and run beside the sessions: the watcher sees the new
/// catalogs and tells the agents (`tools/list_changed`).
pub fn start_granted(shared: &Shared, allow_insecure_file: bool) {
    use crate::supervisor::protocol::{Body, Op, Target};
    let granted = shared.granted();
    if granted.startable.is_empty() {
        return;
    }
    let running: Vec<String> = match shared.upstream.request_blocking(Op::Status {
        names: granted.startable.clone(),
    }) {
        Ok(Body::Servers { servers, .. }) => servers
            .into_iter()
            .filter(|s| matches!(s.state.as_str(), "ready" | "refreshing" | "drifted"))
            .map(|s| s.name)
            .collect(),
        _ => Vec::new(),
    };
    let names: Vec<String> = granted
        .startable
        .iter()
        .filter(|n| !running.contains(n))
        .cloned()
        .collect();
    if names.is_empty() {
        return;
    }
    let env = crate::defs::Catalog::load(&shared.settings.sources)
        .map(|c| {
            crate::defs::vars::LaunchEnv::capture(
                c.servers().iter().filter(|d| names.contains(&d.name)),
            )
        })
        .unwrap_or_default();
    let reply = shared.upstream.request_blocking(Op::Start(Target {
        names,
        all: false,
        allow_insecure_file,
        env: Some(env),
    }));
    if let Ok(Body::Batch { results }) = reply {
        for r in results.iter().filter(|r| r.error.is_some()) {
            if let Some(e) = &r.error {
                // `warn` sanitizes, keeping the lines of a stderr tail.
                crate::output::warn(
                    &format!("cannot start `{}`: {}", r.name, e.message),
                    Some(&format!("see `mcpctl status {}`", r.name)),
                );
            }
        }
    }
}

/// Watch the supervisor and the definitions until the supervisor goes:
/// rebuild the catalog when a catalog id or a grant changed, and tell the
/// agents. Returns when the supervisor no longer answers.
pub async fn watch(shared: Arc<Shared>) {
    use crate::supervisor::protocol::{Body, Op};
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let this = shared.clone();
        let alive_and_changed = tokio::task::spawn_blocking(move || {
            let granted = this.granted();
            let status = this
                .upstream
                .request_blocking(Op::Status { names: Vec::new() });
            let servers = match status {
                Ok(Body::Servers { servers, .. }) => servers,
                Ok(_) => Vec::new(),
                Err(_) => {
                    return this.upstream.alive_blocking().then(Changed::default);
                }
            };
            let view = this.view();
            let moved = granted.servers.keys().any(|name| {
                let now = servers
                    .iter()
                    .find(|s| &s.name == name)
                    .and_then(|s| s.catalog_id.clone());
                now.as_ref() != view.catalogs.get(name)
            });
            Some(this.rebuild_blocking(moved))
        })
        .await
        .ok()
        .flatten();
        match alive_and_changed {
            None => return,
            Some(changed) => {
                shared
                    .notify_all(changed.merged(shared.take_notice()))
                    .await
            }
        }
    }
}

/// Serve one agent over stdin/stdout until it leaves or the supervisor
/// stops; `Ok(false)` when the supervisor went away first.
pub async fn run_stdio(shared: Arc<Shared>) -> Result<bool, ServeError> {
    let gateway = Gateway::new(shared.clone(), "stdio");
    // Watch from the start: a supervisor that stops before the agent has
    // even initialized ends the session too.
    let mut watcher = tokio::spawn(watch(shared));
    let running = tokio::select! {
        started = gateway.serve(rmcp::transport::stdio()) => started.map_err(|e| {
            ServeError::Failed(format!("the agent's session did not start: {e}"))
        })?,
        _ = &mut watcher => return Ok(false),
    };
    let token = running.cancellation_token();
    let agent_left = tokio::select! {
        _ = running.waiting() => true,
        _ = &mut watcher => false,
    };
    watcher.abort();
    token.cancel();
    Ok(agent_left)
}
