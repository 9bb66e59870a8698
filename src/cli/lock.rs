//! `mcpctl lock`: pin what each server launches and what its catalog
//! claims, in the lockfile beside its definitions file; `--check` compares
//! instead of writing. Also the drift report shared with `check --locked`
//! and `approve`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::Context;
use super::check::{self, Outcome};
use crate::defs::ServerDef;
use crate::error::{ExitCode, Result, UsageError};
use crate::lock::artifact::{self, Registries};
use crate::lock::diff::{self, Change, compare};
use crate::lock::{LockError, LockFile, ServerLock, file};
use crate::mcp::{self, ConnectError, DiscoverOptions};
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
        let drift = drift_of(&observed, &mut locks, false)?;
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
        return Ok(if any_drift(&drift) {
            ExitCode::Conflict
        } else if failed > 0 {
            ExitCode::Failed
        } else {
            ExitCode::Success
        });
    }
    if failed > 0 {
        output::error(
            &format!("not locked: {failed} server(s) failed; no lockfile was written"),
            Some("fix the server or name only the others: `mcpctl lock NAME…`"),
        );
        return Ok(ExitCode::Failed);
    }
    // One write per definitions file.
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
        let keep: Option<Vec<String>> = args.names.is_empty().then(|| {
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
            for (name, block) in &blocks {
                output::line(describe(name, block))?;
            }
            output::line(if changed {
                format!("wrote {}", path.display())
            } else {
                format!("{} is up to date", path.display())
            })?;
        }
        written.push(json!({"path": path, "changed": changed,
            "servers": blocks.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()}));
    }
    if ctx.json {
        output::print_json(&json!({"schema_version": 1, "servers": shown, "lockfiles": written}))?;
    }
    Ok(ExitCode::Success)
}

/// The named servers, or every enabled one; each from a file we may launch from.
pub(super) fn pick(
    ctx: &Context,
    catalog: &crate::defs::Catalog,
    names: &[String],
) -> Result<Vec<ServerDef>> {
    let defs: Vec<ServerDef> = if names.is_empty() {
        ctx.report_refused(catalog);
        catalog
            .servers()
            .iter()
            .filter(|d| d.enabled)
            .cloned()
            .collect()
    } else {
        let mut picked: Vec<ServerDef> = Vec::new();
        for name in names {
            let def = catalog.get(name)?.clone();
            if !picked.iter().any(|d| d.name == def.name) {
                picked.push(def);
            }
        }
        picked
    };
    for def in &defs {
        ctx.require_trusted(&def.source)?;
    }
    crate::defs::vars::ask_inputs(&defs);
    Ok(defs)
}

pub(super) fn parse_timeout(seconds: Option<f64>) -> Result<Option<Duration>> {
    Ok(match seconds {
        Some(s) => Some(
            crate::validate::seconds::duration("--timeout", s)
                .map_err(|why| UsageError::new(why, "e.g. --timeout 10"))?,
        ),
        None => None,
    })
}

/// What a server shows now, as a lock block (artifact from the registries).
pub(super) type Observed = (ServerDef, std::result::Result<ServerLock, ConnectError>);

/// Connect to every server (full catalogs), and ask the registries.
pub(super) fn observe(
    defs: Vec<ServerDef>,
    timeout: Option<Duration>,
    jobs: Option<u16>,
) -> Result<Vec<Observed>> {
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = timeout;
    opts.full_catalog = true;
    let jobs = jobs
        .map(usize::from)
        .unwrap_or(check::DEFAULT_MAX_JOBS)
        .min(defs.len())
        .max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(UsageError::Output)?;
    let sigpipe = mcp::child::ignore_sigpipe();
    let work = async {
        let outcomes = check::check_all(defs, opts, jobs, None).await;
        let artifacts = futures::future::join_all(outcomes.iter().map(|o| async move {
            artifact::resolve(&o.def, &Registries::for_file(&o.def.source)).await
        }))
        .await;
        outcomes
            .into_iter()
            .zip(artifacts)
            .map(|(o, a)| {
                let result = match o.result {
                    Some(Ok(report)) => Ok(crate::lock::block(&report, a)),
                    Some(Err(e)) => Err(e),
                    None => Err(ConnectError::Transport {
                        server: o.def.name.clone(),
                        phase: mcp::Phase::Spawn,
                        detail: "not checked".into(),
                    }),
                };
                (o.def, result)
            })
            .collect::<Vec<_>>()
    };
    let observed = super::interrupt::block_on(&runtime, work);
    drop(runtime);
    drop(sigpipe);
    Ok(observed?)
}

/// Print each failure with its hint; how many there were.
pub(super) fn report_failures(observed: &[Observed]) -> usize {
    let mut failed = 0;
    for (_, result) in observed {
        if let Err(err) = result {
            failed += 1;
            output::error(
                &format!("FAILED {err}"),
                crate::error::Diagnostic::hint(err).as_deref(),
            );
        }
        if let Ok(block) = result
            && let Some(note) = &block.artifact.note
            && note.starts_with("registry lookup failed")
        {
            output::warn(&output::sanitize(note), None);
        }
    }
    failed
}

/// Lockfiles by definitions file, each read once.
pub(super) struct Locks {
    read: BTreeMap<PathBuf, (PathBuf, Option<LockFile>)>,
    allow_insecure_file: bool,
}

