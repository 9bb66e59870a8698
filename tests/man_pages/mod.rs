//! The man pages committed under `man/`: clap_mangen's NAME, SYNOPSIS,
//! DESCRIPTION, OPTIONS and COMMANDS, plus the sections a reader of a man
//! page looks for and clap does not know: NOTES and EXAMPLES (from the long
//! help; examples are not filled, so they copy and paste, and no page is
//! justified or hyphenated), EXIT STATUS, ENVIRONMENT, FILES and SEE ALSO. A page is generated for `mcpctl` and
//! for each of its commands; nested commands (`supervisor run`) are listed
//! in their parent's page, which is the only page that names them.
//!
//! The exit codes and variables below are also tabled in the README;
//! `tests/generated_files.rs` keeps the two in step.

use roff::{Roff, bold, roman};

/// Every exit status mcpctl uses, with what it means.
pub const EXIT_STATUS: &[(u8, &str)] = &[
    (0, "success"),
    (
        1,
        "an operation or check failed (I/O error, unreachable registry, broken server)",
    ),
    (
        2,
        "usage error or invalid input (bad flag, malformed file, validation error, invalid name in a file, definition file others can change)",
    ),
    (3, "not found (server, file, launcher, registry entry)"),
    (
        4,
        "conflict (already exists, deprecated entry, a package whose ownership marker does not name the registry entry, busy, stale; drift from the lockfile under check --locked, lock --check, and a call to a held tool)",
    ),
    (5, "the supervisor cannot be reached"),
    (
        129,
        "stopped by SIGHUP (check, add and call --direct first stop every server they started)",
    ),
    (130, "interrupted (Ctrl-C, SIGINT; likewise)"),
    (143, "stopped by SIGTERM (likewise)"),
];

/// Every environment variable mcpctl reads, with what it does.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "MCPCTL_FILE",
        ":-separated definition files (when no --file)",
    ),
    (
        "MCPCTL_REQUIRE_PIN",
        "1/true/yes/on: add --require-pin by default (0/false/no/off: not; any other word is refused)",
    ),
    (
        "MCPCTL_INHERIT_ENV",
        "extra variable names (,/:-separated) that launched servers inherit",
    ),
    (
        "MCPCTL_STATE_DIR",
        "where the supervisor keeps its socket, lock, pid records and logs, and where file edits take their locks (locks/)",
    ),
    (
        "MCPCTL_NO_SPAWN",
        "1/true/yes/on: lifecycle verbs never start the supervisor (like --no-spawn)",
    ),
    (
        "MCPCTL_SERVE_IN_PROCESS",
        "1/true/yes/on: mcpctl serve serves from its own process instead of handing over to mcpctl-serve",
    ),
    (
        "MCPCTL_ALLOW_INSECURE_FILE",
        "1/true/yes/on: launch from a definition file others can change (like --allow-insecure-file)",
    ),
    (
        "MCPCTL_REGISTRY_URL",
        "registry base URL (default https://registry.modelcontextprotocol.io)",
    ),
    (
        "MCPCTL_NPM_REGISTRY",
        "npm registry lock, pin and add NAME ask for versions, dist.integrity and mcpName (else npm_config_registry, else .npmrc, else https://registry.npmjs.org)",
    ),
    (
        "npm_config_registry",
        "npm registry, as npm reads it (below MCPCTL_NPM_REGISTRY, above .npmrc)",
    ),
    (
        "MCPCTL_PYPI_URL",
        "PyPI base URL whose JSON API lock, pin and add NAME ask (else the simple index below, else https://pypi.org)",
    ),
    (
        "UV_DEFAULT_INDEX",
        "a simple index (PEP 691 JSON) lock and pin ask for versions, file hashes and yanked flags (credentials in it are masked)",
    ),
    ("UV_INDEX_URL", "the same, when UV_DEFAULT_INDEX is not set"),
    ("PIP_INDEX_URL", "the same, when neither uv variable is set"),
    (
        "MCPCTL_REGISTRY_TIMEOUT",
        "registry request timeout in seconds (default 15)",
    ),
    (
        "MCPCTL_CACHE_DIR",
        "cache directory (default ~/.cache/mcpctl)",
    ),
    (
        "MCPCTL_INPUT_<ID>",
        "the value of VS Code's ${input:ID} (ID upper-cased, other characters as _)",
    ),
    (
        "MCPCTL_TEST_NO_LANDLOCK",
        "test only: 1 makes mcpctl believe the kernel has no Landlock (sandboxed servers are refused)",
    ),
    (
        "MCPCTL_TEST_NO_USERNS",
        "test only: 1 makes mcpctl believe user namespaces are off",
    ),
    ("CI", "when set, mcpctl never prompts"),
    (
        "NO_COLOR",
        "any non-empty value: no colour under --color auto",
    ),
    (
        "CLICOLOR_FORCE",
        "non-zero: colour under --color auto even into a pipe",
    ),
];

