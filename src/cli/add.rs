//! `mcpctl add`: validate a new definition, then write it without touching
//! anything else in the file.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::json;

use super::Context;
use crate::defs::edit::{self, Edit};
use crate::defs::format::{self, Format, ParsedFile};
use crate::defs::{
    DefsError, Launch, LocalProcess, RestartPolicy, ServerDef, Transport, render, store, vars,
};
use crate::error::{ExitCode, Result, UsageError};
use crate::output;
use crate::validate::{self, Finding, Policy, Rule, Severity, ValidationError, name, pins};

const EXAMPLES: &str = "\
Claude Code's syntax works as typed: `add NAME -- CMD ARGS…` (a name followed
by -- or a command is the server's name, not a registry lookup),
`add -t http NAME URL`, -e/--env, -H/--header, -t/--transport and -s/--scope.
Scopes: local (the default) writes where `add` always does (--to, else the
first definition file); user writes the per-user file
(~/.config/mcpctl/servers.json) whatever --file says; project writes
.mcp.json in the current directory (mcpServers shape, what Claude Code and
other clients read); read it back with `mcpctl --file .mcp.json list`.

Plain http:// is accepted for loopback without a word, and with a warning for
private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local
(169.254/16, fe80::/10), single-label (http://mcp-gateway:8080/mcp) and
.internal/.local/.home.arpa hosts; a public host needs --allow-http.

OAuth: --auth oauth saves a remote server that signs in with OAuth (no
connection check; run `mcpctl login NAME` next). Without --auth, a server that
answers 401 with `WWW-Authenticate: Bearer` gets an offer to sign in at once on
a terminal; without one nothing is saved. --client-secret and --client-key take
only '${VAR}' references.

Examples:
  # a local server over stdio (everything after -- is passed to the command)
  mcpctl add everything -- npx -y @modelcontextprotocol/server-everything@2026.8.31
  mcpctl add -s project -e API_KEY='${API_KEY}' myserver -- node server.js
  mcpctl add --name everything --command npx -- -y @modelcontextprotocol/server-everything@2026.8.31
  mcpctl add --command uvx --args=mcp-server-time==2026.10.19
  # a remote server; ${VAR} references stay in the file and expand at launch
  mcpctl add --url https://mcp.example.com/mcp --header 'Authorization: Bearer ${MCP_TOKEN}'
  mcpctl add --name legacy --url http://127.0.0.1:3001/sse --transport sse
  mcpctl add -t http -H 'Authorization: Bearer ${TOKEN}' gateway http://mcp-gateway:8080/mcp
  # OAuth: sign in with a browser, or with client credentials in CI
  mcpctl add --name linear --url https://mcp.linear.app/mcp --auth oauth && mcpctl login linear
  mcpctl add --name ci --url https://mcp.example.com/mcp --auth oauth --grant client-credentials \
      --client-id ci-bot --client-secret '${CI_CLIENT_SECRET}'
  # write to a specific file, refuse unpinned packages, preview only
  mcpctl add --to .mcp.json --require-pin --dry-run --command npx --args=-y,pkg@1.2.3
  # write the exact version the registry serves now (npx -y pkg → pkg@1.2.3)
  mcpctl add --pin time -- uvx mcp-server-time
  # from the official MCP Registry, by exact name (see `mcpctl search`)
  mcpctl add io.github.modelcontextprotocol/server-everything --package npm:stdio
  mcpctl add io.github.github/github-mcp-server@0.20.2 --env GITHUB_PERSONAL_ACCESS_TOKEN=…
  mcpctl add com.example/acme-analytics --remote --header 'X-API-Key: …'
  mcpctl add com.example/hybrid --remote=sse";

/// The transports `-t/--transport` accepts (Claude Code's `stdio`, `http`
/// and `sse`, plus mcpctl's own spelling of Streamable HTTP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RemoteTransport {
    /// A local process over stdin/stdout (the default with a command).
    Stdio,
    /// Streamable HTTP (the current MCP transport; the default with a URL).
    #[value(name = "streamable-http", alias = "http")]
    StreamableHttp,
    /// Legacy HTTP+SSE.
    Sse,
}

/// `-s/--scope`, as Claude Code spells it, mapped onto mcpctl's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// The file `add` writes without a scope: `--to`, else the first
    /// definition file (Claude Code's default scope too).
    Local,
    /// The per-user mcpctl file (`~/.config/mcpctl/servers.json`).
    User,
    /// `.mcp.json` in the current directory, shared with the project.
    Project,
}

