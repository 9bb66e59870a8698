//! The quick proof of a splice (`append`): one new entry written into a
//! strict-JSON file. Re-reading every entry of a 1,000-server file to find
//! them unchanged cost as much as the rest of `add`; this proof reads only
//! what can have changed, and says `false` (leaving the full proof of
//! `verify` to run) whenever it cannot show the edit right:
//! - the old text is all there, in order, around one inserted span, so no
//!   byte of an entry the edit did not touch changed;
//! - the new text is JSON whose servers are the old names, in order, with
//!   the new name last, so the span sits where an entry belongs;
//! - the span alone reads as exactly that one entry, a valid definition.

use std::fmt;
use std::path::Path;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use crate::defs::format::{self, ParsedFile};
use crate::defs::syntax::Shape;

/// True when `new_text` is `old_text` (as `before` read it) with the entry
/// `name` appended to its servers and nothing else changed; false when this
/// proof cannot tell (JSONC, a changed layout, anything unusual).
pub(super) fn proves_append(
    path: &Path,
    before: &ParsedFile,
    old_text: &str,
    new_text: &str,
    name: &str,
) -> bool {
    if before.servers.iter().any(|def| def.name == name) {
        return false;
    }
    let Some(span) = inserted_span(old_text, new_text) else {
        return false;
    };
    let expected = before.servers.iter().map(|def| def.name.as_str());
    let names_right = server_names(new_text, before.format.shape).is_some_and(|names| {
        names.len() == before.servers.len() + 1
            && names.iter().map(String::as_str).eq(expected.chain([name]))
    });
    names_right && span_is_entry(path, span, name)
}

/// The one span `new` inserts into `old`, when `new` is `old` with a single
/// run of bytes inserted and nothing else changed.
fn inserted_span<'n>(old: &str, new: &'n str) -> Option<&'n str> {
    let grown = new.len().checked_sub(old.len())?;
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let end = prefix + grown;
    let same_rest = new.as_bytes().get(end..)? == old.as_bytes().get(prefix..)?;
    (same_rest && grown > 0)
        .then(|| new.get(prefix..end))
        .flatten()
}

/// True when `span` (`,\n  "name": {…}` or a rotation of its white space)
/// reads, on its own, as the one valid entry `name`.
fn span_is_entry(path: &Path, span: &str, name: &str) -> bool {
    let member = span.trim().trim_start_matches(',').trim();
    let alone = format!("{{{member}}}");
    format::parse(path, &alone).is_ok_and(|parsed| {
        parsed.format.shape == Shape::Flat
            && parsed.servers.len() == 1
            && parsed.servers[0].name == name
    })
}

/// The names of a strict-JSON file's servers (the top level's keys for a
/// flat file, else those under the shape's key), in order, read without
/// building any entry; `None` when strict JSON refuses the text or the
/// shape's key appears twice.
fn server_names(text: &str, shape: Shape) -> Option<Vec<String>> {
    let text = crate::defs::layout::without_bom(text);
    let mut reader = serde_json::Deserializer::from_str(text);
    let names = ServerNames { key: shape.key() }
        .deserialize(&mut reader)
        .ok()?;
    reader.end().ok()?;
    Some(names)
}

/// Reads an object's keys (`key: None`), or the keys of the object under
/// its member `key`; every value else is skipped unbuilt.
struct ServerNames {
    key: Option<&'static str>,
}

impl<'de> DeserializeSeed<'de> for ServerNames {
    type Value = Vec<String>;

