//! Everything a command prints: tables, `--json`, warnings, redaction.
//!
//! Human output goes to stdout, diagnostics (`warning:`, `error:`, `hint:`)
//! and progress to stderr, so `--json` output can always be piped to `jq`.
//!
//! Every human-readable printer here passes its text through [`sanitize`] or
//! [`sanitize_block`], so text that came from outside (servers, registries,
//! definition files) can never move the cursor, clear the screen, set the
//! window title or plant a hyperlink. `--json` is written exactly: JSON
//! escaping already covers control characters there.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::defs::vars;
use crate::defs::{Launch, ServerDef};
use crate::error::UsageError;
use crate::validate::{Finding, Severity};

/// The terminal sanitizer lives in the bottom floor ([`crate::text`]) so the
/// layers under this one can escape what they print too; it is named here
/// as well because every printer of this module passes its text through it.
pub use crate::text::{is_invisible, sanitize, sanitize_ascii, sanitize_block, sanitize_invisible};

/// What literal secret values are replaced with in output.
pub const REDACTED: &str = "<redacted>";

/// The version of every `--json` document's shape (its `schema_version`
/// key); raised only when a key is removed or changes meaning, so scripts
/// can refuse a shape they do not know. The schemas are in `docs/json/`.
pub const SCHEMA_VERSION: u64 = 1;

/// Print `value` as pretty JSON on stdout, as one `--json` document: an
/// object gets `schema_version` as its first key, so no verb can forget it.
pub fn print_json(value: &impl Serialize) -> Result<(), UsageError> {
    let doc = versioned(value)?;
    // Buffered: stdout is line-buffered, and a pretty document of a big
    // catalog is a million lines (a write each took `check --json` 16 s).
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Print `value`, which carries `schema_version` as its first field
/// itself, as pretty JSON on stdout, serialised straight to the output
/// without an intermediate document (for big documents: `tools --json`).
pub fn print_json_streamed(value: &impl Serialize) -> Result<(), UsageError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Print `value` as one compact line of JSON on stdout and flush it, for
/// streams a script reads line by line (`logs -f --json`); objects carry
/// `schema_version` like [`print_json`] documents.
pub fn print_json_line(value: &impl Serialize) -> Result<(), UsageError> {
    let doc = versioned(value)?;
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, &doc).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// `value` as JSON, with `schema_version` first when it is an object.
fn versioned(value: &impl Serialize) -> Result<Value, UsageError> {
    let value = serde_json::to_value(value).map_err(std::io::Error::from)?;
    Ok(match value {
        Value::Object(fields) if !fields.contains_key("schema_version") => {
            let mut doc = Map::with_capacity(fields.len() + 1);
            doc.insert("schema_version".into(), json!(SCHEMA_VERSION));
            doc.extend(fields);
            Value::Object(doc)
        }
        other => other,
    })
}

/// A failed command's error, as its `--json` document carries it.
#[derive(Debug, Serialize)]
pub struct JsonError<'a> {
    /// The exit code's stable name (`usage`, `not_found`, …).
    pub code: &'a str,
    /// What went wrong.
    pub message: &'a str,
    /// What to do next.
    pub hint: Option<&'a str>,
    /// The numeric exit status.
    pub exit_code: u8,
    /// Further errors found with this one, each with its own hint; left
    /// out when there are none.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub also: &'a [crate::error::Also],
}

/// The `--json` document for a failed command, printed on stdout besides
/// the `error:` lines on stderr, so a script that parses stdout always gets
/// JSON: `{"schema_version":1,"error":{"code","message","hint","exit_code"}}`
/// (and `also`, the further errors, when there are some).
pub fn print_json_error(error: &JsonError) -> Result<(), UsageError> {
    print_json(&json!({ "error": error }))
}

/// `-q/--quiet`: notes and progress are not printed (errors still are).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Silence notes and progress for the rest of the process (`-q/--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

/// True under `-q/--quiet`: callers skip progress bars and spinners.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// When to colour output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it.
    #[default]
    Auto,
    /// Always colour, even into a pipe or file.
    Always,
    /// Never colour.
    Never,
}

