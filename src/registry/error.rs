//! What can go wrong when talking to a registry or turning an entry into a
//! definition, each case with an exit code and the next thing to type.

use crate::error::{Diagnostic, ExitCode};

/// One required input that was not supplied, with the flag that supplies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingInput {
    /// The input's name as the user types it (`GITHUB_TOKEN`, `X-API-Key`).
    pub name: String,
    /// `environment variable`, `header`, `argument` or `URL variable`.
    pub kind: &'static str,
    /// The publisher's description, if any.
    pub description: Option<String>,
    /// Exactly what to add to the command line, e.g. `--env GITHUB_TOKEN=…`.
    pub flag: String,
    /// Secrets are written as `${VAR}` references; the value is only needed
    /// in the environment.
    pub secret: bool,
}

/// One installable option of an entry, as offered to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionHint {
    /// e.g. `npm @modelcontextprotocol/server-everything@2.0.0 (stdio)`.
    pub label: String,
    /// The flags that choose it, e.g. `--package npm:stdio`.
    pub flag: String,
}

/// Registry client and installer errors.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// `--registry`/`MCPCTL_REGISTRY_URL` is not a usable URL.
    #[error("invalid registry URL `{url}`: {reason}")]
    InvalidBaseUrl {
        /// The URL as given.
        url: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// No connection could be made (DNS, refused, TLS).
    #[error("the registry at {base} is unreachable: {reason}")]
    Unreachable {
        /// The registry base URL.
        base: String,
        /// The transport error.
        reason: String,
    },
    /// The registry redirected somewhere mcpctl does not follow.
    #[error("the registry at {base} answered with a redirect mcpctl does not follow: {refused}")]
    Redirect {
        /// The registry base URL.
        base: String,
        /// Why the redirect was refused.
        refused: crate::http_client::RedirectRefused,
    },
    /// The registry did not answer in time.
    #[error("the registry at {base} did not answer within {secs} s ({url})")]
    Timeout {
        /// The registry base URL.
        base: String,
        /// The request URL.
        url: String,
        /// The timeout that expired.
        secs: u64,
    },
    /// The registry answered with a 5xx.
    #[error("the registry failed with HTTP {status} for {url}")]
    ServerError {
        /// The request URL.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// Any other unexpected HTTP status.
    #[error("the registry answered HTTP {status} for {url}")]
    HttpStatus {
        /// The request URL.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// The body was not the JSON a registry serves.
    #[error("the registry sent a response mcpctl cannot read ({url}): {reason}")]
    BadJson {
        /// The request URL.
        url: String,
        /// What was wrong.
        reason: String,
    },
    /// No entry has exactly this name; `near` are the closest names, closest first.
    #[error("no registry entry is named exactly `{name}`{}", near_list(near))]
    NoExactMatch {
        /// The name asked for.
        name: String,
        /// Similar names found by searching.
        near: Vec<String>,
    },
    /// The entry exists but not in this version.
    #[error("`{name}` has no version `{version}`{}", versions_list(available))]
    VersionNotFound {
        /// The entry name.
        name: String,
        /// The version asked for.
        version: String,
        /// Versions that do exist, newest first.
        available: Vec<String>,
    },
    /// The version is deprecated and `--allow-deprecated` was not given.
    #[error("`{name}@{version}` is deprecated in the registry{}", message.as_ref().map(|m| format!(": {m}")).unwrap_or_default())]
    Deprecated {
        /// The entry name.
        name: String,
        /// The deprecated version.
        version: String,
        /// The publisher's reason.
        message: Option<String>,
    },
    /// The version was deleted from the registry.
    #[error("`{name}@{version}` was deleted from the registry")]
    Deleted {
        /// The entry name.
        name: String,
        /// The deleted version.
        version: String,
    },
    /// The package's ownership marker names another registry entry, or
    /// none: the package may not be the one the entry describes.
    #[error("{package} does not belong to `{name}` by its ownership marker: {found}")]
    NotOwned {
        /// The registry entry name.
        name: String,
        /// The package as launched (`npm:@scope/pkg@1.2.3`).
        package: String,
        /// What the marker says (`mcpName is "x"`, `no mcpName`).
        found: String,
    },
    /// Several packages or remotes fit and nothing chose one.
    #[error("`{name}` can be installed in {} ways; choose one:{}", options.len(), options_list(options))]
    ChoiceNeeded {
        /// The entry name.
        name: String,
        /// What can be chosen and how.
        options: Vec<OptionHint>,
    },
    /// `--package`/`--remote` matches nothing the entry offers.
    #[error("`{name}` offers no {requested}; it offers:{}", options_list(options))]
    NoSuchOption {
        /// The entry name.
        name: String,
        /// What was asked for, e.g. `pypi package`.
        requested: String,
        /// What it does offer.
        options: Vec<OptionHint>,
    },
    /// Nothing in the entry is something mcpctl can launch.
    #[error("`{name}` offers nothing mcpctl can install ({offered})")]
    Unsupported {
        /// The entry name.
        name: String,
        /// What it offers, e.g. `nuget package`.
        offered: String,
    },
    /// Required inputs were not supplied and there is no terminal to ask.
    #[error("{} required input{} missing for `{name}`:{}", missing.len(), if missing.len() == 1 { " is" } else { "s are" }, missing_list(missing))]
    MissingInputs {
        /// The entry name.
        name: String,
        /// Every missing input.
        missing: Vec<MissingInput>,
    },
    /// A supplied value is not among the declared choices.
    #[error("`{input}` must be one of: {}", choices.join(", "))]
    InvalidChoice {
        /// The input name.
        input: String,
        /// The allowed values.
        choices: Vec<String>,
    },
    /// An `--env`/`--header`/`--package` value that cannot be parsed.
    #[error("{message}")]
    InvalidFlag {
        /// What is wrong.
        message: String,
        /// What to type instead.
        hint: String,
    },
    /// The package has no exact version to pin.
    #[error("`{name}` publishes {package} without an exact version")]
    NoVersion {
        /// The entry name.
        name: String,
        /// The package identifier.
        package: String,
    },
    /// The entry itself contains a `${VAR}` that would read the operator's
    /// environment at launch.
    #[error(
        "`{name}` contains the environment reference ${{{var}}} in a published value; mcpctl will not write it"
    )]
    ForeignReference {
        /// The entry name.
        name: String,
        /// The variable it refers to.
        var: String,
    },
    /// The entry would put on the launcher's command line (or in its
    /// environment) something that changes what is fetched or widens what
    /// runs: a `--registry`, another package, `--privileged`, a host path.
    #[error(
        "`{name}` puts `{argument}` on the launcher's command line, which {why}; nothing was written or run\n  the command would be: {command}"
    )]
    UnsafeLaunch {
        /// The entry name.
        name: String,
        /// The argument refused, as published.
        argument: String,
        /// What it would do.
        why: String,
        /// The whole command that would have been written.
        command: String,
    },
    /// Reading from the terminal failed.
    #[error("cannot read from the terminal: {0}")]
    Prompt(String),
}

