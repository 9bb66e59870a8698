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
use crate::defs::{Launch, RestartPolicy, ServerDef, Transport, vars};

/// Which package or remote to install, from `--package` / `--remote`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// A package of this registry type (`npm`, `pypi`, `oci`), optionally
    /// narrowed by its transport (`npm:stdio`, `npm:streamable-http`).
    Package {
        /// `npm`, `pypi` or `oci`.
        registry_type: String,
        /// `stdio`, `streamable-http` or `sse`.
        transport: Option<String>,
    },
    /// A hosted endpoint, optionally of this transport.
    Remote {
        /// `streamable-http` or `sse`.
        transport: Option<String>,
    },
}

impl Selector {
    /// Parse `--package KIND[:TRANSPORT]`.
    pub fn parse_package(spec: &str) -> Result<Selector, RegistryError> {
        let (kind, transport) = match spec.split_once(':') {
            Some((k, t)) => (k, Some(t)),
            None => (spec, None),
        };
        let kind = kind.trim().to_ascii_lowercase();
        if !SUPPORTED.contains(&kind.as_str()) {
            return Err(RegistryError::InvalidFlag {
                message: format!("unknown package kind `{spec}`"),
                hint: "use --package npm, --package pypi or --package oci (optionally :stdio, :streamable-http or :sse)".into(),
            });
        }
        let transport = match transport {
            Some(t) => Some(
                canonical_transport(t).ok_or_else(|| RegistryError::InvalidFlag {
                    message: format!("unknown transport `{t}` in --package {spec}"),
                    hint: format!(
                        "use --package {kind}:stdio, {kind}:streamable-http or {kind}:sse"
                    ),
                })?,
            ),
            None => None,
        };
        Ok(Selector::Package {
            registry_type: kind,
            transport,
        })
    }

    /// `--remote [TRANSPORT]`.
    pub fn parse_remote(transport: Option<&str>) -> Result<Selector, RegistryError> {
        let transport = match transport.filter(|t| !t.is_empty()) {
            Some(t) => Some(
                canonical_transport(t).ok_or_else(|| RegistryError::InvalidFlag {
                    message: format!("unknown remote transport `{t}`"),
                    hint: "use --remote, --remote=streamable-http or --remote=sse".into(),
                })?,
            ),
            None => None,
        };
        Ok(Selector::Remote { transport })
    }
}

const SUPPORTED: [&str; 3] = ["npm", "pypi", "oci"];

fn canonical_transport(t: &str) -> Option<String> {
    Transport::from_spelling(t.trim()).map(|t| t.as_str().to_string())
}

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

