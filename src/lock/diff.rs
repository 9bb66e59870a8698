//! What changed between a server's locked block and what it shows now:
//! entries added, removed or renamed, descriptions (old and new text,
//! diffed by line), schemas (the JSON Pointer paths that differ, the old
//! and new text of every string that changed inside, and the old and new
//! JSON of every other value that changed inside), and the server's
//! version, protocol and artifact. How it is printed is [`super::shown`]'s.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::canonical::Pinned;
use super::file::{Artifact, ServerLock};
use super::shown;

/// One difference; `--json` prints these as they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// The lock has no block for this server.
    NotLocked,
    /// An entry (tool, prompt, resource template) appeared.
    Added {
        /// `tool`, `prompt` or `resource_template`.
        kind: &'static str,
        /// Its name.
        name: String,
    },
    /// An entry disappeared.
    Removed {
        /// `tool`, `prompt` or `resource_template`.
        kind: &'static str,
        /// Its name.
        name: String,
    },
    /// An entry came back under another name, otherwise unchanged.
    Renamed {
        /// `tool`, `prompt` or `resource_template`.
        kind: &'static str,
        /// The locked name.
        old: String,
        /// The name now.
        new: String,
    },
    /// An entry's definition changed.
    Changed {
        /// `tool`, `prompt` or `resource_template`.
        kind: &'static str,
        /// Its name.
        name: String,
        /// What changed in it.
        fields: Vec<FieldChange>,
    },
    /// A scalar about the server changed (`server_name`, `server_version`,
    /// `protocol`, `capabilities`, `transport`, `artifact.kind`, `artifact.source`,
    /// `artifact.version`, `artifact.integrity`).
    Value {
        /// Which.
        field: String,
        /// As locked.
        old: Option<String>,
        /// Now.
        new: Option<String>,
    },
}

/// One field of an entry that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// `description`, `inputSchema`, …
    pub field: String,
    /// For text fields: the old text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// For text fields: the new text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// For text fields: a line diff, each line `- `, `+ ` or two spaces.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diff: Vec<String>,
    /// For JSON fields: the JSON Pointer paths that differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// For JSON fields: each string that changed, appeared or went inside
    /// them (a parameter's description is where a planted instruction
    /// hides), with its old and new text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub texts: Vec<TextChange>,
    /// For JSON fields: each other value that changed, appeared or went
    /// inside them (a `destructiveHint`, a `maxLength`, an `enum`'s
    /// member, a string that became a number), with its old and new JSON.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueChange>,
    /// For JSON fields: more paths, strings or values changed than are listed
    /// (so a change past the list is never approved unseen).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// A string inside a JSON field that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextChange {
    /// Its JSON Pointer path within the field.
    pub path: String,
    /// The locked text (absent when there was none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The text now (absent when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// A line diff, each line `- `, `+ ` or two spaces.
    pub diff: Vec<String>,
}

/// A value inside a JSON field that changed and is not a string on both
/// sides: a number, a boolean, null, an empty list or object, or a value
/// whose kind changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange {
    /// Its JSON Pointer path within the field.
    pub path: String,
    /// The locked value as compact JSON (absent when there was none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The value now as compact JSON (absent when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
}

impl Change {
    /// The name of the tool this change holds back in the supervisor, if
    /// it is about one tool that exists now (an added, renamed or changed
    /// tool).
    pub fn held_tool(&self) -> Option<&str> {
        self.held_entry("tool")
    }

    /// The name of the entry of `kind` (`tool`, `prompt`,
    /// `resource_template`) this change holds back, if it is about one that
    /// exists now (added, renamed or changed).
    pub fn held_entry(&self, kind: &str) -> Option<&str> {
        match self {
            Change::Added { kind: k, name }
            | Change::Changed { kind: k, name, .. }
            | Change::Renamed {
                kind: k, new: name, ..
            } if *k == kind => Some(name),
            _ => None,
        }
    }