/// Arguments of `mcpctl add`.
#[derive(Debug, clap::Args)]
#[command(
    after_long_help = EXAMPLES,
    group(clap::ArgGroup::new("launch").required(true)
            .multiple(true).args(["registry_name", "url", "command"]))
)]
pub struct Args {
    /// A registry entry's exact name, optionally with an exact version; or,
    /// followed by a command, a URL or `--`, the new server's name.
    #[arg(value_name = "NAME[@VERSION]")]
    pub registry_name: Option<String>,
    /// After NAME: the command to launch, or (an http(s) URL, or with
    /// -t http|sse) the server's URL.
    #[arg(value_name = "COMMAND|URL")]
    pub command_or_url: Option<String>,
    /// After NAME COMMAND: the command's arguments (or put them after --).
    #[arg(value_name = "ARGS")]
    pub positional_args: Vec<String>,
    /// Registry: install this package kind (npm, pypi, oci), optionally
    /// with its transport (npm:stdio, npm:streamable-http).
    #[arg(
        long,
        value_name = "KIND[:TRANSPORT]",
        requires = "registry_name",
        conflicts_with = "remote"
    )]
    pub package: Option<String>,
    /// Registry: install the hosted endpoint (optionally of this transport).
    #[arg(
        long,
        value_name = "TRANSPORT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        requires = "registry_name"
    )]
    pub remote: Option<String>,
    /// Registry: store a package that serves HTTP as a remote URL instead
    /// of a process for the supervisor to start.
    #[arg(long, requires = "registry_name")]
    pub as_remote: bool,
    /// Registry: a package argument or URL variable, as NAME=value (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE", requires = "registry_name")]
    pub registry_args: Vec<String>,
    /// Registry: install a version its publisher deprecated.
    #[arg(long, requires = "registry_name")]
    pub allow_deprecated: bool,
    /// Registry: write secret values literally instead of ${VAR} references.
    #[arg(long, requires = "registry_name")]
    pub store_secret: bool,
    /// Registry: ask the registry again instead of using cached answers.
    #[arg(long, requires = "registry_name")]
    pub refresh: bool,
    /// Registry base URL (used only when adding by registry name).
    // No `requires`: clap counts the variable as the flag, so a mirror set
    // in the environment would refuse every `--command` and `--url` add.
    #[arg(long, value_name = "URL", env = "MCPCTL_REGISTRY_URL")]
    pub registry: Option<String>,
    /// Remote server endpoint (https, or http to localhost). With --command,
    /// a local HTTP server: mcpctl launches the command, then connects here.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Transport: stdio for a command; for a URL, streamable-http (alias
    /// http) or sse (default: found by connecting, as the MCP spec says:
    /// Streamable HTTP, else legacy SSE; the one that answered is saved).
    #[arg(short = 't', long, value_enum, value_name = "TRANSPORT")]
    pub transport: Option<RemoteTransport>,
    /// Request header for a URL, as 'Name: value' (repeatable).
    #[arg(short = 'H', long = "header", value_name = "'NAME: VALUE'")]
    pub headers: Vec<String>,
    /// Program to launch for a stdio server (on PATH, or a path).
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// Arguments for --command, comma-separated (or put them after --).
    #[arg(
        long,
        value_name = "A,B,…",
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "command"
    )]
    pub args: Vec<String>,
    /// The command's arguments, verbatim; after `NAME --`, the command and
    /// its arguments.
    #[arg(last = true, value_name = "ARG")]
    pub trailing: Vec<String>,
    /// Environment variable for the child, as NAME=value (repeatable).
    #[arg(short = 'e', long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Working directory for the child process.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Server name (default: derived from the package or host).
    #[arg(long)]
    pub name: Option<String>,
    /// Human-readable label.
    #[arg(long)]
    pub label: Option<String>,
    /// Add it disabled.
    #[arg(long)]
    pub disabled: bool,
    /// Start it when the supervisor starts.
    #[arg(long)]
    pub autostart: bool,
    /// Restart it on failure when supervised.
    #[arg(long, value_name = "POLICY", value_parser = ["no", "on-failure"])]
    pub restart: Option<String>,
    /// Seconds allowed for connecting and listing tools (default 30).
    #[arg(long, value_name = "SECONDS")]
    pub connect_timeout: Option<f64>,
    /// The MCP protocol version to speak, instead of offering 2025-11-25
    /// and falling back to the stateless 2026-07-28.
    #[arg(long, value_name = "VERSION", value_parser = [
        crate::mcp::client::OFFERED_VERSION,
        crate::mcp::client::STATELESS_VERSION,
    ])]
    pub protocol: Option<String>,
    /// Resolve an unpinned or ranged npm/PyPI package to the exact version
    /// its registry serves now, and write that (see `mcpctl pin --help`).
    #[arg(long)]
    pub pin: bool,
    /// OAuth sign-in for a URL.
    #[command(flatten)]
    pub oauth: super::add_oauth::OAuthFlags,
    /// Where to write, and how strictly.
    #[command(flatten)]
    pub save: SaveFlags,
}

