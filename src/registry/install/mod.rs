//! Turns one registry entry into a pinned [`ServerDef`]: resolve the exact
//! name, refuse what must be refused (near matches, deprecated, deleted),
//! choose a package or remote, fill in inputs, and map the package to its
//! launcher (`npx -y pkg@ver`, `uvx pkg==ver`, `docker run -i --rm … image:tag`).
//!
//! Nothing is guessed: a name that is not exact stops with the near
//! matches, and a choice that is not obvious is prompted for on a terminal
//! or refused with the flags that make it. Secrets are written as `${VAR}`
//! references unless the caller asks to store them; their values travel
//! only in [`InstallPlan::secret_env`], for the check before save.
//!
//! Validation of the local name, launcher and pin, the check before save
//! and the write itself belong to `cli/add.rs` and `defs/`.

use std::path::PathBuf;

use indexmap::IndexMap;

use super::client::RegistryClient;
use super::error::{MissingInput, OptionHint, RegistryError};
use super::types::{Argument, Input, KeyValueInput, Package, Remote, ServerEntry, Status};
use crate::defs::{Launch, LocalProcess, ServerDef, Transport, vars};
use crate::output::sanitize;

mod forms;
mod inputs;
mod launcher_args;
mod plan;
mod select;

pub use forms::{install_form, remote_form};
pub use launcher_args::command_line;
pub use plan::plan_from_entry;
pub use select::Selector;

use forms::launcher;

/// Everything `mcpctl add NAME[@VERSION]` passes to the installer.
#[derive(Debug, Clone, Default)]
pub struct InstallRequest {
    /// The exact registry name, e.g. `io.github.modelcontextprotocol/server-everything`.
    pub name: String,
    /// An exact version; `None` means the latest.
    pub version: Option<String>,
    /// `--package` / `--remote`.
    pub selector: Option<Selector>,
    /// Store a package that serves HTTP as a remote URL (`--as-remote`).
    pub as_remote: bool,
    /// `--env K=V`, also used for `{variable}`s and arguments.
    pub env: IndexMap<String, String>,
    /// `--header 'K: V'`.
    pub headers: IndexMap<String, String>,
    /// `--arg NAME=VALUE` for package arguments and URL variables.
    pub args: IndexMap<String, String>,
    /// `--allow-deprecated`.
    pub allow_deprecated: bool,
    /// `--store-secret`: write secret values literally.
    pub store_secret: bool,
    /// `--trust-runtime-args`: write launcher options and settings the
    /// publisher gave that change what is fetched or widen what runs,
    /// instead of refusing them (noted, and shown before writing).
    pub trust_runtime_args: bool,
    /// Whether prompting is possible (stdin and stderr are terminals).
    pub interactive: bool,
}

impl InstallRequest {
    /// Split `NAME[@VERSION]`. The name itself never contains `@`.
    pub fn from_spec(spec: &str) -> InstallRequest {
        let (name, version) = match spec.rsplit_once('@') {
            Some((n, v)) if !n.is_empty() && !v.is_empty() => (n, Some(v.to_string())),
            _ => (spec, None),
        };
        InstallRequest {
            name: name.trim().to_string(),
            version,
            ..InstallRequest::default()
        }
    }
}

/// A secret value kept only in memory for the check before save; its
/// `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretValue(String);

