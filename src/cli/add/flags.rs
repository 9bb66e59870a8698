//! A definition built from `add`'s flags (`--command`, `--url`, `--env`,
//! `--header`, …), and the flags every kind of `add` applies on top.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::args::{Args, RemoteTransport};
use crate::defs::{Launch, LocalProcess, RestartPolicy, ServerDef, Transport};
use crate::error::{Result, UsageError};
use crate::validate::{name, pins};

/// Build the definition from the flags; the name may still be provisional.
pub(super) fn definition_from_args(args: &Args, target: &Path) -> Result<ServerDef> {
    let (transport, launch) = match (&args.url, &args.command) {
        (Some(_), None) if !args.env.is_empty() || args.cwd.is_some() => {
            return Err(UsageError::new(
                "--env and --cwd need a --command to launch",
                "add --command CMD to launch a local HTTP server, or drop --env/--cwd",
            )
            .into());
        }
        (Some(url), _) => remote_launch(args, url)?,
        (None, Some(command)) => stdio_launch(args, command)?,
        (None, None) => {
            return Err(
                UsageError::new("nothing to add", "give --url URL or --command CMD").into(),
            );
        }
    };
    let mut def = ServerDef::new(String::new(), transport, launch, PathBuf::new());
    def.transport_inferred = args.url.is_some() && args.transport.is_none();
    apply_common_flags(&mut def, args, target)?;
    def.name = match &args.name {
        Some(explicit) => explicit.clone(),
        None => derive_name(&def),
    };
    Ok(def)
}

/// The command, its arguments (`--args` then those after `--`) and `--env`.
fn local_process(args: &Args) -> Result<(String, Vec<String>, IndexMap<String, String>)> {
    let mut argv = args.args.clone();
    argv.extend(args.trailing.iter().cloned());
    let env = parse_pairs(&args.env, '=', "--env", "API_KEY='${API_KEY}'")?;
    Ok((args.command.clone().unwrap_or_default(), argv, env))
}

/// `--url` (with `--command`, a local HTTP server mcpctl launches first).
fn remote_launch(args: &Args, url: &str) -> Result<(Transport, Launch)> {
    let transport = match args.transport {
        None | Some(RemoteTransport::StreamableHttp) => Transport::StreamableHttp,
        Some(RemoteTransport::Sse) => Transport::Sse,
        Some(RemoteTransport::Stdio) => {
            return Err(UsageError::new(
                format!("--transport stdio launches a command, but `{url}` is a URL"),
                "use -t http or -t sse for a URL, or give the command: `mcpctl add NAME -- CMD ARGS…`",
            )
            .into());
        }
    };
    let headers = parse_pairs(
        &args.headers,
        ':',
        "--header",
        "'Authorization: Bearer ${TOKEN}'",
    )?;
    let process = match &args.command {
        Some(_) => {
            let (command, args_, env) = local_process(args)?;
            Some(LocalProcess {
                command,
                args: args_,
                env,
                cwd: args.cwd.clone(),
            })
        }
        None => None,
    };
    Ok((
        transport,
        Launch::Remote {
            transport,
            url: url.to_string(),
            headers,
            process,
        },
    ))
}

/// `--command` alone: a stdio server.
fn stdio_launch(args: &Args, command: &str) -> Result<(Transport, Launch)> {
    if let Some(remote @ (RemoteTransport::StreamableHttp | RemoteTransport::Sse)) = args.transport
    {
        let spelled = if remote == RemoteTransport::Sse {
            "sse"
        } else {
            "http"
        };
        return Err(UsageError::new(
            format!("--transport {spelled} needs a URL, but `{command}` is a command"),
            format!("write `mcpctl add -t {spelled} NAME URL`, or add --url URL to launch a local HTTP server"),
        )
        .into());
    }
    if !args.headers.is_empty() {
        return Err(UsageError::new(
            "--header applies to --url or a registry NAME, not --command",
            "give the child's settings with --env NAME=value",
        )
        .into());
    }
    let (command, argv, env) = local_process(args)?;
    Ok((
        Transport::Stdio,
        Launch::Stdio {
            command,
            args: argv,
            env,
            cwd: args.cwd.clone(),
        },
    ))
}