/// The flags `add` and `add-json` share: which file to write, and how
/// strictly to validate and check before writing it.
#[derive(Debug, clap::Args)]
pub struct SaveFlags {
    /// File to write (default: the first definition file).
    #[arg(long, value_name = "FILE")]
    pub to: Option<PathBuf>,
    /// Which file to write, as Claude Code names it: local (the default:
    /// --to, else the first definition file), user (the per-user mcpctl
    /// file), project (.mcp.json here).
    #[arg(
        short = 's',
        long,
        value_enum,
        value_name = "SCOPE",
        conflicts_with = "to"
    )]
    pub scope: Option<Scope>,
    /// Accept plain http:// to a public host (private, link-local,
    /// single-label and .internal/.local hosts need no flag).
    #[arg(long)]
    pub allow_http: bool,
    /// Replace an existing server of that name; accept a launcher that is
    /// not installed here; drop comments an edit cannot keep.
    #[arg(long)]
    pub force: bool,
    /// Treat unpinned package versions as errors.
    #[arg(long, env = "MCPCTL_REQUIRE_PIN")]
    pub require_pin: bool,
    /// Do not connect to the server before saving.
    #[arg(long)]
    pub no_check: bool,
    /// Validate and print what would be written, but write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Show literal env and header values in the output.
    #[arg(long)]
    pub show_secrets: bool,
}

impl SaveFlags {
    /// The file `-s/--scope` (or `--to`, or the first source) names.
    pub(super) fn target(&self, ctx: &Context) -> Result<PathBuf> {
        Ok(match self.scope {
            None | Some(Scope::Local) => self
                .to
                .clone()
                .unwrap_or_else(|| ctx.sources.primary().to_path_buf()),
            Some(Scope::User) => crate::defs::sources::default_file(),
            Some(Scope::Project) => std::env::current_dir()
                .map_err(UsageError::from)?
                .join(".mcp.json"),
        })
    }

    /// How to save to `target` (an entry rendered from the definition, no
    /// registry notes).
    pub(super) fn save(&self, target: PathBuf, explicit_name: bool) -> Save {
        Save {
            target,
            explicit_name,
            force: self.force,
            policy: Policy {
                require_pin: self.require_pin,
                allow_http: self.allow_http,
            },
            no_check: self.no_check,
            dry_run: self.dry_run,
            show_secrets: self.show_secrets,
            entry: None,
            note_outside_sources: self.scope.is_some(),
            registry_notes: None,
            extra_warnings: Vec::new(),
        }
    }
}

/// Validate and save a new definition.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let args = claude_form(args)?;
    let catalog = ctx.catalog()?;
    let target = args.save.target(ctx)?;
    // Secrets written literally by `add NAME --store-secret`, masked in output.
    let mut stored_secrets = Vec::new();
    // The registry's notes name the entry; they are printed once its saved
    // name is known.
    let mut registry_notes = None;
    // The registry's supply-chain warnings, in `--json`'s `warnings` too.
    let mut extra_warnings = Vec::new();
    let mut def = match &args.registry_name {
        Some(spec) => {
            let (def, secrets, notes, supply) = registry_definition(ctx, &args, spec, &target)?;
            stored_secrets = secrets;
            registry_notes = Some(notes);
            extra_warnings = supply;
            def
        }
        None => definition_from_args(&args, &target)?,
    };
    if args.pin
        && let Some(note) = super::pin::pin_definition(&mut def, &target)?
    {
        output::note(note);
    }
    let save = Save {
        registry_notes,
        extra_warnings,
        ..args.save.save(target, args.name.is_some())
    };
    let Some((def, format)) = save_definition(ctx, &catalog, def, &save, &stored_secrets)? else {
        return Ok(ExitCode::Success);
    };
    if args.registry_name.is_some() && !ctx.json {
        // Show exactly what was written (secrets are ${VAR} references).
        let entry = render::entry_value(&def, format);
        let pretty = serde_json::to_string_pretty(&json!({ def.name.clone(): entry }))
            .map_err(std::io::Error::from)
            .map_err(UsageError::from)?;
        output::line(pretty)?;
    }
    Ok(ExitCode::Success)
}

/// How `add` and `add-json` save a definition once it is built.
pub(super) struct Save {
    /// The file to write.
    pub target: PathBuf,
    /// The operator chose the name: an existing entry is a conflict (or,
    /// with `force`, replaced) instead of a reason to pick `NAME-2`.
    pub explicit_name: bool,
    /// Replace an existing entry; let a missing launcher through.
    pub force: bool,
    /// Pin and plain-http strictness.
    pub policy: Policy,
    /// Skip the connection before saving.
    pub no_check: bool,
    /// Print what would be written, write nothing.
    pub dry_run: bool,
    /// Show literal env and header values in the output.
    pub show_secrets: bool,
    /// The entry to write instead of one rendered from the definition
    /// (`add-json` keeps the operator's fields as typed).
    pub entry: Option<serde_json::Value>,
    /// Say so when `target` is not among the files commands read.
    pub note_outside_sources: bool,
    /// The registry's notes, printed once the saved name is known.
    pub registry_notes: Option<RegistryNotes>,
    /// Warnings found before validation (the registry's supply-chain
    /// checks), already printed; reported in `--json` with the others.
    pub extra_warnings: Vec<Finding>,
}

