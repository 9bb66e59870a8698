//! A command line clap refused, told in mcpctl's shape: `error: …`, then
//! `hint: …` for each of clap's suggestions (clap says `tip:`), then clap's
//! usage line; every other mcpctl error reads `error:`/`hint:` too.
//!
//! The suggestions are read from the error's context (clap's public API)
//! and taken out before clap renders the rest, so nothing of clap's wording
//! is matched; the message and hints go through the one sanitizer, as they
//! quote what was typed.

use std::io::Write;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::error::ExitCode;
use crate::output;

/// The hint of a `--json` refusal when clap suggested nothing.
const GENERIC_HINT: &str = "run `mcpctl --help` or `mcpctl COMMAND --help`";

/// Print `err` (help and version as clap prints them, on stdout) and
/// return the exit code; under `json`, a refusal is also answered as JSON.
/// `cmd` is the command line's definition, to name the variable behind a
/// refused value.
pub(super) fn report(mut err: clap::Error, cmd: &clap::Command, json: bool) -> ExitCode {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return ExitCode::Success;
    }
    let mut hints = take_suggestions(&mut err);
    hints.extend(from_environment(&err, cmd));
    let rendered = err.render().to_string();
    let Some(text) = rendered.strip_prefix("error: ") else {
        // Not an error as clap words them: print it as clap would.
        let _ = err.print();
        return ExitCode::Usage;
    };
    // clap's message is one paragraph; usage and `--help` follow after a
    // blank line.
    let (message, rest) = text.split_once("\n\n").unwrap_or((text, ""));
    let message = message.trim_end();
    let hint = (!hints.is_empty()).then(|| hints.join("\nhint: "));
    output::error(message, hint.as_deref());
    if !rest.is_empty() {
        let _ = write!(
            std::io::stderr().lock(),
            "\n{}",
            output::sanitize_block(rest)
        );
    }
    let code = ExitCode::Usage;
    if json {
        let first = message.lines().next().unwrap_or("invalid command line");
        let _ = output::print_json_error(&output::JsonError {
            code: code.name(),
            message: first,
            hint: Some(hint.as_deref().unwrap_or(GENERIC_HINT)),
            exit_code: code.code(),
            also: &[],
        });
    }
    code
}

/// Take clap's suggestions out of `err`, each as a hint's text.
fn take_suggestions(err: &mut clap::Error) -> Vec<String> {
    let mut hints = Vec::new();
    for (kind, what) in [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ] {
        if let Some(similar) = err.remove(kind).and_then(|v| similar_to(&v, what)) {
            hints.push(similar);
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = err.remove(ContextKind::Suggested) {
        hints.extend(tips.iter().map(ToString::to_string));
    }
    hints
}

/// For a value refused that came from the environment (a flag such as
/// `--require-pin` backed by `MCPCTL_REQUIRE_PIN`), which variable to fix:
/// clap names only the flag.
fn from_environment(err: &clap::Error, cmd: &clap::Command) -> Option<String> {
    if !matches!(
        err.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return None;
    }
    let Some(ContextValue::String(flag)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let long = flag.strip_prefix("--")?.split([' ', '=']).next()?;
    let arg = all_args(cmd).find(|arg| arg.get_long() == Some(long))?;
    let var = arg.get_env()?;
    std::env::var_os(var)?;
    let var = var.to_string_lossy();
    Some(match arg.get_action() {
        clap::ArgAction::SetTrue => format!(
            "the value comes from {var}, which takes 1/0, true/false, yes/no or on/off; set it to one of those, or unset it"
        ),
        _ => format!("the value comes from {var}; fix it, or unset it"),
    })
}

/// Every argument of `cmd` and of its subcommands, at any depth.
fn all_args(cmd: &clap::Command) -> Box<dyn Iterator<Item = &clap::Arg> + '_> {
    Box::new(
        cmd.get_arguments()
            .chain(cmd.get_subcommands().flat_map(all_args)),
    )
}

/// "a similar subcommand exists: 'check'", as clap words it.
fn similar_to(value: &ContextValue, what: &str) -> Option<String> {
    let quoted = |names: &[String]| {
        names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match value {
        ContextValue::String(one) => Some(format!("a similar {what} exists: '{one}'")),
        ContextValue::Strings(one) if one.len() == 1 => {
            Some(format!("a similar {what} exists: {}", quoted(one)))
        }
        ContextValue::Strings(many) if !many.is_empty() => {
            Some(format!("some similar {what}s exist: {}", quoted(many)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(subcommand)]
        verb: Verb,
    }

    #[derive(Debug, clap::Subcommand)]
    enum Verb {
        Check {
            #[arg(long)]
            locked: bool,
        },
    }

    fn refused(args: &[&str]) -> clap::Error {
        Cli::try_parse_from(args).unwrap_err()
    }

    #[test]
    fn suggestions_become_hints_and_leave_the_rest() {
        let mut err = refused(&["t", "chekc"]);
        let hints = take_suggestions(&mut err);
        assert_eq!(hints, ["a similar subcommand exists: 'check'"]);
        let rest = err.render().to_string();
        assert!(!rest.contains("tip:"), "{rest}");
        assert!(
            rest.starts_with("error: unrecognized subcommand 'chekc'\n\nUsage:"),
            "{rest}"
        );

        let mut err = refused(&["t", "check", "--lockd"]);
        assert_eq!(
            take_suggestions(&mut err),
            ["a similar argument exists: '--locked'"]
        );

        let mut err = refused(&["t", "check", "-x"]);
        let hints = take_suggestions(&mut err);
        assert!(hints.iter().all(|h| !h.contains("tip")), "{hints:?}");
    }
}
