//! The committed shell completions (`completions/`) and man pages (`man/`)
//! must match the command tree. Regenerate them with
//! `MCPCTL_UPDATE_GENERATED=1 cargo test --test generated_files`.

use std::path::{Path, PathBuf};

use clap_complete::Shell;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
    let command = mcpctl::cli::command();
    let mut pages = vec![(String::from("mcpctl"), command.clone())];
    for sub in command.get_subcommands() {
        pages.push((
            format!("mcpctl-{}", sub.get_name()),
            sub.clone().name(format!("mcpctl-{}", sub.get_name())),
        ));
    }
    for (name, cmd) in pages {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut out).unwrap();
        check(
            &root().join("man").join(format!("{name}.1")),
            &out,
            &mut stale,
        );
    }
    assert!(
        stale.is_empty(),
        "generated files are stale: {stale:?}\nrun: MCPCTL_UPDATE_GENERATED=1 cargo test --test generated_files"
    );
}