/// Validate, check and write `def` to `save.target`: the steps every kind of
/// `add` shares. Returns the definition as shown (secrets masked) and the
/// format written, or `None` for a dry run.
pub(super) fn save_definition(
    ctx: &Context,
    catalog: &crate::defs::Catalog,
    mut def: ServerDef,
    save: &Save,
    stored_secrets: &[crate::registry::install::SecretValue],
) -> Result<Option<(ServerDef, Format)>> {
    let target = &save.target;
    let shown = |def: &ServerDef| {
        crate::registry::install::mask_secrets(def, stored_secrets, output::REDACTED)
    };
    if save.explicit_name
        && let Some(finding) = name::check(&def.name)
    {
        return Err(ValidationError {
            findings: vec![finding],
        }
        .into());
    }
    if let Some(other) = catalog
        .servers()
        .iter()
        .find(|d| d.name == def.name && save.explicit_name && d.source != *target)
    {
        return Err(DefsError::Exists {
            name: other.name.clone(),
            path: other.source.clone(),
        }
        .into());
    }

    if save.explicit_name
        && let Some(problem) = catalog
            .servers()
            .iter()
            .find_map(|d| name::case_twin(&def.name, &d.name))
    {
        return Err(ValidationError {
            findings: vec![Finding::error(
                Rule::Name,
                problem,
                "choose another --name; names that differ only in case would share a log file"
                    .to_string(),
            )],
        }
        .into());
    }

    let findings = validate_for_save(&def, save);
    let (errors, mut warnings): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    if !errors.is_empty() {
        if !ctx.json {
            output::warn_findings(&warnings);
        }
        return Err(ValidationError { findings: errors }.into());
    }
    if !ctx.json {
        output::warn_findings(&warnings);
    }
    warnings.extend(save.extra_warnings.iter().cloned());

    let other_names: Vec<String> = catalog
        .servers()
        .iter()
        .filter(|d| d.source != *target)
        .map(|d| d.name.clone())
        .collect();
    let explicit_name = save.explicit_name;
    // Every message names the entry as it will be saved (`x-2` when `x` is
    // taken), so the name is settled before the check prints it.
    let existing = store::read_text(target)?;
    let (parsed, names) = file_state(target, existing.as_deref())?;
    if !explicit_name {
        def.name = unique_name(&def.name, &names, &other_names);
    }
    if let Some((suggested, notes)) = &save.registry_notes {
        for note in notes {
            let note = note.replace(
                &format!("`mcpctl start {suggested}`"),
                &format!("`mcpctl start {}`", def.name),
            );
            output::note(format!("note: {note}"));
        }
    }

    if save.dry_run {
        if explicit_name && names.contains(&def.name) && !save.force {
            return Err(DefsError::Exists {
                name: def.name.clone(),
                path: target.clone(),
            }
            .into());
        }
        report(
            ctx,
            save,
            &shown(&def),
            "would add",
            &warnings,
            Some(parsed.format),
        )?;
        return Ok(None);
    }

    // Connect and list tools before saving (issue 3); refuse on failure
    // unless --force. The budget is the definition's connect_timeout.
    // An OAuth server is saved unchecked: it cannot answer before `login`.
    if !save.no_check && def.auth.is_none() {
        ctx.require_trusted(target)?;
        let checked = match super::check::check_one(&def, None)? {
            Err(err) if !save.force => match super::add_oauth::bearer_challenge(&err) {
                Some(challenge) => super::add_oauth::offer_sign_in(ctx, &mut def, challenge)?,
                None => Err(err),
            },
            other => other,
        };
        match checked {
            Ok(found) => {
                output::note(format!(
                    "{}: {}",
                    output::sanitize(&def.name),
                    super::check::summary(&found)
                ));
                settle_transport(&mut def, found.transport);
            }
            Err(err) if save.force => output::warn(
                &format!("{err} (saving anyway because of --force)"),
                crate::error::Diagnostic::hint(&err).as_deref(),
            ),
            Err(err) => return Err(super::check::NotSaved(err).into()),
        }
    }

    let mut action = "added";
    let mut written_format = None;
    let mut read_before = Some((existing, parsed, names));
    store::modify(target, |current| {
        let (parsed, names) = state_under_lock(target, current, read_before.take())?;
        let format = parsed.format;
        written_format = Some(format);
        let value = save
            .entry
            .clone()
            .map(|given| super::add_json::entry_for(given, &def, format))
            .unwrap_or_else(|| render::entry_value(&def, format));
        let edit = if explicit_name && names.contains(&def.name) {
            if !save.force {
                return Err(DefsError::Exists {
                    name: def.name.clone(),
                    path: target.clone(),
                }
                .into());
            }
            action = "replaced";
            Edit::Replace {
                name: def.name.clone(),
                value,
            }
        } else {
            if !explicit_name {
                def.name = unique_name(&def.name, &names, &other_names);
            }
            Edit::Add {
                name: def.name.clone(),
                value,
            }
        };
        let text = current.unwrap_or("");
        let new_text = edit::apply(target, text, &parsed, &[edit], save.force)?;
        Ok(Some((new_text, ())))
    })?;
    let def = shown(&def);
    report(ctx, save, &def, action, &warnings, None)?;
    if save.note_outside_sources && !ctx.json {
        note_if_outside_sources(ctx, target);
    }
    Ok(written_format.map(|format| (def, format)))
}

