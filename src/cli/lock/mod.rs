//! `mcpctl lock`: pin what each server launches and what its catalog
//! claims, in the lockfile beside its definitions file; `--check` compares
//! instead of writing. What the servers show now (`observe.rs`) and the drift
//! report (`drift.rs`) are shared with `check --locked`, `approve` and `pin`.

pub(crate) mod drift;
pub(crate) mod observe;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use self::drift::{add_drift_json, any_drift, drift_of, print_drift};
use self::observe::{Locks, Observed, observe, parse_timeout, pick, report_failures};
use super::Context;
use crate::defs::Catalog;
use crate::error::{ExitCode, Result};
use crate::lock::{LockFile, ServerLock, file};
use crate::output;

const LONG_ABOUT: &str = "\
Connect to each server (as `check` does) and write what it launches and what
it claims into the lockfile beside its definitions file, so that CI (`check
--locked`) and the supervisor notice when it changes.

The lockfile is named after the definitions file: its name without the last
extension, plus `.lock` (servers.json → servers.lock, .mcp.json → .mcp.lock).
It is TOML, sorted, one block per server, meant to be committed and reviewed.
Per server it records:
  - the artifact: for npx/bunx/pnpm dlx/yarn dlx the npm package, its exact
    version and the registry's dist.integrity; for uvx/pipx the PyPI package,
    its exact version and the sha256 of each of its files; for docker/podman
    the image, and its digest only when the definition pins one (image
    registries are not asked; `mcpctl pin` writes it); the URL of a remote server; else the command;
  - serverInfo name and version, the negotiated protocol version, and the
    client capabilities the catalog was listed with (every connection
    mcpctl makes offers the same: elicitation, roots, sampling);
  - every tool, prompt and resource template: the canonical JSON (sorted
    keys) of what it claims (a tool's title, description, inputSchema,
    outputSchema and annotations) and its sha256.

Registries, as the launchers read them: npm from MCPCTL_NPM_REGISTRY, else
npm_config_registry, else registry= in .npmrc (beside the definitions file,
the current directory, then ~/.npmrc; @scope:registry= lines for their
scope), else https://registry.npmjs.org; PyPI from MCPCTL_PYPI_URL (a JSON
API), else UV_DEFAULT_INDEX, UV_INDEX_URL or PIP_INDEX_URL (a simple index,
PEP 691 JSON), else https://pypi.org. A lookup that fails is recorded as a
note on the artifact, never guessed.

With NAMEs only those blocks are rewritten; without, every enabled server is
locked and blocks of servers no longer defined are dropped. Nothing is written
when any server fails, or when the lockfile cannot be read (it is left as it
is).

--check writes nothing: it compares the live servers, and the registries'
answers, with the lockfile and prints every difference.

Exit status: 0 written (or, with --check, no drift); 1 a server failed;
2 the lockfile is malformed or belongs to another definitions file; 4 drift
(with --check), or a server not in the lock.";

const EXAMPLES: &str = "\
Examples:
  mcpctl lock                       # lock every enabled server
  mcpctl lock time                  # (re)lock one server, keep the others
  mcpctl lock --check               # CI: compare, exit 4 on drift
  mcpctl check --locked             # the same without asking registries
  git diff servers.lock             # review what changed";

/// Arguments of `mcpctl lock`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_long_help = EXAMPLES)]
pub struct Args {
    /// Servers to lock (default: every enabled server).
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub names: Vec<String>,

    /// Compare with the lockfile instead of writing it; drift exits 4.
    #[arg(long)]
    pub check: bool,

    /// How many servers to connect to at once (default: all, at most 32).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Budget per server in seconds, overriding each connect_timeout.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// Lock (or, with `--check`, compare) the selected servers.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let catalog = ctx.catalog()?;
    let defs = pick(ctx, &catalog, &args.names)?;
    if defs.is_empty() {
        if ctx.json {
            output::print_json(&json!({"schema_version": 1, "servers": [], "lockfiles": []}))?;
        } else {
            output::note(format!(
                "no enabled servers in {}; nothing to lock",
                catalog.sources.describe()
            ));
        }
        return Ok(ExitCode::Success);
    }
    // Read every lockfile first: a malformed one stops everything before
    // any server is started.
    let mut locks = Locks::new(ctx.allow_insecure_file);
    for def in &defs {
        locks.get(&def.source)?;
    }
    let observed = observe(defs, parse_timeout(args.timeout)?, args.jobs)?;
    let failed = report_failures(&observed);
    if args.check {
        return compare_only(ctx, &observed, &mut locks, failed);
    }
    if failed > 0 {
        output::error(
            &format!("not locked: {failed} server(s) failed; no lockfile was written"),
            Some("fix the server or name only the others: `mcpctl lock NAME…`"),
        );
        return Ok(ExitCode::Failed);
    }
    write_observed(ctx, &catalog, observed, &args.names)
}

/// `lock --check`: print the drift, write nothing.
fn compare_only(
    ctx: &Context,
    observed: &[Observed],
    locks: &mut Locks,
    failed: usize,
) -> Result<ExitCode> {
    let drift = drift_of(observed, locks, false)?;
    if ctx.json {
        let mut doc = json!({"schema_version": 1, "servers": [], "failed": failed});
        add_drift_json(&mut doc, &drift);
        output::print_json(&doc)?;
    } else {
        print_drift(&drift)?;
        if !any_drift(&drift) && failed == 0 {
            output::line("no drift: every server matches its lockfile")?;
        }
    }
    Ok(if any_drift(&drift) {
        ExitCode::Conflict
    } else if failed > 0 {
        ExitCode::Failed
    } else {
        ExitCode::Success
    })
}