    /// The kind of catalog entry this change is about, if any.
    pub fn entry_kind(&self) -> Option<&'static str> {
        match self {
            Change::Added { kind, .. }
            | Change::Removed { kind, .. }
            | Change::Renamed { kind, .. }
            | Change::Changed { kind, .. } => Some(kind),
            _ => None,
        }
    }

    /// One line that says what changed (details follow in [`Change::detail`]).
    pub fn summary(&self) -> String {
        let kind = |k: &str| k.replace('_', " ");
        let s = shown::name;
        match self {
            Change::NotLocked => "not in the lockfile".into(),
            Change::Added { kind: k, name } => format!("{} `{}` added", kind(k), s(name)),
            Change::Removed { kind: k, name } => format!("{} `{}` removed", kind(k), s(name)),
            Change::Renamed { kind: k, old, new } => {
                format!("{} `{}` renamed to `{}`", kind(k), s(old), s(new))
            }
            Change::Changed {
                kind: k,
                name,
                fields,
            } => {
                let which: Vec<&str> = fields.iter().map(|f| f.field.as_str()).collect();
                format!("{} `{}` changed: {}", kind(k), s(name), which.join(", "))
            }
            Change::Value { field, old, new } => format!(
                "{field} changed: {} → {}",
                s(old.as_deref().unwrap_or("(none)")),
                s(new.as_deref().unwrap_or("(none)"))
            ),
        }
    }

    /// The indented detail lines under the summary, as [`shown`] writes
    /// them.
    pub fn detail(&self) -> Vec<String> {
        let Change::Changed { fields, .. } = self else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for f in fields {
            if f.paths == [""] {
                lines.push(format!("{} added, removed or replaced whole", f.field));
            } else if !f.paths.is_empty() {
                let paths: Vec<String> = f.paths.iter().map(|p| shown::name(p)).collect();
                lines.push(format!("{} changed at {}", f.field, paths.join(", ")));
            }
            lines.extend(shown::diff(&f.diff));
            for text in &f.texts {
                lines.push(format!("  at {}:", shown::name(&text.path)));
                lines.extend(
                    shown::diff(&text.diff)
                        .into_iter()
                        .map(|l| format!("  {l}")),
                );
            }
            for value in &f.values {
                lines.push(format!(
                    "  at {}: {} → {}",
                    shown::name(&value.path),
                    shown::value(value.old.as_deref()),
                    shown::value(value.new.as_deref())
                ));
            }
            if f.truncated {
                lines.push(format!(
                    "{} changed in more places than listed here (the first {MAX_LISTED})",
                    f.field
                ));
            }
        }
        lines
    }
}

/// Why tools may have come or gone with no change to the server: the
/// block does not record the client capabilities its catalog was listed
/// with (a lockfile of an mcpctl that offered fewer), and a server may list
/// some tools only to clients that offer elicitation, roots or sampling.
pub fn capabilities_note(locked: &ServerLock, changes: &[Change]) -> Option<String> {
    let tools_came_or_went = changes.iter().any(|c| {
        matches!(
            c,
            Change::Added { kind: "tool", .. } | Change::Removed { kind: "tool", .. }
        )
    });
    (locked.capabilities.is_empty() && tools_came_or_went).then(|| {
        "the lock does not record the client capabilities its catalog was listed with \
         (an older mcpctl offered fewer); a server may list some tools only to clients \
         that offer elicitation, roots or sampling, as mcpctl now does"
            .to_string()
    })
}

/// Compare a locked block with the block the server would get now.
pub fn compare(locked: &ServerLock, now: &ServerLock, artifact_offline: bool) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut value = |field: &str, old: Option<&String>, new: Option<&String>| {
        if old != new {
            changes.push(Change::Value {
                field: field.into(),
                old: old.cloned(),
                new: new.cloned(),
            });
        }
    };
    value("transport", Some(&locked.transport), Some(&now.transport));
    value(
        "server_name",
        locked.server_name.as_ref(),
        now.server_name.as_ref(),
    );
    value(
        "server_version",
        locked.server_version.as_ref(),
        now.server_version.as_ref(),
    );
    value("protocol", Some(&locked.protocol), Some(&now.protocol));
    // A catalog listed with other client capabilities may list other
    // tools; a lock from before they were recorded is not compared.
    if !locked.capabilities.is_empty() {
        let join = |c: &Vec<String>| (!c.is_empty()).then(|| c.join(", "));
        value(
            "capabilities",
            join(&locked.capabilities).as_ref(),
            join(&now.capabilities).as_ref(),
        );
    }
    changes.extend(artifact(&locked.artifact, &now.artifact, artifact_offline));
    for (kind, old, new) in [
        ("tool", &locked.tools, &now.tools),
        ("prompt", &locked.prompts, &now.prompts),
        (
            "resource_template",
            &locked.resource_templates,
            &now.resource_templates,
        ),
    ] {
        changes.extend(entries(kind, old, new));
    }
    changes
}

/// Artifact changes. Offline (from the definition alone), an unpinned
/// launch has no version to compare and integrity is not known.
fn artifact(old: &Artifact, new: &Artifact, offline: bool) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut value = |field: &str, o: Option<String>, n: Option<String>| {
        if o != n {
            changes.push(Change::Value {
                field: format!("artifact.{field}"),
                old: o,
                new: n,
            });
        }
    };
    value("kind", Some(old.kind.clone()), Some(new.kind.clone()));
    value("source", Some(old.source.clone()), Some(new.source.clone()));
    if !offline || new.pinned {
        value("version", old.version.clone(), new.version.clone());
    } else if old.pinned {
        // The definition lost its pin: what runs is no longer the locked version.
        value("version", old.version.clone(), None);
    }
    if !offline {
        let join = |v: &Vec<String>| (!v.is_empty()).then(|| v.join(", "));
        value("integrity", join(&old.integrity), join(&new.integrity));
    }
    changes
}