/// Claude Code's forms (`add NAME -- CMD ARGS…`, `add NAME CMD ARGS…`,
/// `add -t http NAME URL`, `add NAME --url URL`) rewritten into mcpctl's
/// own flags: NAME becomes `--name` whenever a command or URL comes with
/// it, and only a bare NAME stays a registry lookup.
fn claude_form(mut args: Args) -> Result<Args> {
    let given_launch = args.command_or_url.is_some()
        || args.url.is_some()
        || args.command.is_some()
        || !args.trailing.is_empty();
    let Some(name) = args.registry_name.clone().filter(|_| given_launch) else {
        if args.transport.is_some() && args.registry_name.is_some() {
            return Err(UsageError::new(
                "--transport applies to a command or URL, not a registry entry",
                "pick a registry package with --package KIND[:TRANSPORT] or --remote[=TRANSPORT]",
            )
            .into());
        }
        return without_stray_arguments(args);
    };
    if args.name.is_some() {
        return Err(UsageError::new(
            format!("the name is given twice: `{name}` and --name"),
            "drop --name, or drop the NAME before the command",
        )
        .into());
    }
    let registry_only = [
        (args.package.is_some(), "--package"),
        (args.remote.is_some(), "--remote"),
        (args.as_remote, "--as-remote"),
        (!args.registry_args.is_empty(), "--arg"),
        (args.allow_deprecated, "--allow-deprecated"),
        (args.store_secret, "--store-secret"),
        (args.refresh, "--refresh"),
    ];
    if let Some((_, flag)) = registry_only.iter().find(|(given, _)| *given) {
        return Err(UsageError::new(
            format!(
                "{flag} applies to a registry entry, but `{name}` is followed by a command or URL"
            ),
            "drop the command to install the registry entry, or drop the flag",
        )
        .into());
    }
    args.registry_name = None;
    args.name = Some(name);
    let positional = args.command_or_url.take();
    let mut rest = std::mem::take(&mut args.positional_args);
    if let Some(first) = positional {
        if args.command.is_some() || args.url.is_some() {
            return Err(UsageError::new(
                format!("`{first}` and --command/--url both say what to launch"),
                "give the command or URL once: `mcpctl add NAME -- CMD ARGS…` or `mcpctl add -t http NAME URL`",
            )
            .into());
        }
        let looks_like_url = first.starts_with("https://") || first.starts_with("http://");
        if looks_like_url && args.transport == Some(RemoteTransport::Stdio) {
            return Err(UsageError::new(
                format!("--transport stdio launches a command, but `{first}` is a URL"),
                "use -t http or -t sse for a URL, or give the command: `mcpctl add NAME -- CMD ARGS…`",
            )
            .into());
        }
        let is_url = match args.transport {
            Some(RemoteTransport::Stdio) => false,
            Some(_) => true,
            None => looks_like_url,
        };
        if is_url {
            if !rest.is_empty() || !args.trailing.is_empty() {
                return Err(UsageError::new(
                    format!("a URL takes no arguments, but `{first}` is followed by some"),
                    "drop them, or launch a local HTTP server with --command CMD --url URL",
                )
                .into());
            }
            args.url = Some(first);
        } else {
            rest.append(&mut args.trailing);
            args.args.splice(0..0, rest);
            args.command = Some(first);
        }
    } else if args.command.is_none() && args.url.is_none() {
        // `add NAME -- CMD ARGS…`: the command is the first word after --.
        let mut words = std::mem::take(&mut args.trailing).into_iter();
        args.command = words.next();
        args.trailing = words.collect();
    }
    without_stray_arguments(args)
}

/// Arguments after `--` belong to a command; refuse them without one.
fn without_stray_arguments(args: Args) -> Result<Args> {
    if args.command.is_none() && !args.trailing.is_empty() {
        return Err(UsageError::new(
            format!(
                "`{}` after -- has no command to go to",
                args.trailing.join(" ")
            ),
            "name the server first: `mcpctl add NAME -- CMD ARGS…`, or give --command CMD",
        )
        .into());
    }
    Ok(args)
}