/// An HTTP endpoint a stdio-launched package serves once it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// `streamable-http` or `sse`.
    pub transport: Transport,
    /// The URL after substitution.
    pub url: String,
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
    /// For a package whose transport is HTTP and that is stored as a
    /// stdio launch: the URL it serves once started.
    pub endpoint: Option<Endpoint>,
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
    match &mut shown.launch {
        Launch::Stdio { args, env, .. } => {
            for arg in args.iter_mut() {
                *arg = hide(arg);
            }
            for value in env.values_mut() {
                *value = hide(value);
            }
        }
        Launch::Remote { url, headers, .. } => {
            *url = hide(url);
            for value in headers.values_mut() {
                *value = hide(value);
            }
        }
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
#[derive(Debug, Default)]
pub struct TerminalPrompter;

impl Prompter for TerminalPrompter {
    fn select(&mut self, prompt: &str, items: &[String]) -> Result<usize, RegistryError> {
        dialoguer::Select::new()
            .with_prompt(prompt)
            .items(items)
            .default(0)
            .interact_on(&console::Term::stderr())
            .map_err(|e| RegistryError::Prompt(e.to_string()))
    }

    fn input(&mut self, prompt: &str, default: Option<&str>) -> Result<String, RegistryError> {
        let mut input = dialoguer::Input::<String>::new().with_prompt(prompt);
        if let Some(d) = default {
            input = input.default(d.to_string());
        }
        input
            .interact_text_on(&console::Term::stderr())
            .map_err(|e| RegistryError::Prompt(e.to_string()))
    }

    fn secret(&mut self, prompt: &str) -> Result<String, RegistryError> {
        let term = console::Term::stderr();
        term.write_str(&format!("{prompt} (hidden): "))
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

/// Names that contain the last segment of `name` (case-insensitive), for
/// the "did you mean" list. A failing search just yields none.
pub async fn near_matches(client: &RegistryClient, name: &str) -> Vec<String> {
    let term = name.rsplit('/').next().unwrap_or(name).trim();
    if term.is_empty() {
        return Vec::new();
    }
    let Ok(outcome) = client.search(term, Some(10), true, &mut |_| {}).await else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    for entry in outcome.servers {
        if entry.server.name != name && !names.contains(&entry.server.name) {
            names.push(entry.server.name);
        }
    }
    names
}

/// Plan from an already fetched entry (status checks included).
pub fn plan_from_entry(
    entry: &ServerEntry,
    req: &InstallRequest,
    mut prompter: Option<&mut dyn Prompter>,
) -> Result<InstallPlan, RegistryError> {
    let server = &entry.server;
    let mut notes = Vec::new();
    match entry.status() {
        Status::Deleted => {
            return Err(RegistryError::Deleted {
                name: server.name.clone(),
                version: server.version.clone(),
            });
        }
        Status::Deprecated if !req.allow_deprecated => {
            return Err(RegistryError::Deprecated {
                name: server.name.clone(),
                version: server.version.clone(),
                message: entry.official.status_message.clone(),
            });
        }
        Status::Deprecated => notes.push(format!(
            "`{}@{}` is deprecated{}",
            server.name,
            server.version,
            entry
                .official
                .status_message
                .as_ref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        )),
        _ => {}
    }

    let choice = choose(
        entry,
        req,
        prompter.as_mut().map(|p| &mut **p as &mut dyn Prompter),
        &mut notes,
    )?;
    let mut inputs = Inputs {
        req,
        prompter,
        missing: Vec::new(),
        secret_env: IndexMap::new(),
        references: Vec::new(),
        user_values: Vec::new(),
        stored_secrets: Vec::new(),
        resolved: IndexMap::new(),
    };
    let suggested_name = local_name(&server.name);
    let (launch, transport, chosen, endpoint) = match choice {
        Choice::Remote(remote) => {
            let (transport, url, headers) = inputs.remote(remote)?;
            let chosen = format!("remote {} {}", transport, remote.url);
            (
                Launch::Remote {
                    transport,
                    url,
                    headers,
                },
                transport,
                chosen,
                None,
            )
        }
        Choice::Package(package) => {
            let version = package_version(entry, package, &mut notes)?;
            let (command, args, env) = inputs.package(package, &version, &mut notes)?;
            let chosen = format!(
                "{} ({})",
                install_form(package, Some(&version)),
                package.transport_type()
            );
            let http = package
                .transport
                .as_ref()
                .and_then(|t| Transport::from_spelling(&t.kind))
                .filter(|t| t.is_remote());
            match http {
                Some(t) => {
                    let template = package
                        .transport
                        .as_ref()
                        .and_then(|t| t.url.clone())
                        .unwrap_or_default();
                    let url = inputs.substitute_known(&template);
                    if url.contains('{') {
                        notes.push(format!(
                            "the package's URL {url} still has a {{…}} placeholder mcpctl could not fill; check the publisher's documentation"
                        ));
                    }
                    let launch_line = std::iter::once(command.clone())
                        .chain(args.iter().cloned())
                        .collect::<Vec<_>>()
                        .join(" ");
                    if req.as_remote {
                        let headers = inputs.headers(
                            &package
                                .transport
                                .as_ref()
                                .map(|t| t.headers.clone())
                                .unwrap_or_default(),
                        )?;
                        notes.push(format!(
                            "stored as a remote {t} endpoint at {url}: mcpctl will not start it; run `{launch_line}` yourself first"
                        ));
                        (
                            Launch::Remote {
                                transport: t,
                                url,
                                headers,
                            },
                            t,
                            chosen,
                            None,
                        )
                    } else {
                        notes.push(format!(
                            "this package serves {t} at {url} once it runs: the supervisor must start it (`mcpctl start {suggested_name}`) before that URL can be reached; add --as-remote to store the URL as a remote instead"
                        ));
                        (
                            Launch::Stdio {
                                command,
                                args,
                                env,
                                cwd: None,
                            },
                            Transport::Stdio,
                            chosen,
                            Some(Endpoint { transport: t, url }),
                        )
                    }
                }
                None => (
                    Launch::Stdio {
                        command,
                        args,
                        env,
                        cwd: None,
                    },
                    Transport::Stdio,
                    chosen,
                    None,
                ),
            }
        }
    };
    if !inputs.missing.is_empty() {
        return Err(RegistryError::MissingInputs {
            name: server.name.clone(),
            missing: inputs.missing,
        });
    }
    refuse_foreign_references(&server.name, &launch, &inputs)?;
    for reference in &inputs.references {
        notes.push(format!(
            "the secret is written as ${{{reference}}}; export {reference} before starting the server"
        ));
    }
    let def = ServerDef {
        name: suggested_name.clone(),
        transport,
        launch,
        label: server.title.clone().filter(|t| !t.trim().is_empty()),
        enabled: true,
        autostart: false,
        connect_timeout: None,
        protocol: None,
        restart: RestartPolicy::No,
        source: PathBuf::new(),
    };
    Ok(InstallPlan {
        def,
        suggested_name,
        registry_name: server.name.clone(),
        version: server.version.clone(),
        chosen,
        endpoint,
        notes,
        secret_env: inputs.secret_env,
        stored_secrets: inputs.stored_secrets,
    })
}

/// `${VAR}` is expanded from the operator's environment at launch, so a
/// publisher who put `${AWS_SECRET_ACCESS_KEY}` into a URL, header or
/// argument could read secrets. Only references mcpctl wrote for secrets,
/// or that the operator typed, may appear in the definition.
fn refuse_foreign_references(
    name: &str,
    launch: &Launch,
    inputs: &Inputs<'_, '_>,
) -> Result<(), RegistryError> {
    let values: Vec<&String> = match launch {
        Launch::Stdio {
            command, args, env, ..
        } => std::iter::once(command)
            .chain(args)
            .chain(env.values())
            .collect(),
        Launch::Remote { url, headers, .. } => {
            std::iter::once(url).chain(headers.values()).collect()
        }
    };
    let allowed = |var: &str| {
        inputs.references.iter().any(|r| r == var)
            || inputs
                .user_values
                .iter()
                .any(|v| vars::referenced_names(v).iter().any(|n| n == var))
    };
    for value in values {
        if let Some(var) = vars::referenced_names(value)
            .into_iter()
            .find(|var| !allowed(var))
        {
            return Err(RegistryError::ForeignReference {
                name: name.to_string(),
                var,
            });
        }
    }
    Ok(())
}

/// A valid mcpctl name from a registry name: the part after the last `/`,
/// lowercased, other characters turned into `-`, at most 64 characters.
pub fn local_name(registry_name: &str) -> String {
    let last = registry_name.rsplit('/').next().unwrap_or(registry_name);
    let mut out = String::new();
    for c in last.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').chars().take(64).collect::<String>();
    if out.is_empty() { "server".into() } else { out }
}

/// How a package or remote is written in `search` output:
/// `npm:@scope/pkg@1.2.3`, `pypi:pkg==1.0`, `oci:image:tag`.
pub fn install_form(package: &Package, version: Option<&str>) -> String {
    let version = version
        .or(package.version.as_deref())
        .filter(|v| !v.is_empty());
    match (package.registry_type.as_str(), version) {
        ("npm", Some(v)) => format!("npm:{}@{v}", package.identifier),
        ("pypi", Some(v)) => format!("pypi:{}=={v}", package.identifier),
        ("oci", v) => format!("oci:{}", oci_image(&package.identifier, v)),
        (kind, Some(v)) => format!("{kind}:{}@{v}", package.identifier),
        (kind, None) => format!("{kind}:{}", package.identifier),
    }
}

/// `remote: streamable-http https://…`.
pub fn remote_form(remote: &Remote) -> String {
    format!("remote: {} {}", remote.kind, remote.url)
}

fn oci_image(identifier: &str, version: Option<&str>) -> String {
    let last = identifier.rsplit('/').next().unwrap_or(identifier);
    if identifier.contains('@') || last.contains(':') {
        identifier.to_string()
    } else {
        match version {
            Some(v) => format!("{identifier}:{v}"),
            None => identifier.to_string(),
        }
    }
}

fn package_version(
    entry: &ServerEntry,
    package: &Package,
    notes: &mut Vec<String>,
) -> Result<String, RegistryError> {
    if let Some(v) = package
        .version
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "latest")
    {
        return Ok(v.to_string());
    }
    if package.registry_type == "oci"
        && package
            .identifier
            .rsplit('/')
            .next()
            .is_some_and(|l| l.contains(':') || l.contains('@'))
    {
        let image = &package.identifier;
        let tag = image
            .rsplit_once('@')
            .map(|(_, d)| d)
            .or_else(|| {
                image
                    .rsplit('/')
                    .next()
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, t)| t)
            })
            .unwrap_or("");
        if tag != "latest" {
            return Ok(tag.to_string());
        }
    }
    let server_version = entry.server.version.trim();
    if !server_version.is_empty() && server_version != "latest" {
        notes.push(format!(
            "the package gives no version; using the server version {server_version}"
        ));
        return Ok(server_version.to_string());
    }
    Err(RegistryError::NoVersion {
        name: entry.server.name.clone(),
        package: package.identifier.clone(),
    })
}

