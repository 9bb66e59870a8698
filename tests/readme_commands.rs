//! Docs that cannot drift: every `mcpctl …` command line in the README's
//! shell blocks and in each command's `--help` examples must parse with
//! today's flags, so a renamed or removed flag fails CI instead of a reader.

mod support;

use clap::Parser;
use mcpctl::cli::Cli;

/// The command lines that start with `mcpctl` in `text`'s shell blocks
/// (```sh, ```bash, and the `$ ` lines of ```console), prompts removed and
/// `\` continuations joined.
fn readme_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut console = false;
    let mut pending = String::new();
    for line in text.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            in_block = !in_block && matches!(lang.trim(), "sh" | "console" | "bash");
            console = lang.trim() == "console";
            continue;
        }
        if !in_block {
            continue;
        }
        // In a transcript only `$ ` lines are commands; the rest is output
        // (which may start with `mcpctl`, as a `clients` table does).
        let line = match line.trim().strip_prefix("$ ") {
            Some(command) => command,
            None if console && pending.is_empty() => continue,
            None => line.trim(),
        };
        if pending.is_empty() && !line.starts_with("mcpctl ") {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(start) => pending.push_str(start),
            None => {
                pending.push_str(line);
                out.push(std::mem::take(&mut pending));
            }
        }
    }
    out
}

/// The `mcpctl …` lines of every command's examples block.
fn help_commands() -> Vec<String> {
    let mut out = Vec::new();
    let top = mcpctl::cli::command();
    let mut commands = vec![top.clone()];
    commands.extend(top.get_subcommands().cloned());
    for cmd in commands {
        if let Some(help) = cmd.get_after_long_help() {
            out.extend(
                help.to_string()
                    .lines()
                    .map(str::trim)
                    .filter(|l| l.starts_with("mcpctl "))
                    .map(str::to_string),
            );
        }
    }
    out
}

/// Parse `line` as a shell would split it, up to a pipe or redirection.
fn parses(line: &str) -> Result<(), String> {
    let words = shlex::split(line).ok_or("unbalanced quotes")?;
    let words: Vec<String> = words
        .into_iter()
        .take_while(|w| !matches!(w.as_str(), "|" | ">" | ">>" | "&&" | "||" | ";"))
        .collect();
    Cli::try_parse_from(&words)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn every_documented_command_line_parses() {
    let readme = std::fs::read_to_string(support::checkout().join("README.md")).expect("README.md");
    let from_readme = readme_commands(&readme);
    let from_help = help_commands();
    assert!(from_readme.len() >= 20, "{from_readme:?}");
    assert!(from_help.len() >= 30, "{from_help:?}");
    let broken: Vec<String> = from_readme
        .iter()
        .chain(&from_help)
        .filter_map(|line| parses(line).err().map(|e| format!("{line}\n  {e}")))
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn a_removed_flag_is_caught() {
    assert!(parses("mcpctl list --no-such-flag").is_err());
    assert!(parses("mcpctl check time --json | jq .").is_ok());
}
