//! Which package or remote of an entry to install: the `--package` /
//! `--remote` selectors, and the choice itself (prompted on a terminal,
//! refused with the flags that make it elsewhere).

use super::*;

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

pub(super) const SUPPORTED: [&str; 3] = ["npm", "pypi", "oci"];

pub(super) fn canonical_transport(t: &str) -> Option<String> {
    Transport::from_spelling(t.trim()).map(|t| t.as_str().to_string())
}

pub(super) enum Choice<'a> {
    Package(&'a Package),
    Remote(&'a Remote),
}

/// One way to install an entry, with the words and flag that name it.
type Candidate<'a> = (Choice<'a>, OptionHint);

/// The package or remote of `entry` to install: the only one that can
/// launch (and matches the selector), the one the operator picks on a
/// terminal, or a refusal that lists the flags that choose.
pub(super) fn choose<'a>(
    entry: &'a ServerEntry,
    req: &InstallRequest,
    prompter: Option<&mut dyn Prompter>,
    notes: &mut Vec<String>,
) -> Result<Choice<'a>, RegistryError> {
    let server = &entry.server;
    let (packages, remotes) = launchable(entry, notes)?;
    let all = candidates(&packages, &remotes);
    let candidates = match &req.selector {
        None => all,
        Some(selector) => narrow(&server.name, all, selector)?,
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

/// The packages and remotes mcpctl can launch; the others are noted as
/// skipped, and an entry with none is refused with what it offered.
fn launchable<'a>(
    entry: &'a ServerEntry,
    notes: &mut Vec<String>,
) -> Result<(Vec<&'a Package>, Vec<&'a Remote>), RegistryError> {
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
    Ok((packages, remotes))
}

/// Every launchable package and remote with its label and the shortest
/// flag that selects it alone.
fn candidates<'a>(packages: &[&'a Package], remotes: &[&'a Remote]) -> Vec<Candidate<'a>> {
    let mut all: Vec<Candidate<'a>> = Vec::new();
    for p in packages {
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
    for r in remotes {
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
    all
}

/// The candidates `selector` keeps; none is refused with every option.
fn narrow<'a>(
    name: &str,
    all: Vec<Candidate<'a>>,
    selector: &Selector,
) -> Result<Vec<Candidate<'a>>, RegistryError> {
    let hints: Vec<OptionHint> = all.iter().map(|(_, h)| h.clone()).collect();
    let kept: Vec<_> = all
        .into_iter()
        .filter(|(choice, _)| matches_selector(choice, selector))
        .collect();
    if kept.is_empty() {
        return Err(RegistryError::NoSuchOption {
            name: name.to_string(),
            requested: requested(selector),
            options: hints,
        });
    }
    Ok(kept)
}

/// What `selector` asked for, in words: `npm package with transport sse`.
fn requested(selector: &Selector) -> String {
    match selector {
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
    }
}

pub(super) fn canonical_or(t: &str) -> String {
    canonical_transport(t).unwrap_or_else(|| t.to_string())
}

pub(super) fn matches_selector(choice: &Choice<'_>, selector: &Selector) -> bool {
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
