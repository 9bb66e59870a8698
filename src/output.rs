//! Everything a command prints: tables, `--json`, warnings, redaction.
//!
//! Human output goes to stdout, diagnostics (`warning:`, `error:`, `hint:`)
//! and progress to stderr, so `--json` output can always be piped to `jq`.

use std::io::{IsTerminal, Write};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::defs::vars;
use crate::defs::{Launch, ServerDef};
use crate::error::UsageError;
use crate::validate::{Finding, Severity};

/// What literal secret values are replaced with in output.
pub const REDACTED: &str = "<redacted>";

/// Print `value` as pretty JSON on stdout.
pub fn print_json(value: &impl Serialize) -> Result<(), UsageError> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// Print a line of human output on stdout.
pub fn line(text: impl AsRef<str>) -> Result<(), UsageError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", text.as_ref())?;
    Ok(())
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
    let _ = writeln!(err, "warning: {message}");
    if let Some(hint) = hint {
        let _ = writeln!(err, "  hint: {hint}");
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
        crate::defs::redact::mask_userinfo(url)
    }
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
    let redacted = |map: &indexmap::IndexMap<String, String>| -> Map<String, Value> {
        map.iter()
            .map(|(k, v)| (k.clone(), json!(shown_secret(v, show_secrets))))
            .collect()
    };
    if let Some(process) = def.process() {
        obj.insert("command".into(), json!(process.command));
        obj.insert("args".into(), json!(process.args));
        obj.insert("env".into(), Value::Object(redacted(process.env)));
        obj.insert("cwd".into(), json!(process.cwd));
    }
    if let Launch::Remote { url, headers, .. } = &def.launch {
        obj.insert("url".into(), json!(shown_url(url, show_secrets)));
        obj.insert("headers".into(), Value::Object(redacted(headers)));
    }
    obj.insert(
        "connect_timeout".into(),
        json!(def.connect_timeout.map(|d| d.as_secs_f64())),
    );
    obj.insert("protocol".into(), json!(def.protocol));
    obj.insert("restart".into(), json!(def.restart));
    obj.insert("source".into(), json!(def.source));
    Value::Object(obj)
}

/// A plain aligned table: a header row, then rows, columns padded to fit.
/// The last column is never padded, so lines carry no trailing spaces.
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

    /// Add one row (as many cells as columns).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
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
    fn table_aligns_columns() {
        let mut table = Table::new(&["NAME", "X"]);
        table.row(vec!["a".into(), "1".into()]);
        table.row(vec!["longer".into(), "2".into()]);
        assert_eq!(table.render(), "NAME    X\na       1\nlonger  2\n");
    }
}
