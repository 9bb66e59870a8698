//! The check engine that `mcpctl check`, `mcpctl lock` and `add`'s check
//! share: connect to many servers at once, each within its own budget, and
//! hand back one outcome per server in the order they were given.
//!
//! It lives below the command line so that `check` and `lock` both use it
//! without one command reaching into the other.

use std::sync::Arc;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use crate::defs::ServerDef;
use crate::mcp::{self, ConnectError, DiscoverOptions, DiscoveryReport};
use crate::output;

/// How many servers are checked at once when `--jobs` is not given.
pub const DEFAULT_MAX_JOBS: usize = 32;

/// What is said of a healthy server that offers no tools (MCP allows it).
pub const NO_TOOLS_CAPABILITY: &str = "ok, no tools capability";

/// How many servers to check at once: `requested` (`--jobs`), else
/// [`DEFAULT_MAX_JOBS`], never more than there are servers, at least one.
pub fn jobs(requested: Option<u16>, servers: usize) -> usize {
    requested
        .map(usize::from)
        .unwrap_or(DEFAULT_MAX_JOBS)
        .min(servers)
        .max(1)
}

/// The runtime a run of checks uses: two workers are enough for servers
/// whose time is spent waiting, and leave the machine to the servers.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// One server's outcome.
pub struct Outcome {
    /// The server as it was checked.
    pub def: ServerDef,
    /// `None` for a disabled server that was listed but not checked.
    pub result: Option<std::result::Result<DiscoveryReport, ConnectError>>,
}

impl Outcome {
    /// Reached, and no lint that counts as an error.
    pub fn ok(&self) -> bool {
        matches!(&self.result, Some(Ok(report)) if !report.has_lint_errors())
    }

    /// Checked and not ok (a skipped server neither passed nor failed).
    pub fn failed(&self) -> bool {
        self.result.is_some() && !self.ok()
    }
}

/// The one-line verdict `add` prints after a successful check:
/// `ok, 14 tools: echo, get-env, get-sum, …`.
pub fn summary(report: &DiscoveryReport) -> String {
    const SHOWN: usize = 8;
    if !report.tools_capability {
        return NO_TOOLS_CAPABILITY.to_string();
    }
    let names: Vec<_> = report
        .tools
        .iter()
        .take(SHOWN)
        .map(|t| output::sanitize(&t.name))
        .collect();
    let more = if report.tools.len() > SHOWN {
        ", …"
    } else {
        ""
    };
    format!(
        "ok, {} tools: {}{more}",
        report.tools.len(),
        names.join(", ")
    )
}

/// Check every server in `defs`, at most `jobs` at once, each in a task of
/// its own so that a slow server never holds up the others; with
/// `progress`, one spinner per server. Outcomes come back in `defs`' order.
pub async fn check_all(
    defs: Vec<ServerDef>,
    opts: DiscoverOptions,
    jobs: usize,
    progress: Option<MultiProgress>,
) -> Vec<Outcome> {
    use futures::StreamExt;

    let opts = Arc::new(opts);
    let style =
        ProgressStyle::with_template("{spinner} {prefix:.bold} {msg}").expect("a valid template");
    let results = futures::stream::iter(defs.into_iter().enumerate())
        .map(|(index, def)| {
            let opts = opts.clone();
            let bar = progress.as_ref().map(|p| spinner(p, &style, &def));
            async move { (index, check_in_task(def, opts, bar).await) }
        })
        .buffer_unordered(jobs)
        .collect::<Vec<_>>()
        .await;
    let mut results = results;
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, outcome)| outcome).collect()
}

/// A spinner for `def` under `progress`, saying it is connecting.
fn spinner(progress: &MultiProgress, style: &ProgressStyle, def: &ServerDef) -> ProgressBar {
    let bar = progress.add(
        ProgressBar::new_spinner()
            .with_style(style.clone())
            .with_prefix(output::sanitize(&def.name).into_owned()),
    );
    bar.set_message("connecting…");
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// One server's check in its own task (so slow servers never serialize),
/// finishing its spinner with the verdict.
async fn check_in_task(
    def: ServerDef,
    opts: Arc<DiscoverOptions>,
    bar: Option<ProgressBar>,
) -> Outcome {
    let task_def = def.clone();
    let result = tokio::spawn(async move { mcp::discover(&task_def, &opts).await })
        .await
        .unwrap_or_else(|e| {
            Err(ConnectError::Transport {
                server: def.name.clone(),
                phase: mcp::Phase::Spawn,
                detail: format!("internal error: {e}"),
            })
        });
    if let Some(bar) = bar {
        bar.finish_with_message(match &result {
            Ok(r) if !r.tools_capability => NO_TOOLS_CAPABILITY.into(),
            Ok(r) => format!("ok, {} tools", r.tools.len()),
            Err(e) => format!("failed: {}", e.kind()),
        });
    }
    Outcome {
        def,
        result: Some(result),
    }
}