/// The flags every kind of `add` shares (`--label`, `--disabled`,
/// `--autostart`, `--restart`, `--connect-timeout`), applied on top of a
/// definition built from flags or from a registry entry.
pub(super) fn apply_common_flags(def: &mut ServerDef, args: &Args, target: &Path) -> Result<()> {
    if let Some(label) = &args.label {
        def.label = Some(label.clone());
    }
    def.enabled = !args.disabled;
    def.autostart = args.autostart;
    if args.restart.as_deref() == Some("on-failure") {
        def.restart = RestartPolicy::OnFailure;
    }
    if let Some(secs) = args.connect_timeout {
        let budget = crate::validate::seconds::duration("--connect-timeout", secs)
            .map_err(|why| UsageError::new(why, "e.g. --connect-timeout 60"))?;
        def.connect_timeout = Some(budget);
    }
    if let Some(protocol) = &args.protocol {
        def.protocol = Some(protocol.clone());
    }
    def.source = target.to_path_buf();
    if let Some(oauth) = args.oauth.build(def)? {
        def.auth = Some(oauth);
    }
    super::sandbox::apply(def, &args.sandbox)
}

/// Split `NAME=VALUE` / `Name: value` flags into an ordered map.
pub(super) fn parse_pairs(
    raw: &[String],
    separator: char,
    flag: &str,
    example: &str,
) -> Result<IndexMap<String, String>> {
    let mut out = IndexMap::new();
    for item in raw {
        let Some((key, value)) = item.split_once(separator) else {
            return Err(UsageError::new(
                format!("{flag} `{item}` has no `{separator}`"),
                format!("write it as {flag} {example}"),
            )
            .into());
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(UsageError::new(
                format!("{flag} `{item}` has an empty name"),
                format!("write it as {flag} {example}"),
            )
            .into());
        }
        let value = if separator == ':' {
            value.trim()
        } else {
            value
        };
        out.insert(key.to_string(), value.to_string());
    }
    Ok(out)
}

/// A name from the package (`server-everything` → `everything`) or the host.
fn derive_name(def: &ServerDef) -> String {
    let raw = match &def.launch {
        Launch::Stdio { command, args, .. } => match pins::find_package(command, args) {
            Some(spec) => {
                let last = spec
                    .package
                    .rsplit('/')
                    .next()
                    .unwrap_or(&spec.package)
                    .to_string();
                last.split(':').next().unwrap_or(&last).to_string()
            }
            None => Path::new(command)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| command.clone()),
        },
        Launch::Remote { url, .. } => match url::Url::parse(url) {
            Ok(parsed) => {
                let host = parsed.host_str().unwrap_or("remote");
                let host = ["www.", "mcp.", "api."]
                    .iter()
                    .fold(host, |h, prefix| h.strip_prefix(prefix).unwrap_or(h));
                let base = if crate::validate::url::is_loopback(&parsed) {
                    "local".to_string()
                } else {
                    host.split('.').next().unwrap_or(host).to_string()
                };
                match parsed.port() {
                    Some(port) => format!("{base}-{port}"),
                    None => base,
                }
            }
            Err(_) => "remote".to_string(),
        },
    };
    let mut trimmed = raw.as_str();
    for prefix in ["mcp-server-", "server-", "mcp-"] {
        if let Some(rest) = trimmed.strip_prefix(prefix).filter(|r| !r.is_empty()) {
            trimmed = rest;
            break;
        }
    }
    for suffix in ["-mcp-server", "-mcp", "-server"] {
        if let Some(rest) = trimmed.strip_suffix(suffix).filter(|r| !r.is_empty()) {
            trimmed = rest;
            break;
        }
    }
    name::suggest(trimmed)
}