fn entries(
    kind: &'static str,
    old: &BTreeMap<String, Pinned>,
    new: &BTreeMap<String, Pinned>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut removed: Vec<&String> = old.keys().filter(|k| !new.contains_key(*k)).collect();
    let mut added: Vec<&String> = new.keys().filter(|k| !old.contains_key(*k)).collect();
    // An entry that left and one that arrived with the same definition: a rename.
    let mut renames = Vec::new();
    removed.retain(|gone| {
        match added
            .iter()
            .position(|came| new[*came].hash == old[*gone].hash)
        {
            Some(i) => {
                renames.push(((*gone).clone(), added.remove(i).clone()));
                false
            }
            None => true,
        }
    });
    for name in removed {
        changes.push(Change::Removed {
            kind,
            name: name.clone(),
        });
    }
    for name in added {
        changes.push(Change::Added {
            kind,
            name: name.clone(),
        });
    }
    for (old_name, new_name) in renames {
        changes.push(Change::Renamed {
            kind,
            old: old_name,
            new: new_name,
        });
    }
    for (name, locked) in old {
        if let Some(now) = new.get(name)
            && now.hash != locked.hash
        {
            changes.push(Change::Changed {
                kind,
                name: name.clone(),
                fields: fields(&locked.definition, &now.definition),
            });
        }
    }
    changes
}

/// The fields that differ between two canonical definitions.
fn fields(old: &str, new: &str) -> Vec<FieldChange> {
    let parse = |t: &str| match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (parse(old), parse(new));
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for key in keys {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            continue;
        }
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let is_text = o.is_none_or(Value::is_string) && n.is_none_or(Value::is_string);
        if is_text {
            let (ot, nt) = (text(o), text(n));
            out.push(FieldChange {
                field: key.clone(),
                diff: line_diff(ot.as_deref().unwrap_or(""), nt.as_deref().unwrap_or("")),
                old: ot,
                new: nt,
                paths: Vec::new(),
                texts: Vec::new(),
                values: Vec::new(),
                truncated: false,
            });
        } else {
            out.push(json_field(key, o, n));
        }
    }
    out
}

/// How many paths, changed strings and changed values a JSON field's
/// change lists (of each); past it the change says it has more
/// ([`FieldChange::truncated`]).
const MAX_LISTED: usize = 50;

/// The change of a JSON field (`inputSchema`, `annotations` …) that is
/// absent (`None`) or not a string on one side at least.
fn json_field(key: &str, old: Option<&Value>, new: Option<&Value>) -> FieldChange {
    let mut paths = Vec::new();
    let null = Value::Null;
    json_paths(old.unwrap_or(&null), new.unwrap_or(&null), "", &mut paths);
    let (mut texts, mut values) = leaf_changes(old, new, &paths);
    let truncated = [paths.len(), texts.len(), values.len()]
        .iter()
        .any(|n| *n > MAX_LISTED);
    paths.truncate(MAX_LISTED);
    texts.truncate(MAX_LISTED);
    values.truncate(MAX_LISTED);
    FieldChange {
        field: key.to_string(),
        old: None,
        new: None,
        diff: Vec::new(),
        paths,
        texts,
        values,
        truncated,
    }
}

/// The leaves that differ at or under each of `paths` (from
/// [`json_paths`]) between `old` and `new`, changed, added or removed:
/// strings (text on both sides, or absent on one) as text changes, every
/// other value as a value change; one more than [`MAX_LISTED`] of each at
/// most.
fn leaf_changes(
    old: Option<&Value>,
    new: Option<&Value>,
    paths: &[String],
) -> (Vec<TextChange>, Vec<ValueChange>) {
    let (mut texts, mut values) = (Vec::new(), Vec::new());
    for path in paths {
        let (mut was, mut now) = (BTreeMap::new(), BTreeMap::new());
        leaves(old.and_then(|v| v.pointer(path)), path, &mut was);
        leaves(new.and_then(|v| v.pointer(path)), path, &mut now);
        let mut at: Vec<&String> = was.keys().chain(now.keys()).collect();
        at.sort();
        at.dedup();
        for at in at {
            let (o, n) = (was.get(at).copied(), now.get(at).copied());
            let is_text = |v: Option<&Value>| v.is_none_or(Value::is_string);
            if o == n {
                continue;
            }
            if is_text(o) && is_text(n) {
                if texts.len() <= MAX_LISTED {
                    let (o, n) = (o.and_then(Value::as_str), n.and_then(Value::as_str));
                    texts.push(TextChange {
                        path: at.clone(),
                        diff: line_diff(o.unwrap_or(""), n.unwrap_or("")),
                        old: o.map(str::to_string),
                        new: n.map(str::to_string),
                    });
                }
            } else if values.len() <= MAX_LISTED {
                values.push(ValueChange {
                    path: at.clone(),
                    old: o.map(Value::to_string),
                    new: n.map(Value::to_string),
                });
            }
        }
    }
    (texts, values)
}

