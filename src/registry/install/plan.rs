//! From a fetched entry to an [`InstallPlan`]: refuse a deleted entry (or a
//! deprecated one, unless allowed), choose what to launch, fill in its
//! inputs, build the launch, and refuse any `${VAR}` the operator did not
//! write or mcpctl did not write for a secret.

use super::forms::package_version;
use super::inputs::Inputs;
use super::select::{Choice, choose};
use super::*;

/// What an entry launches as, before the definition is built around it.
struct Planned {
    launch: Launch,
    transport: Transport,
    /// What was chosen, for [`InstallPlan::chosen`].
    chosen: String,
}

/// Plan from an already fetched entry (status checks included).
pub fn plan_from_entry(
    entry: &ServerEntry,
    req: &InstallRequest,
    mut prompter: Option<&mut dyn Prompter>,
) -> Result<InstallPlan, RegistryError> {
    let server = &entry.server;
    let mut notes = Vec::new();
    check_status(entry, req, &mut notes)?;
    let choice = choose(
        entry,
        req,
        prompter.as_mut().map(|p| &mut **p as &mut dyn Prompter),
        &mut notes,
    )?;
    let mut inputs = Inputs::new(req, prompter);
    let suggested_name = local_name(&server.name);
    let planned = match choice {
        Choice::Remote(remote) => remote_launch(&mut inputs, remote)?,
        Choice::Package(package) => {
            package_launch(entry, package, &mut inputs, &suggested_name, &mut notes)?
        }
    };
    if !inputs.missing.is_empty() {
        return Err(RegistryError::MissingInputs {
            name: server.name.clone(),
            missing: inputs.missing,
        });
    }
    refuse_foreign_references(&server.name, &planned.launch, &inputs)?;
    for reference in &inputs.references {
        notes.push(format!(
            "the secret is written as ${{{reference}}}; export {reference} before starting the server"
        ));
    }
    let mut def = ServerDef::new(
        suggested_name.clone(),
        planned.transport,
        planned.launch,
        PathBuf::new(),
    );
    def.label = server.title.clone().filter(|t| !t.trim().is_empty());
    Ok(InstallPlan {
        def,
        suggested_name,
        registry_name: server.name.clone(),
        version: server.version.clone(),
        chosen: planned.chosen,
        notes,
        secret_env: inputs.secret_env,
        stored_secrets: inputs.stored_secrets,
    })
}

/// A deleted entry is refused, and so is a deprecated one without
/// `--allow-deprecated`; an allowed deprecated one is noted.
fn check_status(
    entry: &ServerEntry,
    req: &InstallRequest,
    notes: &mut Vec<String>,
) -> Result<(), RegistryError> {
    let server = &entry.server;
    match entry.status() {
        Status::Deleted => Err(RegistryError::Deleted {
            name: server.name.clone(),
            version: server.version.clone(),
        }),
        Status::Deprecated if !req.allow_deprecated => Err(RegistryError::Deprecated {
            name: server.name.clone(),
            version: server.version.clone(),
            message: entry.official.status_message.clone(),
        }),
        Status::Deprecated => {
            notes.push(format!(
                "`{}@{}` is deprecated{}",
                server.name,
                server.version,
                entry
                    .official
                    .status_message
                    .as_ref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ));
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A hosted endpoint: its URL and headers with their inputs filled in.
fn remote_launch(inputs: &mut Inputs<'_, '_>, remote: &Remote) -> Result<Planned, RegistryError> {
    let (transport, url, headers) = inputs.remote(remote)?;
    Ok(Planned {
        launch: Launch::Remote {
            transport,
            url,
            headers,
            process: None,
        },
        transport,
        chosen: format!("remote {} {}", transport, remote.url),
    })
}

/// A package, pinned and mapped to its launcher: a stdio server, or one
/// that serves HTTP (see [`served_over_http`]).
fn package_launch(
    entry: &ServerEntry,
    package: &Package,
    inputs: &mut Inputs<'_, '_>,
    suggested_name: &str,
    notes: &mut Vec<String>,
) -> Result<Planned, RegistryError> {
    let version = package_version(entry, package, notes)?;
    let (command, args, env) = inputs.package(package, &version, notes)?;
    let chosen = format!(
        "{} ({})",
        install_form(package, Some(&version)),
        package.transport_type()
    );
    let process = LocalProcess {
        command,
        args,
        env,
        cwd: None,
    };
    let http = package
        .transport
        .as_ref()
        .and_then(|t| Transport::from_spelling(&t.kind))
        .filter(|t| t.is_remote());
    Ok(match http {
        Some(transport) => Planned {
            launch: served_over_http(package, transport, process, inputs, suggested_name, notes)?,
            transport,
            chosen,
        },
        None => Planned {
            launch: Launch::Stdio {
                command: process.command,
                args: process.args,
                env: process.env,
                cwd: None,
            },
            transport: Transport::Stdio,
            chosen,
        },
    })
}

/// A package that serves HTTP: mcpctl launches it and connects to its URL,
/// or (`--as-remote`) stores the URL alone and leaves starting it to the
/// operator.
fn served_over_http(
    package: &Package,
    transport: Transport,
    process: LocalProcess,
    inputs: &mut Inputs<'_, '_>,
    suggested_name: &str,
    notes: &mut Vec<String>,
) -> Result<Launch, RegistryError> {
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
    let launch_line = std::iter::once(process.command.clone())
        .chain(process.args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let headers = inputs.headers(
        &package
            .transport
            .as_ref()
            .map(|t| t.headers.clone())
            .unwrap_or_default(),
    )?;
    let process = if inputs.req.as_remote {
        notes.push(format!(
            "stored as a remote {transport} endpoint at {url}: mcpctl will not start it; run `{launch_line}` yourself first"
        ));
        None
    } else {
        notes.push(format!(
            "this package serves {transport} at {url}: mcpctl launches `{launch_line}` and connects there (`mcpctl start {suggested_name}` keeps it running); add --as-remote to store only the URL"
        ));
        Some(process)
    };
    Ok(Launch::Remote {
        transport,
        url,
        headers,
        process,
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
