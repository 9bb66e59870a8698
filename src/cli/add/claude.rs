//! Claude Code's syntax for `add` (`add NAME -- CMD ARGS…`, `add NAME CMD
//! ARGS…`, `add -t http NAME URL`, `add NAME --url URL`), rewritten into
//! mcpctl's own flags before anything else reads them.

use super::args::{Args, RemoteTransport};
use crate::error::{Result, UsageError};

/// Claude Code's forms rewritten into mcpctl's own flags: NAME becomes
/// `--name` whenever a command or URL comes with it, and only a bare NAME
/// stays a registry lookup.
pub(super) fn claude_form(mut args: Args) -> Result<Args> {
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
    refuse_registry_flags(&args, &name)?;
    args.registry_name = None;
    args.name = Some(name);
    let positional = args.command_or_url.take();
    let rest = std::mem::take(&mut args.positional_args);
    if let Some(first) = positional {
        place_command_or_url(&mut args, first, rest)?;
    } else if args.command.is_none() && args.url.is_none() {
        // `add NAME -- CMD ARGS…`: the command is the first word after --.
        let mut words = std::mem::take(&mut args.trailing).into_iter();
        args.command = words.next();
        args.trailing = words.collect();
    }
    without_stray_arguments(args)
}

/// The registry's own flags make no sense once NAME is followed by a
/// command or URL.
fn refuse_registry_flags(args: &Args, name: &str) -> Result<()> {
    let registry_only = [
        (args.package.is_some(), "--package"),
        (args.remote.is_some(), "--remote"),
        (args.as_remote, "--as-remote"),
        (!args.registry_args.is_empty(), "--arg"),
        (args.allow_deprecated, "--allow-deprecated"),
        (args.store_secret, "--store-secret"),
        (args.trust_runtime_args, "--trust-runtime-args"),
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
    Ok(())
}

/// `add NAME FIRST REST…`: FIRST is the URL (an http(s) URL, or any word
/// with `-t http|sse`) or else the command, REST its arguments.
fn place_command_or_url(args: &mut Args, first: String, mut rest: Vec<String>) -> Result<()> {
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
    Ok(())
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