/// Every leaf of `value` (a string, number, boolean, null, or an empty
/// list or object), by its JSON Pointer path (starting at `at`).
fn leaves<'v>(value: Option<&'v Value>, at: &str, out: &mut BTreeMap<String, &'v Value>) {
    match value {
        Some(Value::Object(map)) if !map.is_empty() => {
            for (key, v) in map {
                leaves(Some(v), &format!("{at}/{}", pointer_token(key)), out);
            }
        }
        Some(Value::Array(items)) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(Some(v), &format!("{at}/{i}"), out);
            }
        }
        Some(leaf) => {
            out.insert(at.to_string(), leaf);
        }
        None => {}
    }
}

/// `key` as one token of a JSON Pointer (`~` and `/` escaped, RFC 6901).
fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The JSON Pointer paths at which `old` and `new` differ (`""`, the
/// root, when the whole value differs in kind); one more than
/// [`MAX_LISTED`] at most, so a caller can tell there were more.
pub fn json_paths(old: &Value, new: &Value, at: &str, out: &mut Vec<String>) {
    if out.len() > MAX_LISTED || old == new {
        return;
    }
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let path = format!("{at}/{}", pointer_token(key));
                match (o.get(key), n.get(key)) {
                    (Some(a), Some(b)) => json_paths(a, b, &path, out),
                    _ => out.push(path),
                }
            }
        }
        (Value::Array(o), Value::Array(n)) => {
            for i in 0..o.len().max(n.len()) {
                let path = format!("{at}/{i}");
                match (o.get(i), n.get(i)) {
                    (Some(a), Some(b)) => json_paths(a, b, &path, out),
                    _ => out.push(path),
                }
            }
        }
        _ => out.push(at.into()),
    }
}

/// A line diff of two texts (longest common subsequence): unchanged lines
/// start with two spaces, removed ones with `- `, added ones with `+ `.
pub fn line_diff<'a>(old: &'a str, new: &'a str) -> Vec<String> {
    const MAX_LINES: usize = 2000;
    // Split on `\n` alone: a line end added, or CRLF for LF, is a change.
    let lines = |t: &'a str| -> Vec<&'a str> {
        if t.is_empty() {
            Vec::new()
        } else {
            t.split('\n').collect()
        }
    };
    let (a, b) = (lines(old), lines(new));
    if a.len() > MAX_LINES || b.len() > MAX_LINES {
        let mut out: Vec<String> = a.iter().map(|l| format!("- {l}")).collect();
        out.extend(b.iter().map(|l| format!("+ {l}")));
        return out;
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(format!("  {}", a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", a[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_paths_name_what_changed() {
        let mut out = Vec::new();
        json_paths(
            &json!({"properties":{"a":{"type":"string"}},"required":["a"]}),
            &json!({"properties":{"a":{"type":"number"},"b/c":{}},"required":["a"]}),
            "",
            &mut out,
        );
        assert_eq!(out, vec!["/properties/a/type", "/properties/b~1c"]);
    }

    #[test]
    fn a_changed_value_that_is_not_text_shows_old_and_new() {
        let old = r#"{"annotations":{"destructiveHint":false},"inputSchema":{"properties":{"n":{"maxLength":10}},"required":["n"]}}"#;
        let new = r#"{"annotations":{"destructiveHint":true},"inputSchema":{"properties":{"n":{"maxLength":"10"}},"required":[]}}"#;
        let changed = fields(old, new);
        assert_eq!(changed[0].values[0].new.as_deref(), Some("true"));
        let change = Change::Changed {
            kind: "tool",
            name: "t".into(),
            fields: changed,
        };
        let lines = change.detail();
        assert!(
            lines.contains(&"  at /destructiveHint: false → true".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&r#"  at /properties/n/maxLength: 10 → "10""#.to_string()),
            "{lines:?}"
        );
        // A string gone from a list is text, shown as before.
        assert!(
            lines.contains(&"  at /required/0:".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"  - n".to_string()), "{lines:?}");
    }

    #[test]
    fn line_diff_keeps_common_lines() {
        assert_eq!(
            line_diff("one\ntwo\nthree", "one\n2\nthree"),
            vec!["  one", "- two", "+ 2", "  three"]
        );
    }
}
