//! Docs that cannot drift (issue 9, item 9): the README's transcripts run
//! as tests, in the way `trycmd` runs cargo's and clap's docs. A ```console
//! block right after a `<!-- transcript -->` line is a session: each `$ `
//! line is run with the real binary and what it prints (stdout, then
//! stderr) must match the lines below it, so a changed tool count, message
//! or flag fails CI. The blocks of the README share one scratch home, in
//! order, as a reader would type them; its path is shown as `/home/op`,
//! and the registry they search is the loopback one of the registry tests,
//! serving real `server.json` documents.
//!
//! In an expected line `[..]` stands for any text (a pid, a time), and a
//! line `...` for any number of lines. A command ending in `# exit N` must
//! exit N; any other must exit 0.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::World;

/// The path a transcript's home is shown as.
const SHOWN_HOME: &str = "/home/op";

/// One `$ ` command of a transcript and what it must print.
struct Step {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The transcripts of `text`, each a list of steps.
fn transcripts(text: &str) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut marked = false;
    while let Some((_, line)) = lines.next() {
        if line.trim() == "<!-- transcript -->" {
            marked = true;
            continue;
        }
        if !(marked && line.trim() == "```console") {
            marked = false;
            continue;
        }
        marked = false;
        let mut steps: Vec<Step> = Vec::new();
        for (index, line) in lines.by_ref() {
            if line.trim() == "```" {
                break;
            }
            match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step {
                    line: index + 1,
                    command: command.to_string(),
                    expected: Vec::new(),
                }),
                None => steps
                    .last_mut()
                    .expect("a transcript starts with a `$ ` line")
                    .expected
                    .push(line.to_string()),
            }
        }
        out.push(steps);
    }
    out
}

/// True when `actual` matches `expected`, with `[..]` and `...` wildcards.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && lines_match(rest, more)),
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("[..]");
    let head = parts.next().unwrap_or_default();
    let Some(mut rest) = actual.strip_prefix(head) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// The scratch home every transcript runs in, with the pinned real servers
/// of `.peers/` first on PATH.
struct Home {
    world: World,
    path: std::ffi::OsString,
    registry: support::TestRegistry,
}

impl Home {
    fn new() -> Home {
        let path = std::env::join_paths(support::peer_dirs().into_iter().chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("PATH entries join");
        Home {
            world: World::new().state_at(".local/state/mcpctl"),
            path,
            registry: support::TestRegistry::start(),
        }
    }

    fn root(&self) -> &Path {
        self.world.dir.path()
    }

    /// Run one transcript line; its output with the home shown as `/home/op`.
    fn run(&self, command: &str) -> (Option<i32>, Vec<String>) {
        let words = shlex::split(command).expect("a transcript line splits like a shell's");
        assert_eq!(words[0], "mcpctl", "transcripts run mcpctl only: {command}");
        let out = Command::new(env!("CARGO_BIN_EXE_mcpctl"))
            .args(&words[1..])
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.root())
            .env("XDG_CONFIG_HOME", self.root().join(".config"))
            .env("XDG_CACHE_HOME", self.root().join(".cache"))
            .env("MCPCTL_STATE_DIR", self.world.state())
            .env("MCPCTL_REGISTRY_URL", &self.registry.url)
            // uv's own TLS roots lack this machine's proxy CA (as in the
            // other uvx tests); the server gets the setting through mcpctl.
            .env("UV_SYSTEM_CERTS", "1")
            .env("MCPCTL_INHERIT_ENV", "UV_SYSTEM_CERTS")
            .current_dir(self.root())
            .stdin(Stdio::null())
            .output()
            .expect("run mcpctl");
        let root = self.root().to_string_lossy().into_owned();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
        .replace(&root, SHOWN_HOME);
        (
            out.status.code(),
            text.lines().map(str::to_string).collect(),
        )
    }
}

fn readme() -> (PathBuf, String) {
    let path = support::checkout().join("README.md");
    let text = std::fs::read_to_string(&path).expect("README.md");
    (path, text)
}

#[test]
fn the_readme_transcripts_print_what_they_show() {
    support::require("uvx", "run `bash tests/run.sh`, which installs uv");
    let (path, text) = readme();
    let all = transcripts(&text);
    assert!(all.len() >= 3, "the README lost its transcripts");
    let home = Home::new();
    for step in all.iter().flatten() {
        let (command, code) = match step.command.split_once(" # exit ") {
            Some((command, code)) => (command, code.trim().parse::<i32>().expect("# exit N")),
            None => (step.command.as_str(), 0),
        };
        let (status, actual) = home.run(command);
        assert!(
            status == Some(code) && lines_match(&step.expected, &actual),
            "{}:{}: `{command}` exited {status:?} (want {code}) and printed:\n{}\n--- the README shows:\n{}",
            path.display(),
            step.line,
            actual.join("\n"),
            step.expected.join("\n")
        );
    }
}

#[test]
fn wildcards_match_what_they_stand_for_and_nothing_else() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(line_matches("pid [..] up", "pid 4242 up"));
    assert!(!line_matches("pid [..] up", "pid 4242 down"));
    assert!(line_matches("[..]", "anything"));
    assert!(!line_matches("exact", "exact but longer"));
    assert!(lines_match(&lines("a\n...\nz"), &lines("a\nb\nc\nz")));
    assert!(lines_match(&lines("a\n...\nz"), &lines("a\nz")));
    assert!(!lines_match(&lines("a\nz"), &lines("a\nb\nz")));
    assert!(!lines_match(&lines("a"), &lines("a\nextra")));
}
