//! `check`'s table and the lines under it (failures with their hints, lints,
//! tool names), as a person reads them.

use crate::check::{NO_TOOLS_CAPABILITY, Outcome};
use crate::defs::ServerDef;
use crate::error::{Diagnostic, Result};
use crate::mcp::{ConnectError, DiscoveryReport, Severity};
use crate::output::{self, Table};

/// Print the table of outcomes, then what each server had to say.
pub(super) fn print(outcomes: &[Outcome], list_tools: bool) -> Result<()> {
    let mut table = Table::new(&[
        "NAME",
        "STATUS",
        "TRANSPORT",
        "PROTOCOL",
        "SERVER",
        "TOOLS",
        "RESOURCES",
        "PROMPTS",
        "TIME",
    ]);
    for outcome in outcomes {
        let name = outcome.def.name.clone();
        match &outcome.result {
            None => table.row(unreached_row(
                name,
                "skipped (disabled)".into(),
                &outcome.def,
            )),
            Some(Ok(report)) => table.row(reached_row(name, report)),
            Some(Err(err)) => table.row(unreached_row(
                name,
                match err.phase() {
                    Some(phase) => format!("FAILED ({phase})"),
                    None => "FAILED".into(),
                },
                &outcome.def,
            )),
        }
    }
    table.print()?;
    for outcome in outcomes {
        match &outcome.result {
            None => {}
            Some(Err(err)) => print_failure(err)?,
            Some(Ok(report)) => print_findings(&outcome.def, report, list_tools)?,
        }
    }
    Ok(())
}

/// A table row for a server that answered.
fn reached_row(name: String, report: &DiscoveryReport) -> Vec<String> {
    let server = report
        .server_name_version()
        .map(|(n, v)| format!("{n} {v}"))
        .unwrap_or_else(|| "-".into());
    let status = if report.has_lint_errors() {
        "FAILED"
    } else if report.lints.is_empty() {
        "ok"
    } else {
        "ok (warnings)"
    };
    let count = |c: Option<usize>| c.map(|c| c.to_string()).unwrap_or_else(|| "-".into());
    vec![
        name,
        status.into(),
        // The one that answered: for a URL with no transport in
        // the file, what the backwards-compatibility procedure found.
        report.transport.to_string(),
        report.protocol_version.clone(),
        server,
        if report.tools_capability {
            report.tools.len().to_string()
        } else {
            "-".into()
        },
        count(report.resources),
        count(report.prompts),
        seconds(report.timings.total_ms),
    ]
}

/// A failed server's error and hint, under the table.
fn print_failure(err: &ConnectError) -> Result<()> {
    output::line("")?;
    // The error text starts with the server's name.
    output::line(format!("FAILED {err}"))?;
    if let Some(hint) = err.hint() {
        output::line(format!("  hint: {hint}"))?;
    }
    Ok(())
}

/// A reached server's lints (and, with `--tools`, its tool names).
fn print_findings(def: &ServerDef, report: &DiscoveryReport, list_tools: bool) -> Result<()> {
    if !report.tools_capability {
        output::line(format!("{}: {NO_TOOLS_CAPABILITY}", def.name))?;
    }
    for lint in &report.lints {
        let level = match lint.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        output::line(format!(
            "{}: {level} [{}]: {}",
            output::sanitize(&def.name),
            lint.code,
            output::sanitize(&lint.message)
        ))?;
    }
    if list_tools {
        let names: Vec<_> = report
            .tools
            .iter()
            .map(|t| output::sanitize(&t.name))
            .collect();
        output::line(format!(
            "{} tools: {}",
            output::sanitize(&def.name),
            names.join(", ")
        ))?;
    }
    Ok(())
}

/// Milliseconds as the TIME column shows them (`1.23s`).
fn seconds(ms: f64) -> String {
    format!("{:.2}s", ms / 1000.0)
}

/// A table row for a server that was not reached: its name, status and
/// defined transport (`auto` when the file names none), and `-` in every
/// other column.
fn unreached_row(name: String, status: String, def: &ServerDef) -> Vec<String> {
    let transport = if def.transport_inferred {
        "auto".to_string()
    } else {
        def.transport.to_string()
    };
    let mut row = vec![name, status, transport];
    row.resize(9, "-".into());
    row
}