enum Choice<'a> {
    Package(&'a Package),
    Remote(&'a Remote),
}

fn choose<'a>(
    entry: &'a ServerEntry,
    req: &InstallRequest,
    prompter: Option<&mut dyn Prompter>,
    notes: &mut Vec<String>,
) -> Result<Choice<'a>, RegistryError> {
    let server = &entry.server;
    let mut unsupported = Vec::new();
    let packages: Vec<&Package> = server
        .packages
        .iter()
        .filter(|p| {
            let ok = SUPPORTED.contains(&p.registry_type.as_str());
            if !ok {
                unsupported.push(format!("{} package {}", p.registry_type, p.identifier));
            }
            ok
        })
        .collect();
    let remotes: Vec<&Remote> = server
        .remotes
        .iter()
        .filter(|r| {
            let ok = Transport::from_spelling(&r.kind).is_some_and(|t| t.is_remote());
            if !ok {
                unsupported.push(format!("{} remote", r.kind));
            }
            ok
        })
        .collect();
    if packages.is_empty() && remotes.is_empty() {
        return Err(RegistryError::Unsupported {
            name: server.name.clone(),
            offered: if unsupported.is_empty() {
                "no packages or remotes".into()
            } else {
                unsupported.join(", ")
            },
        });
    }
    for u in &unsupported {
        notes.push(format!("skipped the {u}: mcpctl cannot launch it"));
    }

    let mut all: Vec<(Choice<'a>, OptionHint)> = Vec::new();
    for p in &packages {
        let same_kind = packages
            .iter()
            .filter(|q| q.registry_type == p.registry_type)
            .count();
        let flag = if same_kind > 1 {
            format!(
                "--package {}:{}",
                p.registry_type,
                canonical_or(p.transport_type())
            )
        } else {
            format!("--package {}", p.registry_type)
        };
        all.push((
            Choice::Package(p),
            OptionHint {
                label: format!(
                    "{} ({})",
                    install_form(p, None),
                    canonical_or(p.transport_type())
                ),
                flag,
            },
        ));
    }
    for r in &remotes {
        let flag = if remotes.len() > 1 {
            format!("--remote={}", canonical_or(&r.kind))
        } else {
            "--remote".to_string()
        };
        all.push((
            Choice::Remote(r),
            OptionHint {
                label: remote_form(r),
                flag,
            },
        ));
    }

    let candidates: Vec<(Choice<'a>, OptionHint)> = match &req.selector {
        None => all,
        Some(selector) => {
            let hints: Vec<OptionHint> = all.iter().map(|(_, h)| h.clone()).collect();
            let kept: Vec<_> = all
                .into_iter()
                .filter(|(choice, _)| matches_selector(choice, selector))
                .collect();
            if kept.is_empty() {
                let requested = match selector {
                    Selector::Package {
                        registry_type,
                        transport,
                    } => format!(
                        "{registry_type} package{}",
                        transport
                            .as_ref()
                            .map(|t| format!(" with transport {t}"))
                            .unwrap_or_default()
                    ),
                    Selector::Remote { transport } => format!(
                        "{}remote",
                        transport
                            .as_ref()
                            .map(|t| format!("{t} "))
                            .unwrap_or_default()
                    ),
                };
                return Err(RegistryError::NoSuchOption {
                    name: server.name.clone(),
                    requested,
                    options: hints,
                });
            }
            kept
        }
    };
    if candidates.len() == 1 {
        return Ok(candidates.into_iter().next().expect("one").0);
    }
    match prompter {
        Some(p) => {
            let labels: Vec<String> = candidates.iter().map(|(_, h)| h.label.clone()).collect();
            let index = p.select(&format!("How should `{}` run?", server.name), &labels)?;
            candidates
                .into_iter()
                .nth(index)
                .map(|(c, _)| c)
                .ok_or_else(|| RegistryError::Prompt("no option was chosen".into()))
        }
        None => Err(RegistryError::ChoiceNeeded {
            name: server.name.clone(),
            options: candidates.into_iter().map(|(_, h)| h).collect(),
        }),
    }
}