impl SecretValue {
    /// The value, to put in the environment of the check connection.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SecretValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// What `add` should write, and what it should tell the operator.
#[derive(Debug, Clone)]
pub struct InstallPlan {
    /// The definition, with an empty `source`; its `name` is
    /// [`InstallPlan::suggested_name`].
    pub def: ServerDef,
    /// A valid local name derived from the registry name.
    pub suggested_name: String,
    /// The registry entry's exact name.
    pub registry_name: String,
    /// The registry entry's version (the package version, which can differ,
    /// is in the launch and in [`InstallPlan::chosen`]).
    pub version: String,
    /// What was chosen: e.g. `npm:@scope/pkg@1.2.3 (stdio)` or
    /// `remote streamable-http https://…`.
    pub chosen: String,
    /// Lines to print after the definition (deprecation, secrets, caveats).
    pub notes: Vec<String>,
    /// Values for the `${VAR}` references written for secrets, to expand
    /// during the check before save only. Never written, never printed.
    pub secret_env: IndexMap<String, SecretValue>,
    /// Secret values written literally (`--store-secret`): output must
    /// mask them (see [`InstallPlan::masked`]).
    pub stored_secrets: Vec<SecretValue>,
}

impl InstallPlan {
    /// `def` with every literally stored secret replaced by `mask`, for
    /// printing what was written without echoing a secret.
    pub fn masked(&self, def: &ServerDef, mask: &str) -> ServerDef {
        mask_secrets(def, &self.stored_secrets, mask)
    }
}

/// `def` with each of `secrets` replaced by `mask` wherever it appears.
pub fn mask_secrets(def: &ServerDef, secrets: &[SecretValue], mask: &str) -> ServerDef {
    let hide = |value: &String| {
        secrets
            .iter()
            .filter(|s| !s.0.is_empty())
            .fold(value.clone(), |v, s| v.replace(&s.0, mask))
    };
    let mut shown = def.clone();
    let (args, env, url, headers) = match &mut shown.launch {
        Launch::Stdio { args, env, .. } => (Some(args), Some(env), None, None),
        Launch::Remote {
            url,
            headers,
            process,
            ..
        } => match process {
            Some(p) => (
                Some(&mut p.args),
                Some(&mut p.env),
                Some(url),
                Some(headers),
            ),
            None => (None, None, Some(url), Some(headers)),
        },
    };
    for arg in args.into_iter().flatten() {
        *arg = hide(arg);
    }
    for value in env.into_iter().flat_map(|e| e.values_mut()) {
        *value = hide(value);
    }
    if let Some(url) = url {
        *url = hide(url);
    }
    for value in headers.into_iter().flat_map(|h| h.values_mut()) {
        *value = hide(value);
    }
    shown
}

/// Asks the operator; the terminal implementation uses dialoguer and
/// reads secrets without echo. Tests supply their own.
pub trait Prompter {
    /// Pick one of `items`; returns its index.
    fn select(&mut self, prompt: &str, items: &[String]) -> Result<usize, RegistryError>;
    /// A visible value, with an optional default.
    fn input(&mut self, prompt: &str, default: Option<&str>) -> Result<String, RegistryError>;
    /// A hidden value, never echoed.
    fn secret(&mut self, prompt: &str) -> Result<String, RegistryError>;
}

/// Prompts on the controlling terminal (stderr), so stdout stays clean.
/// Prompts quote registry fields (descriptions, choices, names), so every
/// text shown is sanitized; the values returned are the registry's own.
#[derive(Debug, Default)]
pub struct TerminalPrompter;

impl Prompter for TerminalPrompter {
    fn select(&mut self, prompt: &str, items: &[String]) -> Result<usize, RegistryError> {
        let shown: Vec<String> = items
            .iter()
            .map(|item| sanitize(item).into_owned())
            .collect();
        dialoguer::Select::new()
            .with_prompt(sanitize(prompt))
            .items(&shown)
            .default(0)
            .interact_on(&console::Term::stderr())
            .map_err(|e| RegistryError::Prompt(e.to_string()))
    }

    fn input(&mut self, prompt: &str, default: Option<&str>) -> Result<String, RegistryError> {
        let mut input = dialoguer::Input::<String>::new();
        match default {
            // Shown escaped in the prompt, returned as it is.
            Some(d) => {
                input = input
                    .with_prompt(format!("{} [{}]", sanitize(prompt), sanitize(d)))
                    .default(d.to_string())
                    .show_default(false);
            }
            None => input = input.with_prompt(sanitize(prompt)),
        }
        input
            .interact_text_on(&console::Term::stderr())
            .map_err(|e| RegistryError::Prompt(e.to_string()))
    }

