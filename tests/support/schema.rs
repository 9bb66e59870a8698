//! The one JSON Schema assertion: a document against the schema mcpctl
//! publishes in `docs/json/`, draft 2020-12 with format checks, and no
//! remote references fetched.

use std::path::Path;

use serde_json::Value;

/// The published schema `docs/json/<name>.schema.json`, compiled.
pub fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/json")
        .join(format!("{name}.schema.json"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let value: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_retriever(mcpctl::mcp::lint::RefuseAll)
        .should_validate_formats(true)
        .build(&value)
        .unwrap_or_else(|e| panic!("{name}.schema.json does not compile: {e}"))
}

/// What is wrong with `doc` against schema `name`, one line per error
/// with where it is; empty when it is valid.
pub fn schema_errors(name: &str, doc: &Value) -> Vec<String> {
    schema(name)
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Panic unless `doc` is valid against `docs/json/<name>.schema.json`.
#[track_caller]
pub fn matches_schema(name: &str, doc: &Value) {
    let errors = schema_errors(name, doc);
    assert!(errors.is_empty(), "{name}: {}\n{doc}", errors.join("\n"));
}