/// After a scoped write: tell the operator how to see the entry when the
/// file is not one of those commands read.
fn note_if_outside_sources(ctx: &Context, target: &Path) {
    let canon = crate::defs::sources::canonical(target);
    let read = ctx
        .sources
        .files
        .iter()
        .any(|f| crate::defs::sources::canonical(f) == canon);
    if !read {
        output::note(format!(
            "note: {} is not one of the definition files ({}); read it with `mcpctl --file {} list`",
            target.display(),
            ctx.sources.describe(),
            target.display()
        ));
    }
}

/// The registry's notes and the name they were written for, printed once
/// the saved name is known.
type RegistryNotes = (String, Vec<String>);

/// What the registry path of `add` hands back: the definition, the secrets
/// stored literally, the notes, and the supply-chain warnings.
type RegistryDefinition = (
    ServerDef,
    Vec<crate::registry::install::SecretValue>,
    RegistryNotes,
    Vec<Finding>,
);

/// Resolve a registry entry into a definition (issue 4): exact name,
/// chosen package or remote, inputs from flags or prompts, `${VAR}` secrets.
fn registry_definition(
    ctx: &Context,
    args: &Args,
    spec: &str,
    target: &Path,
) -> Result<RegistryDefinition> {
    use crate::registry::install::{self, InstallRequest, Selector};
    use crate::registry::{ClientOptions, RegistryClient};

    let mut req = InstallRequest::from_spec(spec);
    req.selector = match (&args.package, &args.remote) {
        (Some(kind), _) => Some(Selector::parse_package(kind)?),
        (None, Some(transport)) => Some(Selector::parse_remote(Some(transport))?),
        (None, None) => None,
    };
    req.as_remote = args.as_remote;
    req.env = parse_pairs(&args.env, '=', "--env", "NAME=value")?;
    req.headers = parse_pairs(&args.headers, ':', "--header", "'X-API-Key: …'")?;
    req.args = parse_pairs(&args.registry_args, '=', "--arg", "name=value")?;
    req.allow_deprecated = args.allow_deprecated;
    req.store_secret = args.store_secret;
    req.interactive = ctx.interactive;

    let client = RegistryClient::new(ClientOptions::from_env(args.registry.clone(), args.refresh))?;
    let runtime = super::runtime()?;
    let plan = runtime.block_on(install::plan_install(&client, &req))?;
    // On stderr even with --json: the notes (secrets to export, HTTP
    // packages to start first) matter to scripts too.
    output::note(format!(
        "{}@{} from {}: {}",
        output::sanitize(&plan.registry_name),
        output::sanitize(&plan.version),
        client.base_url(),
        plan.chosen
    ));
    let supply = supply_chain_checks(&runtime, &client, &plan, target, args.save.force)?;
    let notes = (plan.suggested_name.clone(), plan.notes);
    let mut def = plan.def;
    def.name = args
        .name
        .clone()
        .unwrap_or_else(|| name::suggest(&plan.suggested_name));
    apply_common_flags(&mut def, args, target)?;
    // The file gets `${VAR}` references; the check before save still needs
    // the values the operator just typed or passed.
    for (name, value) in &plan.secret_env {
        vars::provide(name, value.expose());
    }
    Ok((def, plan.stored_secrets, notes, supply))
}