fn near_list(near: &[String]) -> String {
    if near.is_empty() {
        return String::new();
    }
    let mut out = String::from("; the closest names are:");
    for name in near {
        out.push_str("\n  ");
        out.push_str(name);
    }
    out
}

fn versions_list(versions: &[String]) -> String {
    if versions.is_empty() {
        String::new()
    } else {
        format!("; published versions: {}", versions.join(", "))
    }
}

fn options_list(options: &[OptionHint]) -> String {
    let mut out = String::new();
    for option in options {
        out.push_str(&format!("\n  {:<60} {}", option.label, option.flag));
    }
    out
}

fn missing_list(missing: &[MissingInput]) -> String {
    let mut out = String::new();
    for input in missing {
        out.push_str(&format!("\n  {} ({}", input.name, input.kind));
        if input.secret {
            out.push_str(", secret");
        }
        out.push(')');
        if let Some(desc) = &input.description {
            out.push_str(": ");
            out.push_str(desc);
        }
        out.push_str(&format!("\n      {}", input.flag));
    }
    out
}

impl Diagnostic for RegistryError {
    fn exit_code(&self) -> ExitCode {
        use RegistryError::*;
        match self {
            InvalidBaseUrl { .. }
            | ChoiceNeeded { .. }
            | NoSuchOption { .. }
            | MissingInputs { .. }
            | InvalidChoice { .. }
            | InvalidFlag { .. } => ExitCode::Usage,
            NoExactMatch { .. } | VersionNotFound { .. } | Deleted { .. } => ExitCode::NotFound,
            Deprecated { .. } | NotOwned { .. } | UnsafeLaunch { .. } => ExitCode::Conflict,
            Unreachable { .. }
            | Redirect { .. }
            | Timeout { .. }
            | ServerError { .. }
            | HttpStatus { .. }
            | BadJson { .. }
            | Unsupported { .. }
            | NoVersion { .. }
            | ForeignReference { .. }
            | Prompt(_) => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        use RegistryError::*;
        Some(match self {
            InvalidBaseUrl { .. } => {
                "give --registry (or MCPCTL_REGISTRY_URL) an http(s) URL such as https://registry.modelcontextprotocol.io".into()
            }
            Unreachable { .. } | Timeout { .. } => {
                "check the network, or point --registry / MCPCTL_REGISTRY_URL at a reachable registry; cached results are used for 5 minutes".into()
            }
            Redirect { .. } => {
                "point --registry / MCPCTL_REGISTRY_URL at the registry's final https URL".into()
            }
            ServerError { .. } => {
                "the registry is having trouble; try again in a minute, or use --registry URL".into()
            }
            HttpStatus { status: 429, .. } => {
                "the registry is rate-limiting; wait a minute (cached answers are reused for 5 minutes)".into()
            }
            HttpStatus { .. } => {
                "check that --registry / MCPCTL_REGISTRY_URL points at an MCP registry".into()
            }
            BadJson { .. } => {
                "check that --registry / MCPCTL_REGISTRY_URL points at an MCP registry (v0.1 API)".into()
            }
            NoExactMatch { name, near } => match near.first() {
                Some(first) => format!("type the exact name, e.g. `mcpctl add {first}`"),
                None => format!(
                    "search for it: `mcpctl search {}`",
                    name.rsplit('/').next().unwrap_or(name)
                ),
            },
            VersionNotFound { name, available, .. } => match available.first() {
                Some(v) => format!("pick a published version, e.g. `mcpctl add {name}@{v}`"),
                None => format!("omit the version to get the latest: `mcpctl add {name}`"),
            },
            Deprecated { name, version, .. } => format!(
                "to install it anyway: `mcpctl add {name}@{version} --allow-deprecated`"
            ),
            NotOwned { name, .. } => format!(
                "the MCP Registry requires the package to name its entry (npm `mcpName`, `mcp-name: {name}` in the PyPI description); check you have the right server, or add it anyway with --force"
            ),
            Deleted { name, .. } => {
                format!("list its versions with `mcpctl search {name} --include-deprecated`")
            }
            ChoiceNeeded { options, .. } | NoSuchOption { options, .. } => {
                match options.first() {
                    Some(o) => format!("add one of the flags above, e.g. `{}`", o.flag),
                    None => return None,
                }
            }
            Unsupported { .. } => {
                "install it by hand with `mcpctl add NAME --command …` or `--url …`".into()
            }
            MissingInputs { missing, .. } => {
                let flags: Vec<&str> = missing.iter().map(|m| m.flag.as_str()).collect();
                format!(
                    "add {} (or run in a terminal to be asked)",
                    flags.join(" ")
                )
            }
            InvalidChoice { input, choices } => match choices.first() {
                Some(c) => format!("e.g. `--env {input}={c}`"),
                None => return None,
            },
            InvalidFlag { hint, .. } => hint.clone(),
            NoVersion { .. } => {
                "ask the publisher to publish an exact version, or add it by hand with `mcpctl add NAME --command …`".into()
            }
            ForeignReference { .. } => {
                "report it to the publisher; add the server by hand with `mcpctl add NAME --command …` after reading its documentation".into()
            }
            Prompt(_) => "pass the values as flags (--env, --header, --arg) instead".into(),
            UnsafeLaunch { name, .. } => format!(
                "read the command above; if you trust the publisher, `mcpctl add {name} --trust-runtime-args` writes it anyway, or add the server by hand with `mcpctl add NAME -- COMMAND …`"
            ),
        })
    }
}