fn canonical_or(t: &str) -> String {
    canonical_transport(t).unwrap_or_else(|| t.to_string())
}

fn matches_selector(choice: &Choice<'_>, selector: &Selector) -> bool {
    match (choice, selector) {
        (
            Choice::Package(p),
            Selector::Package {
                registry_type,
                transport,
            },
        ) => {
            p.registry_type == *registry_type
                && transport
                    .as_ref()
                    .is_none_or(|t| canonical_or(p.transport_type()) == *t)
        }
        (Choice::Remote(r), Selector::Remote { transport }) => transport
            .as_ref()
            .is_none_or(|t| canonical_or(&r.kind) == *t),
        _ => false,
    }
}

/// What an input resolved to.
enum Value {
    /// Written as is.
    Literal(String),
    /// Written as `${NAME}`.
    Reference(String),
    /// Left out.
    Absent,
}

/// Which flag supplies an input, for lookups and for error messages.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Env,
    Header,
    Argument,
    Variable,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Env => "environment variable",
            Kind::Header => "header",
            Kind::Argument => "argument",
            Kind::Variable => "variable",
        }
    }
}

/// The launcher for a package: the publisher's `runtimeHint` when it is
/// one mcpctl knows how to drive for this registry type, else the default
/// (an unknown hint such as `python` would need arguments mcpctl cannot
/// know, so it is reported and not guessed at).
fn launcher(hint: Option<&str>, default: &str, known: &[&str], notes: &mut Vec<String>) -> String {
    match hint {
        None => default.to_string(),
        Some(h) if known.contains(&h) => h.to_string(),
        Some(h) => {
            notes.push(format!(
                "the publisher suggests `{h}` to run it; mcpctl uses `{default}`, which runs this kind of package as published"
            ));
            default.to_string()
        }
    }
}