/// Write every observed block, one write per definitions file; without
/// `names`, blocks of servers no longer defined there are dropped.
fn write_observed(
    ctx: &Context,
    catalog: &Catalog,
    observed: Vec<Observed>,
    names: &[String],
) -> Result<ExitCode> {
    let mut by_source: BTreeMap<PathBuf, Vec<(String, ServerLock)>> = BTreeMap::new();
    for (def, result) in observed {
        if let Ok(block) = result {
            by_source
                .entry(def.source.clone())
                .or_default()
                .push((def.name.clone(), block));
        }
    }
    let mut written = Vec::new();
    let mut shown = Vec::new();
    for (source, blocks) in by_source {
        let keep: Option<Vec<String>> = names.is_empty().then(|| {
            catalog
                .servers()
                .iter()
                .filter(|d| d.source == source)
                .map(|d| d.name.clone())
                .collect()
        });
        for (name, block) in &blocks {
            shown.push(block_json(name, block));
        }
        let (path, changed) = write_blocks(&source, &blocks, keep.as_deref())?;
        if !ctx.json {
            print_written(&blocks, &path, changed)?;
        }
        written.push(json!({"path": path, "changed": changed,
            "servers": blocks.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()}));
    }
    if ctx.json {
        output::print_json(&json!({"schema_version": 1, "servers": shown, "lockfiles": written}))?;
    }
    Ok(ExitCode::Success)
}

/// What was locked into one lockfile, and whether it changed.
fn print_written(blocks: &[(String, ServerLock)], path: &Path, changed: bool) -> Result<()> {
    for (name, block) in blocks {
        output::line(describe(name, block))?;
        let twice = crate::lock::ambiguous_pin().hash;
        for (tool, _) in block.tools.iter().filter(|(_, p)| p.hash == twice) {
            output::warn(
                &format!(
                    "{name}: tool `{}` is {}; recorded as ambiguous, it is never served or callable",
                    output::sanitize(tool),
                    crate::lock::LISTED_TWICE
                ),
                Some("ask the server's maintainers to list each tool once"),
            );
        }
    }
    output::line(if changed {
        format!("wrote {}", path.display())
    } else {
        format!("{} is up to date", path.display())
    })?;
    Ok(())
}

/// Replace `blocks` in the lockfile of `source` (and, when `keep` is given,
/// drop blocks of servers not in it). Returns the path and whether the text
/// changed. A lockfile that cannot be read is refused and left as it is.
pub(super) fn write_blocks(
    source: &Path,
    blocks: &[(String, ServerLock)],
    keep: Option<&[String]>,
) -> Result<(PathBuf, bool)> {
    let path = file::path_for(source)?;
    let changed = crate::defs::store::modify(&path, |current| {
        let mut lock = match current {
            Some(text) => {
                let lock = file::parse(&path, text)?;
                file::belongs(&path, &lock, source)?;
                lock
            }
            None => LockFile {
                definitions: file::definitions_name(source),
                servers: BTreeMap::new(),
            },
        };
        if let Some(keep) = keep {
            lock.servers.retain(|name, _| keep.contains(name));
        }
        for (name, block) in blocks {
            lock.servers.insert(name.clone(), block.clone());
        }
        let text = file::render(&lock);
        Ok((current != Some(text.as_str())).then_some((text, ())))
    })?;
    Ok((path, changed.is_some()))
}

fn describe(name: &str, block: &ServerLock) -> String {
    let a = &block.artifact;
    let mut artifact = format!("{} {}", a.kind, output::sanitize(&a.source));
    if let Some(v) = &a.version {
        artifact.push_str(&format!(" {}", output::sanitize(v)));
    }
    if !a.integrity.is_empty() {
        artifact.push_str(&format!(
            " ({} integrity hash{})",
            a.integrity.len(),
            if a.integrity.len() == 1 { "" } else { "es" }
        ));
    }
    let server = match (&block.server_name, &block.server_version) {
        (Some(n), Some(v)) => format!("{} {}", output::sanitize(n), output::sanitize(v)),
        _ => "-".into(),
    };
    format!(
        "locked {name}: {artifact}; server {server}; {} tools, {} prompts, {} resource templates",
        block.tools.len(),
        block.prompts.len(),
        block.resource_templates.len()
    )
}

fn block_json(name: &str, block: &ServerLock) -> Value {
    let a = &block.artifact;
    json!({
        "name": name,
        "artifact": {
            "kind": a.kind, "source": a.source, "version": a.version,
            "pinned": a.pinned, "integrity": a.integrity, "note": a.note,
        },
        "server_name": block.server_name,
        "server_version": block.server_version,
        "protocol": block.protocol,
        "transport": block.transport,
        "capabilities": block.capabilities,
        "tools": block.tools.keys().collect::<Vec<_>>(),
        "prompts": block.prompts.keys().collect::<Vec<_>>(),
        "resource_templates": block.resource_templates.keys().collect::<Vec<_>>(),
    })
}
