//! The committed shell completions (`completions/`) and man pages (`man/`)
//! must match the command tree. Regenerate them with
//! `MCPCTL_UPDATE_GENERATED=1 cargo test --test generated_files`.

mod support;

use std::path::{Path, PathBuf};

use clap_complete::Shell;

mod man_pages;

fn root() -> PathBuf {
    support::checkout().to_path_buf()
}

/// Compare `content` with the committed file, or rewrite it when asked.
fn check(path: &Path, content: &[u8], stale: &mut Vec<String>) {
    if std::env::var_os("MCPCTL_UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        return;
    }
    if std::fs::read(path).ok().as_deref() != Some(content) {
        stale.push(path.strip_prefix(root()).unwrap().display().to_string());
    }
}

#[test]
fn completions_and_man_pages_are_current() {
    let mut stale = Vec::new();
    for (shell, file) in [
        (Shell::Bash, "mcpctl.bash"),
        (Shell::Zsh, "_mcpctl"),
        (Shell::Fish, "mcpctl.fish"),
        (Shell::Elvish, "mcpctl.elv"),
        (Shell::PowerShell, "_mcpctl.ps1"),
    ] {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut mcpctl::cli::command(), "mcpctl", &mut out);
        check(&root().join("completions").join(file), &out, &mut stale);
    }
    for (name, page) in man_pages::pages() {
        check(
            &root().join("man").join(format!("{name}.1")),
            &page,
            &mut stale,
        );
    }
    assert!(
        stale.is_empty(),
        "generated files are stale: {stale:?}\nrun: MCPCTL_UPDATE_GENERATED=1 cargo test --test generated_files"
    );
}

#[test]
fn man_pages_refer_only_to_pages_that_exist() {
    let pages: Vec<String> = man_pages::pages().into_iter().map(|(n, _)| n).collect();
    for (name, page) in man_pages::pages() {
        let text = String::from_utf8(page).unwrap();
        for word in text.split(|c: char| c.is_whitespace() || c == '\\') {
            let Some(start) = word.find("mcpctl") else {
                continue;
            };
            let Some(reference) = word[start..].strip_suffix("(1)") else {
                continue;
            };
            let reference = reference.trim_start_matches("fB").trim_end_matches("fR");
            assert!(
                pages.iter().any(|p| p == reference),
                "{name}.1 refers to {reference}(1), which is not generated"
            );
        }
        for section in ["EXIT STATUS", "ENVIRONMENT", "FILES"] {
            assert!(
                text.contains(&format!(".SH \"{section}\"\n"))
                    || text.contains(&format!(".SH {section}\n")),
                "{name}.1 has no {section}"
            );
        }
    }
}

#[test]
fn the_readme_tables_the_same_exit_codes_and_variables() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = |heading: &str| -> Vec<String> {
        let start = readme
            .find(&format!("\n## {heading}\n"))
            .unwrap_or_else(|| panic!("README has no `## {heading}`"));
        readme[start + 1..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("## "))
            .filter_map(|l| l.strip_prefix("| "))
            .filter_map(|l| l.split(" |").next())
            .map(|cell| cell.trim_matches('`').to_string())
            .filter(|cell| cell != "code" && cell != "variable" && !cell.starts_with("---"))
            .collect()
    };
    let codes: Vec<String> = man_pages::EXIT_STATUS
        .iter()
        .map(|(c, _)| c.to_string())
        .collect();
    assert_eq!(section("Exit codes"), codes);
    let vars: Vec<String> = man_pages::ENVIRONMENT
        .iter()
        .map(|(v, _)| v.to_string())
        .collect();
    assert_eq!(section("Environment"), vars);
}