/// `(command, args, env)` of a stdio launch.
type StdioParts = (String, Vec<String>, IndexMap<String, String>);

struct Inputs<'r, 'p> {
    req: &'r InstallRequest,
    prompter: Option<&'p mut dyn Prompter>,
    missing: Vec<MissingInput>,
    secret_env: IndexMap<String, SecretValue>,
    references: Vec<String>,
    /// Values the operator typed or passed as flags: the only place a
    /// `${VAR}` other than mcpctl's own secret references may come from.
    user_values: Vec<String>,
    /// Secret values written literally because of `--store-secret`.
    stored_secrets: Vec<SecretValue>,
    /// Values known so far, by every name they may be referred to by, for
    /// `{…}` substitution in a package's transport URL.
    resolved: IndexMap<String, String>,
}

/// An environment-variable-style name for a reference: `X-API-Key` → `X_API_KEY`.
fn reference_name(name: &str) -> String {
    let mut out: String = name
        .trim_start_matches('-')
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

impl Inputs<'_, '_> {
    fn supplied(&self, kind: Kind, keys: &[&str]) -> Option<String> {
        let maps: Vec<&IndexMap<String, String>> = match kind {
            Kind::Env => vec![&self.req.env],
            Kind::Header => vec![&self.req.headers],
            Kind::Argument | Kind::Variable => vec![&self.req.args, &self.req.env],
        };
        for map in maps {
            for key in keys {
                if let Some(v) = map.get(*key) {
                    return Some(v.clone());
                }
                if kind == Kind::Header
                    && let Some((_, v)) = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key))
                {
                    return Some(v.clone());
                }
            }
        }
        None
    }

    fn flag_for(kind: Kind, name: &str) -> String {
        match kind {
            Kind::Env => format!("--env {name}=…"),
            Kind::Header => format!("--header '{name}: …'"),
            Kind::Argument | Kind::Variable => format!("--arg {name}=…"),
        }
    }

    /// Resolve one input. `keys[0]` is the name the user types; `reference`
    /// is the `${NAME}` used for a secret.
    fn value(
        &mut self,
        kind: Kind,
        keys: &[&str],
        reference: &str,
        input: &Input,
    ) -> Result<Value, RegistryError> {
        let display = keys[0];
        let supplied = self.supplied(kind, keys);
        let prompt_text = match &input.description {
            Some(d) => format!("{display} ({d})"),
            None => display.to_string(),
        };
        if input.is_secret {
            let value = match supplied {
                Some(v) => Some(v),
                None if !self.req.store_secret && std::env::var_os(reference).is_some() => {
                    self.references.push(reference.to_string());
                    return Ok(Value::Reference(reference.to_string()));
                }
                None if input.is_required => match self.prompter.as_deref_mut() {
                    Some(p) => Some(p.secret(&prompt_text)?),
                    None => None,
                },
                None => None,
            };
            return Ok(match value {
                Some(v) if self.req.store_secret => {
                    self.user_values.push(v.clone());
                    self.stored_secrets.push(SecretValue(v.clone()));
                    Value::Literal(v)
                }
                Some(v) => {
                    self.secret_env
                        .insert(reference.to_string(), SecretValue(v));
                    if !self.references.iter().any(|r| r == reference) {
                        self.references.push(reference.to_string());
                    }
                    Value::Reference(reference.to_string())
                }
                None if input.is_required => {
                    self.push_missing(kind, display, input);
                    Value::Absent
                }
                None => Value::Absent,
            });
        }
        let prompt_text = match &input.placeholder {
            Some(example) => format!("{prompt_text}, e.g. {example}"),
            None => prompt_text,
        };
        let value = match supplied {
            Some(v) => {
                self.user_values.push(v.clone());
                Some(v)
            }
            None => match (&input.default, input.is_required) {
                (Some(d), _) => Some(d.clone()),
                (None, true) => match self.prompter.as_deref_mut() {
                    Some(p) if !input.choices.is_empty() => {
                        let i = p.select(&prompt_text, &input.choices)?;
                        input.choices.get(i).cloned()
                    }
                    Some(p) => {
                        let typed = p.input(&prompt_text, None)?;
                        self.user_values.push(typed.clone());
                        Some(typed)
                    }
                    None => None,
                },
                (None, false) => None,
            },
        };
        match value {
            Some(v) => {
                if !input.choices.is_empty() && !input.choices.contains(&v) {
                    return Err(RegistryError::InvalidChoice {
                        input: display.to_string(),
                        choices: input.choices.clone(),
                    });
                }
                Ok(Value::Literal(v))
            }
            None if input.is_required => {
                self.push_missing(kind, display, input);
                Ok(Value::Absent)
            }
            None => Ok(Value::Absent),
        }
    }

    fn push_missing(&mut self, kind: Kind, name: &str, input: &Input) {
        if self.missing.iter().any(|m| m.name == name) {
            return;
        }
        self.missing.push(MissingInput {
            name: name.to_string(),
            kind: kind.label(),
            description: input.description.clone(),
            flag: Self::flag_for(kind, name),
            secret: input.is_secret,
        });
    }

    /// Substitute `{var}` in a publisher-fixed `template` from `variables`.
    /// Returns `None` when a required variable is missing.
    ///
    /// `parent` is the input the template belongs to. A secret parent makes
    /// every part secret (`Bearer {token}` in a secret header). For env
    /// vars and headers (`implicit`), an undeclared `{name}` is an input of
    /// its own, with the parent's description; elsewhere it stays as it is,
    /// as the schema says.
    fn template(
        &mut self,
        template: &str,
        variables: &IndexMap<String, Input>,
        kind: Kind,
        parent: &Input,
        implicit: bool,
    ) -> Result<Option<String>, RegistryError> {
        let mut out = String::new();
        let mut rest = template;
        let mut complete = true;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start + 1..].find('}') else {
                break;
            };
            let var = &rest[start + 1..start + 1 + len];
            out.push_str(&rest[..start]);
            let is_name = !var.is_empty()
                && var
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let declared = match variables.get(var) {
                Some(input) => Some(input.clone()),
                None if implicit && is_name => Some(Input {
                    description: parent.description.clone(),
                    is_required: true,
                    ..Input::default()
                }),
                None => None,
            };
            let declared = declared.map(|mut input| {
                input.is_secret |= parent.is_secret;
                input
            });
            match declared.as_ref() {
                Some(input) => {
                    // `KEY={var}` names the reference after KEY.
                    let prefix = &rest[..start];
                    let key = prefix
                        .strip_suffix('=')
                        .filter(|k| {
                            !k.is_empty()
                                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                                && out.len() == prefix.len()
                        })
                        .map(str::to_string);
                    let reference = key.clone().unwrap_or_else(|| reference_name(var));
                    let keys: Vec<&str> = match &key {
                        Some(k) => vec![k.as_str(), var],
                        None => vec![var, reference.as_str()],
                    };
                    // `KEY={var}` is an environment variable for the child (e.g.
                    // `docker run -e KEY={var}`): supplied with `--env KEY=…`.
                    let kind = if key.is_some() {
                        Kind::Env
                    } else if kind == Kind::Header {
                        Kind::Variable
                    } else {
                        kind
                    };
                    match self.value(kind, &keys, &reference, input)? {
                        Value::Literal(v) => out.push_str(&v),
                        Value::Reference(r) => out.push_str(&format!("${{{r}}}")),
                        Value::Absent => complete = false,
                    }
                }
                None => out.push_str(&rest[start..start + len + 2]),
            }
            rest = &rest[start + len + 2..];
        }
        out.push_str(rest);
        Ok(complete.then_some(out))
    }

    /// Replace `{name}` with values resolved so far (for a package's URL).
    fn substitute_known(&self, template: &str) -> String {
        let mut out = template.to_string();
        for (name, value) in &self.resolved {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    fn remember(&mut self, names: &[&str], value: &str) {
        for n in names {
            self.resolved.insert(n.to_string(), value.to_string());
        }
    }

    /// Environment variables: literal values, `${VAR}` for secrets.
    fn env(&mut self, vars: &[KeyValueInput]) -> Result<IndexMap<String, String>, RegistryError> {
        let mut env = IndexMap::new();
        for var in vars {
            let written = match &var.input.value {
                Some(template) => {
                    self.template(template, &var.variables, Kind::Env, &var.input, true)?
                }
                None => match self.value(Kind::Env, &[&var.name], &var.name, &var.input)? {
                    Value::Literal(v) => Some(v),
                    Value::Reference(r) => Some(format!("${{{r}}}")),
                    Value::Absent => None,
                },
            };
            if let Some(v) = written {
                self.remember(&[&var.name], &v);
                env.insert(var.name.clone(), v);
            }
        }
        Ok(env)
    }

    /// Headers for a remote: literal values, `${VAR}` for secrets.
    fn headers(
        &mut self,
        headers: &[KeyValueInput],
    ) -> Result<IndexMap<String, String>, RegistryError> {
        let mut out = IndexMap::new();
        for header in headers {
            let reference = reference_name(&header.name);
            let written = match &header.input.value {
                // A user-supplied header replaces the template wholesale.
                Some(_) if self.supplied(Kind::Header, &[&header.name]).is_some() => {
                    match self.value(Kind::Header, &[&header.name], &reference, &header.input)? {
                        Value::Literal(v) => Some(v),
                        Value::Reference(r) => Some(format!("${{{r}}}")),
                        Value::Absent => None,
                    }
                }
                Some(template) => self.template(
                    template,
                    &header.variables,
                    Kind::Header,
                    &header.input,
                    true,
                )?,
                None => {
                    match self.value(Kind::Header, &[&header.name], &reference, &header.input)? {
                        Value::Literal(v) => Some(v),
                        Value::Reference(r) => Some(format!("${{{r}}}")),
                        Value::Absent => None,
                    }
                }
            };
            if let Some(v) = written {
                out.insert(header.name.clone(), v);
            }
        }
        Ok(out)
    }

    fn remote(
        &mut self,
        remote: &Remote,
    ) -> Result<(Transport, String, IndexMap<String, String>), RegistryError> {
        let transport = Transport::from_spelling(&remote.kind).unwrap_or(Transport::StreamableHttp);
        let url = self
            .template(
                &remote.url,
                &remote.variables,
                Kind::Variable,
                &Input::default(),
                false,
            )?
            .unwrap_or_else(|| remote.url.clone());
        let headers = self.headers(&remote.headers)?;
        Ok((transport, url, headers))
    }

    /// Render arguments into `out`; `skip` drops ones mcpctl already emits.
    fn arguments(
        &mut self,
        args: &[Argument],
        out: &mut Vec<String>,
        skip: &dyn Fn(usize, &Argument) -> bool,
    ) -> Result<(), RegistryError> {
        for (index, arg) in args.iter().enumerate() {
            if skip(index, arg) {
                continue;
            }
            let flag_name = arg.name.clone().unwrap_or_default();
            let label = if arg.is_named() {
                flag_name.trim_start_matches('-').to_string()
            } else {
                arg.value_hint
                    .clone()
                    .unwrap_or_else(|| format!("arg{}", index + 1))
            };
            let value = match &arg.input.value {
                Some(template) => {
                    self.template(template, &arg.variables, Kind::Argument, &arg.input, false)?
                }
                None => {
                    let reference = reference_name(&label);
                    match self.value(Kind::Argument, &[&label], &reference, &arg.input)? {
                        Value::Literal(v) => Some(v),
                        Value::Reference(r) => Some(format!("${{{r}}}")),
                        Value::Absent => None,
                    }
                }
            };
            let Some(value) = value else { continue };
            self.remember(&[&label, &flag_name], &value);
            if arg.is_named() {
                if flag_name.is_empty() {
                    continue;
                }
                if arg.input.format.as_deref() == Some("boolean") {
                    if value == "true" {
                        out.push(flag_name);
                    }
                    continue;
                }
                out.push(flag_name);
            }
            out.push(value);
        }
        Ok(())
    }

    /// Map a package to `(command, args, env)`.
    fn package(
        &mut self,
        package: &Package,
        version: &str,
        notes: &mut Vec<String>,
    ) -> Result<StdioParts, RegistryError> {
        let env = self.env(&package.environment_variables)?;
        let hint = package
            .runtime_hint
            .as_deref()
            .map(str::trim)
            .filter(|h| !h.is_empty());
        let mut args = Vec::new();
        let command;
        match package.registry_type.as_str() {
            "npm" => {
                command = launcher(hint, "npx", &["npx", "bunx"], notes);
                let mut runtime = Vec::new();
                self.arguments(&package.runtime_arguments, &mut runtime, &|_, _| false)?;
                if command == "npx" && !runtime.iter().any(|a| a == "-y" || a == "--yes") {
                    args.push("-y".to_string());
                }
                args.extend(runtime);
                args.push(format!("{}@{version}", package.identifier));
            }
            "pypi" => {
                command = launcher(hint, "uvx", &["uvx", "pipx"], notes);
                if command == "pipx" {
                    args.push("run".to_string());
                }
                self.arguments(&package.runtime_arguments, &mut args, &|_, _| false)?;
                args.push(format!("{}=={version}", package.identifier));
            }
            _ => {
                command = launcher(hint, "docker", &["docker", "podman"], notes);
                let image = oci_image(&package.identifier, Some(version));
                let bare = package
                    .identifier
                    .split('@')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                let bare_no_tag = match bare.rsplit_once(':') {
                    Some((repo, tag)) if !tag.contains('/') => repo.to_string(),
                    _ => bare.clone(),
                };
                args.extend(["run", "-i", "--rm"].map(String::from));
                let mut runtime = Vec::new();
                let dropped = std::cell::RefCell::new(Vec::new());
                let skip = |index: usize, arg: &Argument| {
                    let value = arg.input.value.as_deref().unwrap_or("");
                    let redundant = if arg.is_named() {
                        let name = arg.name.as_deref().unwrap_or("");
                        matches!(name, "-i" | "--interactive" | "--rm")
                            && (value.is_empty() || value == "true")
                    } else {
                        (index == 0 && value == "run")
                            || value == bare_no_tag
                            || value == bare
                            || value == image
                    };
                    if redundant {
                        let shown = arg.name.as_deref().unwrap_or(value);
                        dropped.borrow_mut().push(shown.to_string());
                    }
                    redundant
                };
                self.arguments(&package.runtime_arguments, &mut runtime, &skip)?;
                let dropped = dropped.into_inner();
                if !dropped.is_empty() {
                    notes.push(format!(
                        "left out runtime arguments mcpctl already writes ({}): the launch is `docker run -i --rm … {image}`",
                        dropped.join(", ")
                    ));
                }
                args.extend(runtime.iter().cloned());
                // The container sees only what `-e` passes through.
                for name in env.keys() {
                    let passed = runtime.windows(2).any(|w| {
                        (w[0] == "-e" || w[0] == "--env")
                            && (w[1] == *name || w[1].starts_with(&format!("{name}=")))
                    });
                    if !passed {
                        args.push("-e".to_string());
                        args.push(name.clone());
                    }
                }
                args.push(image);
            }
        }
        self.arguments(&package.package_arguments, &mut args, &|_, _| false)?;
        Ok((command, args, env))
    }
}

#[cfg(test)]
mod tests {
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
