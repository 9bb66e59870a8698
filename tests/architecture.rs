//! ARCHITECTURE.md stays true: every path it names exists, and every
//! top-level module declared in `src/lib.rs` is named in it.

mod support;

use support::checkout as root;

fn architecture() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

/// Backticked spans that look like repository paths (`src/…`, `docs/…`, …).
fn named_paths(text: &str) -> Vec<String> {
    const ROOTS: &[&str] = &[
        "src/",
        "tests/",
        "docs/",
        "examples/",
        "man/",
        "completions/",
        "benches/",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| ROOTS.iter().any(|r| span.starts_with(r)))
        .filter(|span| !span.contains(' ') && !span.contains("VERB"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_path_architecture_names_exists() {
    let text = architecture();
    let paths = named_paths(&text);
    assert!(paths.len() > 20, "too few paths found: {paths:?}");
    let missing: Vec<_> = paths.iter().filter(|p| !root().join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn every_top_level_module_is_named() {
    let text = architecture();
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .collect();
    assert!(modules.len() > 10, "no modules read from src/lib.rs");
    let unnamed: Vec<_> = modules
        .iter()
        .filter(|m| {
            let dir = format!("`src/{m}/`");
            let file = format!("`src/{m}.rs`");
            !text.contains(&dir) && !text.contains(&file)
        })
        .collect();
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md does not name: {unnamed:?}"
    );
}