/// Issue 11's registry checks on the package `add NAME` chose: its
/// ownership marker must name the entry (refused unless `--force`), and a
/// near-identical name with more versions is a warning. A package registry
/// that cannot be asked is a warning: nothing was verified either way.
fn supply_chain_checks(
    runtime: &tokio::runtime::Runtime,
    client: &crate::registry::RegistryClient,
    plan: &crate::registry::InstallPlan,
    target: &Path,
    force: bool,
) -> Result<Vec<Finding>> {
    use crate::registry::supply_chain::{self, Ownership};
    let mut warnings = Vec::new();
    let warn =
        |message: String, hint: &str| Finding::warning(Rule::Registry, message, hint.to_string());
    if let Some(spec) = crate::lock::artifact::package(&plan.def) {
        let registries = crate::packages::Registries::for_file(target);
        let package = format!(
            "{}:{}",
            serde_json::to_value(spec.ecosystem)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            spec.spec
        );
        let marker = match spec.ecosystem {
            pins::Ecosystem::Npm => "mcpName",
            pins::Ecosystem::Pypi => "mcp-name",
            pins::Ecosystem::Oci => "label io.modelcontextprotocol.server.name",
        };
        let refuse = |found: String| -> Result<()> {
            let err = crate::registry::RegistryError::NotOwned {
                name: plan.registry_name.clone(),
                package: package.clone(),
                found,
            };
            if force { Ok(()) } else { Err(err.into()) }
        };
        match runtime.block_on(supply_chain::ownership(
            &registries,
            &spec,
            &plan.registry_name,
        )) {
            Ok(Ownership::Verified) => output::note(format!(
                "ownership verified: {} names `{}` ({marker})",
                output::sanitize(&package),
                output::sanitize(&plan.registry_name)
            )),
            Ok(Ownership::Mismatch { found }) => {
                let found = format!("{marker} is `{found}`");
                refuse(found.clone())?;
                warnings.push(warn(
                    format!("{package} does not belong to `{}`: {found} (added anyway because of --force)", plan.registry_name),
                    "check you have the right server",
                ));
            }
            Ok(Ownership::Missing) => {
                let found = format!("it has no {marker}");
                refuse(found.clone())?;
                warnings.push(warn(
                    format!(
                        "{package} does not name `{}`: {found} (added anyway because of --force)",
                        plan.registry_name
                    ),
                    "check you have the right server",
                ));
            }
            Ok(Ownership::Unchecked(why)) => {
                warnings.push(warn(why, "check the image's publisher by hand"))
            }
            Err(err) => warnings.push(warn(
                format!("the ownership of {package} was not verified: {err}"),
                "check the package registry configuration; `mcpctl pin --help` lists it",
            )),
        }
    }
    if let Some((other, theirs, ours)) =
        runtime.block_on(supply_chain::typo_twin(client, &plan.registry_name))
    {
        warnings.push(warn(
            format!(
                "`{}` is within edit distance {} of `{other}`, which has more versions ({theirs} to {ours}): a likely typo-squat",
                plan.registry_name,
                supply_chain::TYPO_DISTANCE
            ),
            "check the name; if you meant the other, `mcpctl add` it instead",
        ));
    }
    if !warnings.is_empty() {
        // Printed now, before the check connects: the operator may want to stop.
        output::warn_findings(&warnings);
    }
    Ok(warnings)
}

/// `target` as parsed now (an empty `mcpServers` file when missing) and
/// the names it already holds.
fn file_state(target: &Path, current: Option<&str>) -> Result<(ParsedFile, Vec<String>)> {
    let parsed = match current {
        Some(text) => format::parse(target, text)?,
        None => ParsedFile {
            format: Format::for_new_file(target),
            servers: Vec::new(),
        },
    };
    let names = parsed.servers.iter().map(|d| d.name.clone()).collect();
    Ok((parsed, names))
}

/// The file as read before the check, its parse and its names.
type ReadBefore = (Option<String>, ParsedFile, Vec<String>);

/// `current`'s parse and names under the lock: the parse made before the
/// check when the file has not changed since (a 1,000-server file is not
/// parsed twice for nothing), else a new one.
fn state_under_lock(
    target: &Path,
    current: Option<&str>,
    read_before: Option<ReadBefore>,
) -> Result<(ParsedFile, Vec<String>)> {
    match read_before {
        Some((text, parsed, names)) if text.as_deref() == current => Ok((parsed, names)),
        _ => file_state(target, current),
    }
}

fn report(
    ctx: &Context,
    save: &Save,
    def: &ServerDef,
    action: &str,
    warnings: &[Finding],
    dry_run_format: Option<Format>,
) -> Result<()> {
    let target = &save.target;
    if ctx.json {
        let mut doc = json!({
            "action": action.replace(' ', "-"),
            "file": target,
            "server": output::server_json(def, save.show_secrets),
            "warnings": warnings,
        });
        if let Some(format) = dry_run_format {
            doc["entry"] = shown_entry(planned_entry(save, def, format), save.show_secrets);
        }
        output::print_json(&doc)?;
        return Ok(());
    }
    output::line(format!(
        "{action} `{}` to {} ({}: {})",
        def.name,
        target.display(),
        def.transport,
        def.target()
    ))?;
    if let Some(format) = dry_run_format {
        let entry = shown_entry(planned_entry(save, def, format), save.show_secrets);
        let pretty = serde_json::to_string_pretty(&json!({ def.name.clone(): entry }))
            .map_err(std::io::Error::from)
            .map_err(UsageError::from)?;
        output::line(pretty)?;
    }
    if let Some(auth) = def.auth.as_ref().filter(|_| dry_run_format.is_none()) {
        let name = output::sanitize(&def.name);
        output::note(match auth.grant {
            crate::defs::Grant::ClientCredentials => format!(
                "note: connection check skipped; `mcpctl check {name}` signs in with the client credentials"
            ),
            crate::defs::Grant::AuthorizationCode if signed_in(def) => {
                format!("note: signed in; `mcpctl check {name}` uses the stored token")
            }
            crate::defs::Grant::AuthorizationCode => format!(
                "note: sign in with `mcpctl login {name}`; until then `check` cannot connect"
            ),
        });
    } else if save.no_check && dry_run_format.is_none() {
        output::note("note: connection check skipped; run `mcpctl check` to connect");
    }
    Ok(())
}