    fn deserialize<D: de::Deserializer<'de>>(self, reader: D) -> Result<Vec<String>, D::Error> {
        reader.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ServerNames {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
        let mut names = Vec::new();
        let mut found = false;
        while let Some(key) = map.next_key::<String>()? {
            match self.key {
                None => {
                    map.next_value::<IgnoredAny>()?;
                    names.push(key);
                }
                Some(wanted) if key == wanted => {
                    if found {
                        return Err(de::Error::custom("the servers' key appears twice"));
                    }
                    found = true;
                    names = map.next_value_seed(ServerNames { key: None })?;
                }
                Some(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> ParsedFile {
        format::parse(Path::new("s.json"), text).unwrap()
    }

    #[test]
    fn a_plain_append_is_proved() {
        let old = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  }\n}\n";
        let new = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"},\n    \"b\": {\"command\": \"sh\"}\n  }\n}\n";
        let path = Path::new("s.json");
        assert!(proves_append(path, &parsed(old), old, new, "b"));
        // What `append` writes into a file laid out as `add` finds it.
        let edits = [crate::defs::edit::Edit::Add {
            name: "b".to_string(),
            value: serde_json::json!({"command": "sh"}),
        }];
        let spliced = crate::defs::edit::apply(path, old, &parsed(old), &edits, false).unwrap();
        assert!(proves_append(path, &parsed(old), old, &spliced, "b"));
    }

    #[test]
    fn anything_else_is_left_to_the_full_proof() {
        let path = Path::new("s.json");
        let old = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  }\n}\n";
        let before = parsed(old);
        // Another entry changed too.
        let changed = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"cat\"},\n    \"b\": {\"command\": \"sh\"}\n  }\n}\n";
        assert!(!proves_append(path, &before, old, changed, "b"));
        // The entry landed outside the servers.
        let outside = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  },\n  \"b\": {\"command\": \"sh\"}\n}\n";
        assert!(!proves_append(path, &before, old, outside, "b"));
        // The entry landed inside another one.
        let inside = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\",\n    \"b\": {\"command\": \"sh\"}}\n  }\n}\n";
        assert!(!proves_append(path, &before, old, inside, "b"));
        // The new entry is not a definition.
        let invalid = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"},\n    \"b\": {\"url\": 1}\n  }\n}\n";
        assert!(!proves_append(path, &before, old, invalid, "b"));
        // Two entries were added.
        let two = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"},\n    \"b\": {\"command\": \"sh\"},\n    \"c\": {\"command\": \"sh\"}\n  }\n}\n";
        assert!(!proves_append(path, &before, old, two, "b"));
        // The servers' key twice, the second holding the expected names.
        let twice = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  }, \"mcpServers\": {\"a\": {}, \"b\": {\"command\": \"sh\"}}\n}\n";
        assert!(!proves_append(path, &before, old, twice, "b"));
    }

    /// Whatever the file's layout, an append the quick proof accepts is one
    /// the full proof accepts too, and the file then holds the entry.
    #[test]
    fn the_quick_proof_never_accepts_what_the_full_one_refuses() {
        use crate::defs::edit::{Edit, apply, verify};
        let files = [
            (
                "s.json",
                "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"sh\"}\n  }\n}\n",
            ),
            (
                "s.json",
                "{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"sh\"}\r\n  }\r\n}\r\n",
            ),
            (
                "s.json",
                "\u{feff}{\"mcpServers\": {\"a\": {\"command\": \"sh\"}}}",
            ),
            ("s.json", "{\"a\": {\"command\": \"sh\"}}"),
            ("s.json", "{\n  \"a\": {\"command\": \"sh\"}\n}"),
            (
                "s.json",
                "{\n  // a comment\n  \"a\": {\"command\": \"sh\"}\n}\n",
            ),
            ("s.json", "{\"servers\": {}, \"inputs\": []}\n"),
            ("s.json", "{\"mcpServers\": {\n}}\n"),
            (
                "s.json",
                "{\"other\": {\"a\": 1}, \"mcpServers\": {\"a\": {\"command\": \"sh\"}}}",
            ),
        ];
        let mut proved = 0;
        for (name, old) in files {
            let path = Path::new(name);
            let before = format::parse(path, old).unwrap();
            let value = serde_json::json!({"command": "cat", "args": ["-u", "\"x\\y\u{2028}"]});
            for new_name in ["b", "mcpServers", "servers", "inputs", "a-2"] {
                let edits = [Edit::Add {
                    name: new_name.to_string(),
                    value: value.clone(),
                }];
                let Ok(new) = apply(path, old, &before, &edits, false) else {
                    continue;
                };
                let after = format::parse(path, &new).unwrap();
                assert!(after.servers.iter().any(|d| d.name == new_name), "{new}");
                if proves_append(path, &before, old, &new, new_name) {
                    proved += 1;
                    verify::verify(path, &before, old, &new, &edits, true)
                        .unwrap_or_else(|err| panic!("{err}: {old:?} -> {new:?}"));
                }
            }
        }
        assert!(proved >= 8, "the quick proof ran only {proved} times");
    }
}
