//! `mcpctl search TERM`: find servers in the official MCP Registry and
//! show how each can be installed.

use std::time::Duration;

use serde_json::json;

use super::Context;
use crate::error::{ExitCode, Result};
use crate::output;
use crate::registry::install::{install_form, remote_form};
use crate::registry::{ClientOptions, RegistryClient, SearchOutcome, ServerEntry};

const EXAMPLES: &str = "\
Examples:
  mcpctl search filesystem
  mcpctl search github --limit 5
  mcpctl search io.github.modelcontextprotocol --all --include-deprecated
  mcpctl search weather --json | jq -r '.servers[].name'
  # then install one by its exact name:
  mcpctl add io.github.modelcontextprotocol/server-everything --package npm:stdio";

/// The long help of `mcpctl search`.
pub(super) const LONG_ABOUT: &str = "\
Search the official MCP Registry by name (a case-insensitive substring) and
show, for each match, its name, title, version, status, description and the
ways it can be installed: npm:@scope/pkg@1.2.3, pypi:pkg==1.0, oci:image:tag,
or remote: streamable-http https://….

Deprecated and deleted entries are hidden unless --include-deprecated.
Answers are cached for 5 minutes (--refresh bypasses the cache). The
registry is https://registry.modelcontextprotocol.io unless --registry or
MCPCTL_REGISTRY_URL says otherwise.";

/// Arguments of `mcpctl search`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Part of the server name to look for.
    #[arg(value_name = "TERM")]
    pub term: String,
    /// Show at most N results.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,
    /// Follow every page and show all results.
    #[arg(long, conflicts_with = "limit")]
    pub all: bool,
    /// Also show deprecated and deleted entries.
    #[arg(long)]
    pub include_deprecated: bool,
    /// Ask the registry again instead of using cached answers.
    #[arg(long)]
    pub refresh: bool,
    /// Registry base URL.
    #[arg(long, value_name = "URL", env = "MCPCTL_REGISTRY_URL")]
    pub registry: Option<String>,
}

/// Search and print the results.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let client = RegistryClient::new(ClientOptions::from_env(args.registry.clone(), args.refresh))?;
    let limit = (!args.all).then_some(args.limit as usize);
    let spinner = spinner();
    let runtime = super::runtime()?;
    let result =
        runtime.block_on(
            client.search(&args.term, limit, args.include_deprecated, &mut |found| {
                if let Some(bar) = &spinner {
                    bar.set_message(format!("{found} found"));
                }
            }),
        );
    if let Some(bar) = &spinner {
        bar.finish_and_clear();
    }
    let outcome = result?;
    for warning in &outcome.warnings {
        output::warn(warning, None);
    }
    if ctx.json {
        print_json(&client, &args, &outcome)?;
    } else {
        print_text(&args, &outcome)?;
    }
    Ok(ExitCode::Success)
}

fn spinner() -> Option<indicatif::ProgressBar> {
    if output::quiet() || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message("searching the registry");
    bar.enable_steady_tick(Duration::from_millis(100));
    Some(bar)
}

/// The install forms of an entry, as shown and in `--json`.
fn install_forms(entry: &ServerEntry) -> Vec<String> {
    let server = &entry.server;
    let mut forms: Vec<String> = server
        .packages
        .iter()
        .map(|p| {
            let form = install_form(p, None);
            if !matches!(p.registry_type.as_str(), "npm" | "pypi" | "oci") {
                return format!("{form} (mcpctl cannot install this kind)");
            }
            match p.transport_type() {
                "stdio" => form,
                other => format!("{form} ({other})"),
            }
        })
        .collect();
    forms.extend(server.remotes.iter().map(remote_form));
    forms.dedup();
    forms
}

fn print_json(client: &RegistryClient, args: &Args, outcome: &SearchOutcome) -> Result<()> {
    let servers: Vec<_> = outcome
        .servers
        .iter()
        .map(|entry| {
            json!({
                "name": entry.server.name,
                "title": entry.server.title,
                "version": entry.server.version,
                "status": entry.status().as_str(),
                "description": entry.server.description,
                "install": install_forms(entry),
                "packages": entry.server.packages,
                "remotes": entry.server.remotes,
            })
        })
        .collect();
    output::print_json(&json!({
        "schema_version": 1,
        "registry": client.base_url(),
        "term": args.term,
        "servers": servers,
        "hidden": outcome.hidden,
        "more": outcome.more,
        "warnings": outcome.warnings,
    }))?;
    Ok(())
}

fn print_text(args: &Args, outcome: &SearchOutcome) -> Result<()> {
    if outcome.servers.is_empty() {
        let mut message = format!("no registry entries match `{}`", args.term);
        if outcome.hidden > 0 {
            message.push_str(&format!(
                " ({} deprecated or deleted hidden; add --include-deprecated)",
                outcome.hidden
            ));
        } else {
            message.push_str("; try a shorter part of the name");
        }
        output::note(message);
        return Ok(());
    }
    let width = terminal_width();
    let mut text = String::new();
    for (i, entry) in outcome.servers.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        let server = &entry.server;
        let mut head = format!(
            "{}  {}  {}",
            output::sanitize(&server.name),
            output::sanitize(&server.version),
            entry.status().as_str()
        );
        if let Some(title) = server.title.as_deref().filter(|t| !t.trim().is_empty()) {
            head.push_str(&format!("  \"{}\"", one_line(title)));
        }
        text.push_str(&head);
        text.push('\n');
        if !server.description.trim().is_empty() {
            text.push_str(&crate::text::truncate(
                &format!("  {}", one_line(&server.description)),
                width,
            ));
            text.push('\n');
        }
        let forms = install_forms(entry);
        if forms.is_empty() {
            text.push_str("  (no package or remote mcpctl can install)\n");
        }
        for form in forms {
            text.push_str(&format!("  {}\n", output::sanitize(&form)));
        }
    }
    output::line(text.trim_end())?;
    let mut footer = format!(
        "{} result{}",
        outcome.servers.len(),
        if outcome.servers.len() == 1 { "" } else { "s" }
    );
    if outcome.hidden > 0 {
        footer.push_str(&format!(
            "; {} deprecated or deleted hidden (--include-deprecated shows them)",
            outcome.hidden
        ));
    }
    if outcome.more {
        footer.push_str(&format!(
            "; more match: --limit {} or --all",
            args.limit.saturating_mul(2)
        ));
    }
    output::note(footer);
    output::note(format!(
        "install one by its exact name, e.g. `mcpctl add {}`",
        output::sanitize(&outcome.servers[0].server.name)
    ));
    Ok(())
}

/// `text` on one line, whitespace runs collapsed and controls escaped (so
/// the width [`cut`] measures is the width printed).
fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    output::sanitize(&joined).into_owned()
}

/// The width to cut descriptions at: the terminal's, else `COLUMNS`, else 100.
fn terminal_width() -> usize {
    if let Some((_, cols)) = console::Term::stdout().size_checked() {
        return cols as usize;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|c| *c >= 20)
        .unwrap_or(100)
}
