//! `check --json`: one document with an entry per server, each carrying
//! every key of a report (null where unknown), its tools streamed straight
//! from the reports.

use rmcp::model::Tool;
use serde_json::{Value, json};

use crate::check::Outcome;
use crate::cli::lock::drift::{self, Drift};
use crate::error::{Diagnostic, Result};
use crate::mcp::ConnectError;
use crate::output;

/// The totals at the end of the document.
pub(super) struct Counts {
    /// Servers that answered with no lint error.
    pub passed: usize,
    /// Servers that failed, and entries refused for their name.
    pub failed: usize,
    /// Disabled servers, listed but not checked.
    pub skipped: usize,
}

/// Print the document for `outcomes` (with each server's lock comparison
/// when `drift` is given).
pub(super) fn print(
    outcomes: &mut [Outcome],
    counts: Counts,
    drift: Option<&[Drift]>,
) -> Result<()> {
    // The tools go to the output straight from the reports: the
    // document holds everything else, and an empty list where each
    // server's tools go (issue 13: no copy of the catalog for output).
    let tools: Vec<Option<Vec<Tool>>> = outcomes
        .iter_mut()
        .map(|o| match &mut o.result {
            Some(Ok(report)) => Some(std::mem::take(&mut report.tools)),
            _ => None,
        })
        .collect();
    let mut doc = json!({
        "schema_version": 1,
        "servers": outcomes.iter().map(outcome_json).collect::<Vec<_>>(),
        "passed": counts.passed,
        "failed": counts.failed,
        "skipped": counts.skipped,
    });
    if let Some(drift) = drift {
        drift::add_drift_json(&mut doc, drift);
    }
    output::print_json_streamed(&WithTools {
        doc: &doc,
        tools: &tools,
    })?;
    // As the reports: the exit reclaims them faster than a drop.
    std::mem::forget((doc, tools));
    Ok(())
}

/// The keys of a checked server's report (`DiscoveryReport`), which every
/// entry of `check --json` carries, null where unknown: a script reads a
/// failed or skipped entry with the same code as a passing one.
const REPORT_KEYS: &[&str] = &[
    "server",
    "transport",
    "protocol_version",
    "stateless",
    "initialize",
    "tools_capability",
    "tools",
    "tool_pages",
    "tool_list_end",
    "resources",
    "prompts",
    "timings",
    "schema_dialects",
    "lints",
];

/// The `check --json` document with each server's `tools` serialised from
/// its report (`tools[i]` for `servers[i]`) in place of the empty list the
/// document holds there.
struct WithTools<'a> {
    doc: &'a Value,
    tools: &'a [Option<Vec<Tool>>],
}

impl serde::Serialize for WithTools<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Servers<'a>(&'a [Value], &'a [Option<Vec<Tool>>]);
        impl serde::Serialize for Servers<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                serializer: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
                for (i, entry) in self.0.iter().enumerate() {
                    match (entry, self.1.get(i).and_then(Option::as_ref)) {
                        (Value::Object(fields), Some(tools)) => {
                            seq.serialize_element(&Server(fields, tools))?
                        }
                        _ => seq.serialize_element(entry)?,
                    }
                }
                seq.end()
            }
        }
        struct Server<'a>(&'a serde_json::Map<String, Value>, &'a [Tool]);
        impl serde::Serialize for Server<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                serializer: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (key, value) in self.0 {
                    if key == "tools" {
                        map.serialize_entry(key, self.1)?;
                    } else {
                        map.serialize_entry(key, value)?;
                    }
                }
                map.end()
            }
        }
        let Value::Object(fields) = self.doc else {
            return self.doc.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in fields {
            match value {
                Value::Array(servers) if key == "servers" => {
                    map.serialize_entry(key, &Servers(servers, self.tools))?
                }
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// One server's entry: every key present, null where unknown.
fn outcome_json(outcome: &Outcome) -> Value {
    let mut entry = serde_json::Map::new();
    entry.insert("name".into(), json!(outcome.def.name));
    entry.insert("ok".into(), Value::Null);
    entry.insert("skipped".into(), json!(outcome.result.is_none()));
    entry.insert("reason".into(), Value::Null);
    entry.insert("error".into(), Value::Null);
    for key in REPORT_KEYS {
        entry.insert((*key).into(), Value::Null);
    }
    entry.insert("server".into(), json!(outcome.def.name));
    // The defined transport until one answers; unknown (null) for a URL
    // whose file names none.
    let defined = (!outcome.def.transport_inferred).then_some(outcome.def.transport);
    entry.insert("transport".into(), json!(defined));
    entry.insert(
        "sandbox".into(),
        json!(crate::defs::sandbox_kind::sandbox_kind(&outcome.def)),
    );
    match &outcome.result {
        None => {
            entry.insert("reason".into(), json!("disabled"));
        }
        Some(Ok(report)) => {
            if let Value::Object(fields) = serde_json::to_value(report).unwrap_or(Value::Null) {
                entry.extend(fields);
            }
            entry.insert("ok".into(), json!(outcome.ok()));
        }
        Some(Err(err)) => {
            let stderr_tail = match err {
                ConnectError::ProcessExited { stderr_tail, .. }
                | ConnectError::Timeout { stderr_tail, .. } => stderr_tail.clone(),
                _ => Vec::new(),
            };
            entry.insert("ok".into(), json!(false));
            entry.insert(
                "error".into(),
                json!({
                    "kind": err.kind(),
                    "phase": err.phase(),
                    "message": err.to_string(),
                    "hint": err.hint(),
                    "stderr_tail": stderr_tail,
                }),
            );
        }
    }
    Value::Object(entry)
}