impl Locks {
    /// No lockfile read yet; `allow_insecure_file` reads one another user
    /// could change.
    pub(super) fn new(allow_insecure_file: bool) -> Locks {
        Locks {
            read: BTreeMap::new(),
            allow_insecure_file,
        }
    }

    /// The lockfile path and content for `source` (`None`: no lockfile).
    pub(super) fn get(
        &mut self,
        source: &Path,
    ) -> std::result::Result<&(PathBuf, Option<LockFile>), LockError> {
        if !self.read.contains_key(source) {
            let entry = match file::load(source, self.allow_insecure_file)? {
                Some((path, lock)) => (path, Some(lock)),
                None => (file::path_for(source)?, None),
            };
            self.read.insert(source.to_path_buf(), entry);
        }
        Ok(&self.read[source])
    }
}

/// One server's comparison with its lockfile.
#[derive(Debug)]
pub(super) struct Drift {
    name: String,
    lockfile: PathBuf,
    /// `None`: the server was not reached, so not compared.
    changes: Option<Vec<Change>>,
    /// What may explain the changes (see [`diff::capabilities_note`]).
    note: Option<String>,
}

/// `check --locked`: compare what discovery saw with each lock, using the
/// artifact as the definition names it (no registry).
pub(super) fn drift_offline(ctx: &Context, outcomes: &[Outcome]) -> Result<Vec<Drift>> {
    let observed: Vec<Observed> = outcomes
        .iter()
        .filter_map(|o| {
            let result = match o.result.as_ref()? {
                Ok(report) => Ok(crate::lock::block(report, artifact::offline(&o.def))),
                Err(e) => Err(ConnectError::Transport {
                    server: o.def.name.clone(),
                    phase: e.phase().unwrap_or(mcp::Phase::Spawn),
                    detail: e.to_string(),
                }),
            };
            Some((o.def.clone(), result))
        })
        .collect();
    drift_of(&observed, &mut Locks::new(ctx.allow_insecure_file), true)
}

pub(super) fn drift_of(
    observed: &[Observed],
    locks: &mut Locks,
    offline: bool,
) -> Result<Vec<Drift>> {
    let mut drift = Vec::new();
    for (def, result) in observed {
        let (path, lock) = locks.get(&def.source)?;
        let locked = lock.as_ref().and_then(|l| l.servers.get(&def.name));
        let changes = result.as_ref().ok().map(|now| match locked {
            Some(locked) => compare(locked, now, offline),
            None => vec![Change::NotLocked],
        });
        let note = locked
            .zip(changes.as_ref())
            .and_then(|(locked, changes)| diff::capabilities_note(locked, changes));
        drift.push(Drift {
            name: def.name.clone(),
            lockfile: path.clone(),
            changes,
            note,
        });
    }
    Ok(drift)
}

/// True when any server drifted or is not in its lock.
pub(super) fn any_drift(drift: &[Drift]) -> bool {
    drift
        .iter()
        .any(|d| d.changes.as_ref().is_some_and(|c| !c.is_empty()))
}

fn status(d: &Drift) -> &'static str {
    match &d.changes {
        None => "unchecked",
        Some(c) if c.is_empty() => "ok",
        Some(c) if c == &[Change::NotLocked] => "not_locked",
        Some(_) => "drifted",
    }
}

/// Add `lock` to each server entry of a `--json` document, and `drifted`.
pub(super) fn add_drift_json(doc: &mut Value, drift: &[Drift]) {
    let entries: Vec<Value> = drift.iter().map(drift_json).collect();
    if let Some(servers) = doc.get_mut("servers").and_then(Value::as_array_mut) {
        for entry in servers.iter_mut() {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some(d) = drift.iter().find(|d| Some(&d.name) == name.as_ref()) {
                entry["lock"] = drift_json(d);
            }
        }
        if servers.is_empty() {
            *servers = entries;
        }
    }
    doc["drifted"] = json!(
        drift
            .iter()
            .filter(|d| d.changes.as_ref().is_some_and(|c| !c.is_empty()))
            .count()
    );
}

pub(super) fn drift_json(d: &Drift) -> Value {
    json!({
        "name": d.name,
        "lockfile": d.lockfile,
        "status": status(d),
        "changes": d.changes.clone().unwrap_or_default(),
    })
}

/// Print every server that drifted, with what changed.
pub(super) fn print_drift(drift: &[Drift]) -> Result<()> {
    for d in drift {
        let Some(changes) = d.changes.as_ref().filter(|c| !c.is_empty()) else {
            continue;
        };
        output::line("")?;
        output::line(format!(
            "DRIFT {} ({}): {} change{}",
            d.name,
            d.lockfile.display(),
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        ))?;
        print_changes(changes)?;
        if let Some(note) = &d.note {
            output::line(format!("  note: {note}"))?;
        }
        output::line(format!(
            "  hint: review it, then `mcpctl approve {}` (or `mcpctl lock {}`) to accept it",
            d.name, d.name
        ))?;
    }
    Ok(())
}

/// The lines of a change list, indented under a heading.
pub(super) fn print_changes(changes: &[Change]) -> Result<()> {
    for change in changes {
        output::line(format!("  {}", change.summary()))?;
        for line in change.detail() {
            output::line(format!("      {line}"))?;
        }
    }
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