/// True when a token is stored for `def`'s URL (after `add` signed in).
fn signed_in(def: &ServerDef) -> bool {
    let Ok(target) = crate::auth::flow::Target::from_def(def) else {
        return false;
    };
    crate::auth::store::read().is_ok_and(|file| file.for_resource(&target.url).is_some())
}

/// The entry a save writes for `def` into a file of `format`.
fn planned_entry(save: &Save, def: &ServerDef, format: Format) -> serde_json::Value {
    match &save.entry {
        Some(given) => super::add_json::entry_for(given.clone(), def, format),
        None => render::entry_value(def, format),
    }
}

/// Save the transport that answered the check when `--transport` was not
/// given, so the entry needs no detection at the next launch.
fn settle_transport(def: &mut ServerDef, answered: Transport) {
    if !def.transport_inferred {
        return;
    }
    def.transport = answered;
    def.transport_inferred = false;
    if let Launch::Remote { transport, .. } = &mut def.launch {
        *transport = answered;
    }
}

/// Build the definition from the flags; the name may still be provisional.
fn definition_from_args(args: &Args, target: &Path) -> Result<ServerDef> {
    let local_process = || -> Result<(String, Vec<String>, IndexMap<String, String>)> {
        let mut argv = args.args.clone();
        argv.extend(args.trailing.iter().cloned());
        let env = parse_pairs(&args.env, '=', "--env", "API_KEY='${API_KEY}'")?;
        Ok((args.command.clone().unwrap_or_default(), argv, env))
    };
    let (transport, launch) = match (&args.url, &args.command) {
        (Some(_), None) if !args.env.is_empty() || args.cwd.is_some() => {
            return Err(UsageError::new(
                "--env and --cwd need a --command to launch",
                "add --command CMD to launch a local HTTP server, or drop --env/--cwd",
            )
            .into());
        }
        (Some(url), _) => {
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
                    let (command, args_, env) = local_process()?;
                    Some(LocalProcess {
                        command,
                        args: args_,
                        env,
                        cwd: args.cwd.clone(),
                    })
                }
                None => None,
            };
            (
                transport,
                Launch::Remote {
                    transport,
                    url: url.clone(),
                    headers,
                    process,
                },
            )
        }
        (None, Some(command)) => {
            if let Some(remote @ (RemoteTransport::StreamableHttp | RemoteTransport::Sse)) =
                args.transport
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
            let (command, argv, env) = local_process()?;
            (
                Transport::Stdio,
                Launch::Stdio {
                    command,
                    args: argv,
                    env,
                    cwd: args.cwd.clone(),
                },
            )
        }
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

/// The flags every kind of `add` shares (`--label`, `--disabled`,
/// `--autostart`, `--restart`, `--connect-timeout`), applied on top of a
/// definition built from flags or from a registry entry.
fn apply_common_flags(def: &mut ServerDef, args: &Args, target: &Path) -> Result<()> {
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
    Ok(())
}

/// Split `NAME=VALUE` / `Name: value` flags into an ordered map.
fn parse_pairs(
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

/// `base`, or `base-2`, `base-3` … whichever is free in every source, in
/// any case (see [`name::case_twin`]).
pub(super) fn unique_name(base: &str, in_file: &[String], elsewhere: &[String]) -> String {
    let taken = |candidate: &str| {
        in_file
            .iter()
            .chain(elsewhere)
            .any(|n| n.eq_ignore_ascii_case(candidate))
    };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| {
            let suffix = format!("-{n}");
            let keep = name::MAX_LEN - suffix.len();
            format!("{}{suffix}", &base[..base.len().min(keep)])
        })
        .find(|candidate| !taken(candidate))
        .expect("an unused suffix exists")
}

/// Launcher, pin and URL rules; `--force` lets a missing launcher through.
fn validate_for_save(def: &ServerDef, save: &Save) -> Vec<Finding> {
    validate::check_definition(def, save.policy)
        .into_iter()
        .map(|mut finding| {
            if save.force && finding.rule == Rule::Launcher {
                finding.severity = Severity::Warning;
                finding.hint = format!("{} (saved anyway because of --force)", finding.hint);
            }
            finding
        })
        .collect()
}

/// A rendered entry as `--dry-run` may print it: literal `env` and
/// `headers` values redacted and URL userinfo masked, as `list` shows them,
/// unless the operator asked to see secrets.
fn shown_entry(mut entry: serde_json::Value, show_secrets: bool) -> serde_json::Value {
    if let Some(obj) = entry.as_object_mut() {
        for (key, value) in obj.iter_mut() {
            match (key.as_str(), value) {
                ("env" | "headers", serde_json::Value::Object(map)) => {
                    for v in map.values_mut() {
                        if let Some(text) = v.as_str() {
                            *v = json!(output::shown_secret(text, show_secrets));
                        }
                    }
                }
                ("url", serde_json::Value::String(url)) => {
                    *url = output::shown_url(url, show_secrets);
                }
                _ => {}
            }
        }
    }
    entry
}