/// Decide colour for stdout and stderr once, from `--color`, NO_COLOR
/// (any non-empty value turns colour off), CLICOLOR_FORCE (non-zero turns
/// it on) and whether each stream is a terminal; every styled string (the
/// `error:`/`warning:` prefixes, progress bars) follows the decision.
pub fn set_color(choice: ColorChoice) {
    let set = |value: &str| std::env::var(value).ok().filter(|v| !v.is_empty());
    let decide = |terminal: bool| match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR").is_some() => false,
        ColorChoice::Auto if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
        ColorChoice::Auto => terminal && set("CLICOLOR").is_none_or(|v| v != "0"),
    };
    console::set_colors_enabled(decide(std::io::stdout().is_terminal()));
    console::set_colors_enabled_stderr(decide(std::io::stderr().is_terminal()));
}

/// `label` styled for stderr (bold, in `color`) when colour is on there.
fn prefix(label: &str, color: console::Color) -> console::StyledObject<&str> {
    console::style(label).fg(color).bold().for_stderr()
}

/// Print a line (or a block of lines) of human output on stdout, with
/// every control character but newline and tab made visible.
pub fn line(text: impl AsRef<str>) -> Result<(), UsageError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", sanitize_block(text.as_ref()))?;
    Ok(())
}

/// Print a note, a progress word or a message on stderr, sanitized like
/// [`line`]. Write errors are ignored: stderr is where they would go.
pub fn note(text: impl AsRef<str>) {
    if quiet() {
        return;
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", sanitize_block(text.as_ref()));
}

/// Print `error: …` and its `hint: …` on stderr, sanitized: error messages
/// quote servers, registries and files.
pub fn error(message: &str, hint: Option<&str>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "{} {}",
        prefix("error:", console::Color::Red),
        sanitize_block(message)
    );
    if let Some(hint) = hint {
        let _ = writeln!(
            err,
            "{} {}",
            prefix("hint:", console::Color::Cyan),
            sanitize_block(hint)
        );
    }
}

/// True when stdout is a terminal (colour, widths, progress decisions).
pub fn stdout_is_tty() -> bool {
    std::io::stdout().is_terminal()
}

/// True when mcpctl may ask questions: stdin and stderr are terminals and
/// `CI` is not set. Scripts never see a prompt.
pub fn interactive() -> bool {
    std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
}

/// Print a warning and its hint on stderr.
pub fn warn(message: &str, hint: Option<&str>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "{} {}",
        prefix("warning:", console::Color::Yellow),
        sanitize_block(message)
    );
    if let Some(hint) = hint {
        let _ = writeln!(
            err,
            "  {} {}",
            prefix("hint:", console::Color::Cyan),
            sanitize_block(hint)
        );
    }
}

/// Print the warnings among `findings` on stderr.
pub fn warn_findings(findings: &[Finding]) {
    for finding in findings.iter().filter(|f| f.severity == Severity::Warning) {
        warn(&finding.message, Some(&finding.hint));
    }
}

/// A value as it may be shown: `${VAR}` references as written, literal
/// text (and reference defaults) redacted unless the operator asked to see
/// secrets.
pub fn shown_secret(value: &str, show_secrets: bool) -> String {
    if show_secrets {
        value.to_string()
    } else {
        vars::redacted(value, REDACTED)
    }
}

/// A URL as it may be shown: its userinfo (`user:password@`) masked unless
/// the operator asked to see secrets.
pub fn shown_url(url: &str, show_secrets: bool) -> String {
    if show_secrets {
        url.to_string()
    } else {
        crate::text::mask_userinfo(url)
    }
}

/// A copy of `def` as it may be shown: literal env and header values
/// redacted and URL userinfo masked (see [`shown_secret`], [`shown_url`]),
/// unless the operator asked to see secrets.
pub fn shown_def(def: &ServerDef, show_secrets: bool) -> ServerDef {
    let mut shown = def.clone();
    let hide = |map: &mut indexmap::IndexMap<String, String>| {
        map.values_mut()
            .for_each(|v| *v = shown_secret(v, show_secrets));
    };
    match &mut shown.launch {
        Launch::Stdio { env, .. } => hide(env),
        Launch::Remote {
            url,
            headers,
            process,
            ..
        } => {
            *url = shown_url(url, show_secrets);
            hide(headers);
            if let Some(process) = process {
                hide(&mut process.env);
            }
        }
    }
    shown
}