/// The files mcpctl reads and writes, with what they hold.
const FILES: &[(&str, &str)] = &[
    (
        "~/.config/mcpctl/servers.json",
        "the default definitions file (the platform's config directory), used when neither --file nor MCPCTL_FILE is given",
    ),
    (
        "$MCPCTL_STATE_DIR, else $XDG_RUNTIME_DIR/mcpctl",
        "the supervisor's socket, lock, pid records and server logs, and the definition files' edit locks (locks/)",
    ),
    (
        "~/.cache/mcpctl",
        "the registry's response cache (MCPCTL_CACHE_DIR)",
    ),
];

/// Every page: its file name (without `.1`) and its roff text.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let top = mcpctl::cli::command();
    let mut pages = vec![("mcpctl".to_string(), page(&top, None))];
    for sub in top.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("mcpctl-{}", sub.get_name());
        let cmd = sub.clone().name(name.clone());
        pages.push((name, page(&cmd, Some(sub.get_name()))));
    }
    pages
}

/// One page. `verb` is `None` for `mcpctl(1)` itself.
fn page(cmd: &clap::Command, verb: Option<&str>) -> Vec<u8> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    let rendered = [
        man.render_title(&mut out),
        // Left-aligned and never hyphenated, so a flag is never split.
        Roff::default()
            .control("ad", ["l"])
            .control("nh", [])
            .to_writer(&mut out),
        man.render_name_section(&mut out),
        man.render_synopsis_section(&mut out),
        man.render_description_section(&mut out),
        man.render_options_section(&mut out),
    ];
    rendered
        .into_iter()
        .collect::<std::io::Result<()>>()
        .expect("writing to a Vec cannot fail");
    let mut roff = Roff::default();
    commands(&mut roff, cmd, verb);
    examples(&mut roff, cmd);
    table(
        &mut roff,
        "EXIT STATUS",
        EXIT_STATUS.iter().map(|(c, m)| (c.to_string(), *m)),
    );
    table(
        &mut roff,
        "ENVIRONMENT",
        ENVIRONMENT.iter().map(|(v, m)| (v.to_string(), *m)),
    );
    table(
        &mut roff,
        "FILES",
        FILES.iter().map(|(f, m)| (f.to_string(), *m)),
    );
    see_also(&mut roff, verb);
    roff.control("SH", ["VERSION"]);
    roff.text([roman(format!("v{}", env!("CARGO_PKG_VERSION")))]);
    roff.to_writer(&mut out)
        .expect("writing to a Vec cannot fail");
    out
}

/// COMMANDS: for `mcpctl(1)`, each command's page; for a command's page,
/// its subcommands as typed (they have no page of their own).
fn commands(roff: &mut Roff, cmd: &clap::Command, verb: Option<&str>) {
    let subs: Vec<&clap::Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if subs.is_empty() {
        return;
    }
    roff.control("SH", ["COMMANDS"]);
    for sub in subs {
        roff.control("TP", []);
        let name = match verb {
            None => format!("mcpctl-{}(1)", sub.get_name()),
            Some(verb) => format!("mcpctl {verb} {}", sub.get_name()),
        };
        roff.text([bold(name)]);
        if let Some(about) = sub.get_about() {
            roff.text([roman(about.to_string())]);
        }
    }
}

/// NOTES and EXAMPLES: the command's long help after its options, the
/// prose filled as paragraphs and the examples block line for line.
fn examples(roff: &mut Roff, cmd: &clap::Command) {
    let Some(help) = cmd.get_after_long_help().or_else(|| cmd.get_after_help()) else {
        return;
    };
    let text = format!("\n{help}");
    let (notes, body) = match text.split_once("\nExamples:\n") {
        Some((notes, body)) => (notes.trim(), Some(body)),
        None => (text.trim(), None),
    };
    if !notes.is_empty() {
        roff.control("SH", ["NOTES"]);
        for paragraph in notes.split("\n\n") {
            roff.control("PP", []);
            roff.text([roman(paragraph.replace('\n', " "))]);
        }
    }
    let Some(body) = body else {
        return;
    };
    roff.control("SH", ["EXAMPLES"]);
    // Not filled: what is shown is what a reader copies.
    roff.control("nf", []);
    for line in body.lines() {
        roff.text([roman(line.strip_prefix("  ").unwrap_or(line))]);
    }
    roff.control("fi", []);
}

/// A section of tagged paragraphs: a term in bold, then what it means.
fn table<'a>(roff: &mut Roff, heading: &str, rows: impl Iterator<Item = (String, &'a str)>) {
    roff.control("SH", [heading]);
    for (term, meaning) in rows {
        roff.control("TP", []);
        roff.text([bold(term)]);
        roff.text([roman(meaning)]);
    }
}

/// SEE ALSO: only pages that exist (`mcpctl(1)` from a command's page).
fn see_also(roff: &mut Roff, verb: Option<&str>) {
    if verb.is_some() {
        roff.control("SH", ["SEE ALSO"]);
        roff.text([bold("mcpctl"), roman("(1)")]);
    }
}