    fn secret(&mut self, prompt: &str) -> Result<String, RegistryError> {
        let term = console::Term::stderr();
        term.write_str(&format!("{} (hidden): ", sanitize(prompt)))
            .map_err(|e| RegistryError::Prompt(e.to_string()))?;
        term.read_secure_line()
            .map_err(|e| RegistryError::Prompt(e.to_string()))
    }
}

/// Resolve `req` against the registry and plan the definition, prompting
/// on the terminal when `req.interactive`.
pub async fn plan_install(
    client: &RegistryClient,
    req: &InstallRequest,
) -> Result<InstallPlan, RegistryError> {
    let mut terminal = TerminalPrompter;
    let prompter: Option<&mut dyn Prompter> = if req.interactive {
        Some(&mut terminal)
    } else {
        None
    };
    plan_install_with(client, req, prompter).await
}

/// [`plan_install`] with an explicit prompter (`None`: no terminal).
pub async fn plan_install_with(
    client: &RegistryClient,
    req: &InstallRequest,
    prompter: Option<&mut dyn Prompter>,
) -> Result<InstallPlan, RegistryError> {
    let entry = resolve_entry(client, req).await?;
    plan_from_entry(&entry, req, prompter)
}

/// Fetch the exact name (and version); anything else is refused with the
/// near matches or the published versions.
pub async fn resolve_entry(
    client: &RegistryClient,
    req: &InstallRequest,
) -> Result<ServerEntry, RegistryError> {
    let version = req.version.as_deref().unwrap_or("latest");
    if let Some(entry) = client.get_version(&req.name, version).await?
        && entry.server.name == req.name
    {
        return Ok(entry);
    }
    // Registries that lack `versions/latest` (or answer it oddly) still
    // list versions: pick the exact one, or the latest, from that list.
    if let Some(list) = client.versions(&req.name).await? {
        let versions: Vec<&ServerEntry> = list
            .servers
            .iter()
            .filter(|e| e.server.name == req.name)
            .collect();
        if !versions.is_empty() {
            let found = match &req.version {
                Some(wanted) => versions.iter().find(|e| &e.server.version == wanted),
                None => versions
                    .iter()
                    .find(|e| e.official.is_latest == Some(true))
                    .or(versions.first()),
            };
            return match (found, &req.version) {
                (Some(entry), _) => Ok((*entry).clone()),
                (None, requested) => Err(RegistryError::VersionNotFound {
                    name: req.name.clone(),
                    version: requested.clone().unwrap_or_else(|| "latest".into()),
                    available: versions.iter().map(|e| e.server.version.clone()).collect(),
                }),
            };
        }
    }
    Err(RegistryError::NoExactMatch {
        name: req.name.clone(),
        near: near_matches(client, &req.name).await,
    })
}

/// How many near names a refusal lists.
const NEAR_SHOWN: usize = 5;

/// The registry names closest to `name`, closest first, for the "did you
/// mean" list. Candidates come from searching the registry (see
/// [`near_candidates`]); they are ranked by edit distance (Damerau-Levenshtein) to the
/// whole name and to its last segment, and only those reasonably close are
/// kept. A failing search just yields none.
pub async fn near_matches(client: &RegistryClient, name: &str) -> Vec<String> {
    rank_near(name, near_candidates(client, name).await)
}

/// The registry names a search finds for `name`: by its last segment and,
/// when that finds nothing (a typo, which a substring search cannot
/// match), by each of its words, by its namespace (`io.github.x/`: the
/// publisher's other entries) and by the first half of its last segment.
/// Each step runs only while the ones before found nothing.
pub async fn near_candidates(client: &RegistryClient, name: &str) -> Vec<String> {
    let (namespace, tail) = match name.rsplit_once('/') {
        Some((namespace, tail)) => (Some(format!("{namespace}/")), tail),
        None => (None, name),
    };
    let term = tail.trim().to_lowercase();
    if term.is_empty() {
        return Vec::new();
    }
    let words: Vec<String> = term
        .split(['-', '_', '.'])
        .filter(|w| w.len() >= 3)
        .take(3)
        .map(str::to_string)
        .collect();
    let prefix: String = term
        .chars()
        .take(term.chars().count().div_ceil(2))
        .collect();
    let steps = [
        words,
        namespace.map(|n| n.to_lowercase()).into_iter().collect(),
        (prefix.chars().count() >= 3)
            .then_some(prefix)
            .into_iter()
            .collect(),
    ];
    let mut candidates = search_names(client, &term).await;
    candidates.retain(|c| c != name);
    for step in steps {
        if !candidates.is_empty() {
            break;
        }
        for term in step {
            for found in search_names(client, &term).await {
                if found != name && !candidates.contains(&found) {
                    candidates.push(found);
                }
            }
        }
    }
    candidates
}

/// The names the registry finds for `term` (latest versions only).
async fn search_names(client: &RegistryClient, term: &str) -> Vec<String> {
    let Ok(outcome) = client.search(term, Some(10), true, &mut |_| {}).await else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    for entry in outcome.servers {
        if !names.contains(&entry.server.name) {
            names.push(entry.server.name);
        }
    }
    names
}

/// `candidates` other than `name` itself, closest to it first, keeping those
/// that contain its last segment or are at least half similar, at most
/// [`NEAR_SHOWN`].
fn rank_near(name: &str, candidates: Vec<String>) -> Vec<String> {
    let wanted = name.to_lowercase();
    let wanted_tail = wanted.rsplit('/').next().unwrap_or(&wanted).to_string();
    let mut scored: Vec<(f64, String)> = candidates
        .into_iter()
        .filter(|c| c != name)
        .map(|candidate| {
            let lower = candidate.to_lowercase();
            let tail = lower.rsplit('/').next().unwrap_or(&lower);
            let whole = strsim::normalized_damerau_levenshtein(&wanted, &lower);
            let last = strsim::normalized_damerau_levenshtein(&wanted_tail, tail);
            let contains = if tail.contains(&wanted_tail) {
                0.5
            } else {
                0.0
            };
            (whole.max(last).max(contains), candidate)
        })
        .filter(|(score, _)| *score >= 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(NEAR_SHOWN)
        .map(|(_, name)| name)
        .collect()
}

#[cfg(test)]
mod near_tests {
    #[test]
    fn the_closest_names_come_first_and_strangers_are_left_out() {
        let names = [
            "io.github.modelcontextprotocol/server-time",
            "io.github.modelcontextprotocol/server-everything",
            "com.example/weather",
            "io.github.other/everything-else",
        ]
        .map(String::from)
        .to_vec();
        let near = super::rank_near("server-everythin", names.clone());
        assert_eq!(near[0], "io.github.modelcontextprotocol/server-everything");
        assert!(!near.iter().any(|n| n == "com.example/weather"), "{near:?}");
        let near = super::rank_near("io.github.modelcontextprotocol/server-tim", names);
        assert_eq!(near[0], "io.github.modelcontextprotocol/server-time");
    }
}

/// A valid mcpctl name from a registry name: the part after the last `/`,
/// made valid by the same rule `add` uses for any derived name.
pub fn local_name(registry_name: &str) -> String {
    let last = registry_name.rsplit('/').next().unwrap_or(registry_name);
    crate::validate::name::suggest(last)
}

#[cfg(test)]
mod tests {
    use super::inputs::reference_name;
    use super::*;

    #[test]
    fn name_and_version_are_split_at_the_last_at() {
        let req = InstallRequest::from_spec("io.github.a/b@1.2.3");
        assert_eq!(
            (req.name.as_str(), req.version.as_deref()),
            ("io.github.a/b", Some("1.2.3"))
        );
        let req = InstallRequest::from_spec("io.github.a/b");
        assert_eq!(req.version, None);
        let req = InstallRequest::from_spec("@scope/pkg");
        assert_eq!((req.name.as_str(), req.version), ("@scope/pkg", None));
    }

    #[test]
    fn local_names_are_valid_mcpctl_names() {
        assert_eq!(
            local_name("io.github.x/Server.Everything"),
            "server-everything"
        );
        assert_eq!(local_name("com.example/..."), "server");
        assert_eq!(local_name(&format!("a/{}", "x".repeat(80))).len(), 64);
    }

    #[test]
    fn selectors_accept_transport_aliases() {
        assert_eq!(
            Selector::parse_package("NPM:streamableHttp").unwrap(),
            Selector::Package {
                registry_type: "npm".into(),
                transport: Some("streamable-http".into())
            }
        );
        assert_eq!(
            Selector::parse_remote(Some("")).unwrap(),
            Selector::Remote { transport: None }
        );
        assert!(Selector::parse_remote(Some("carrier-pigeon")).is_err());
    }

    #[test]
    fn reference_names_are_environment_variable_names() {
        assert_eq!(reference_name("X-API-Key"), "X_API_KEY");
        assert_eq!(reference_name("--host"), "HOST");
        assert_eq!(reference_name("1st"), "_1ST");
    }
}