/// The stable `--json` form of a definition (documented in the README).
pub fn server_json(def: &ServerDef, show_secrets: bool) -> Value {
    let mut obj = Map::new();
    obj.insert("name".into(), json!(def.name));
    obj.insert("transport".into(), json!(def.transport.as_str()));
    obj.insert("target".into(), json!(def.target()));
    obj.insert("enabled".into(), json!(def.enabled));
    obj.insert("autostart".into(), json!(def.autostart));
    obj.insert("label".into(), json!(def.label));
    let shown = shown_def(def, show_secrets);
    if let Some(process) = shown.process() {
        obj.insert("command".into(), json!(process.command));
        obj.insert("args".into(), json!(process.args));
        obj.insert("env".into(), json!(process.env));
        obj.insert("cwd".into(), json!(process.cwd));
        obj.insert("env_file".into(), json!(def.env_file));
        if let Some(sandbox) = crate::defs::sandbox_kind::effective_json(def) {
            obj.insert("sandbox".into(), sandbox);
        }
    }
    if let Launch::Remote { url, headers, .. } = &shown.launch {
        obj.insert("url".into(), json!(url));
        obj.insert("headers".into(), json!(headers));
    }
    obj.insert(
        "connect_timeout".into(),
        json!(def.connect_timeout.map(|d| d.as_secs_f64())),
    );
    obj.insert("protocol".into(), json!(def.protocol));
    obj.insert("restart".into(), json!(def.restart));
    if let Some(auth) = &def.auth {
        obj.insert("auth".into(), json!(auth));
    }
    if !def.grants.is_empty() {
        obj.insert("grants".into(), json!(def.grants));
    }
    obj.insert("source".into(), json!(def.source));
    Value::Object(obj)
}

/// A plain aligned table: a header row, then rows, columns padded to fit.
/// The last column is never padded, so lines carry no trailing spaces.
/// Every cell is [`sanitize`]d as it is added, so no caller can forget and
/// widths are measured on what is printed.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Add one row (as many cells as columns), each cell sanitized.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(
            cells
                .into_iter()
                .map(|cell| match sanitize(&cell) {
                    Cow::Borrowed(_) => cell,
                    Cow::Owned(escaped) => escaped,
                })
                .collect(),
        );
    }

    /// Render to a string ending in a newline.
    pub fn render(&self) -> String {
        let columns = self.header.len();
        let mut widths = vec![0usize; columns];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (i, cell) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(console::measure_text_width(cell));
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate().take(columns) {
                if i + 1 == columns {
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    let pad = widths[i] - console::measure_text_width(cell) + 2;
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Print to stdout.
    pub fn print(&self) -> Result<(), UsageError> {
        let mut out = std::io::stdout().lock();
        out.write_all(self.render().as_bytes())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted_but_references_shown() {
        assert_eq!(shown_secret("sk-live-123", false), REDACTED);
        assert_eq!(shown_secret("sk-live-123", true), "sk-live-123");
        assert_eq!(shown_secret("${API_KEY}", false), "${API_KEY}");
        assert_eq!(shown_secret("Bearer ${TOKEN}", false), "Bearer ${TOKEN}");
        assert_eq!(shown_secret("${T:-abc}", false), "${T:-<redacted>}");
        assert_eq!(shown_secret("key=abc;${T}", false), "<redacted>${T}");
    }

    #[test]
    fn table_cells_are_sanitized_and_measured_as_shown() {
        let mut table = Table::new(&["NAME", "X"]);
        table.row(vec!["\u{1b}[31mred".into(), "1".into()]);
        table.row(vec!["b".into(), "\u{9b}2J".into()]);
        assert_eq!(
            table.render(),
            "NAME           X\n\\u{1b}[31mred  1\nb              \\u{9b}2J\n"
        );
    }

    #[test]
    fn table_aligns_columns() {
        let mut table = Table::new(&["NAME", "X"]);
        table.row(vec!["a".into(), "1".into()]);
        table.row(vec!["longer".into(), "2".into()]);
        assert_eq!(table.render(), "NAME    X\na       1\nlonger  2\n");
    }
}
