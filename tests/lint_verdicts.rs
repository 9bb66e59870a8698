//! `check` judges most schemas by their metaschema instead of compiling
//! them (issue 13). These tests prove the verdicts and the lint messages
//! are those of compiling every schema: on server-everything's tools (the
//! real server), the fixture's (hostile and draft-07-without-$schema
//! included), a set of broken schemas, and thousands of generated ones.

mod support;

use std::time::Duration;

use mcpctl::mcp::lint::{compile, lint_compiled, lint_tools, schema_verdict};
use mcpctl::mcp::{self, DiscoverOptions, PageEnd};
use rmcp::model::Tool;
use serde_json::{Value, json};
use support::{fixture_def, require, stdio};

/// Whether each tool's schema compiles: the old path.
fn compiled(tools: &[Tool]) -> Vec<Result<(), String>> {
    tools
        .iter()
        .map(|t| compile(&Value::Object((*t.input_schema).clone())).map(|_| ()))
        .collect()
}

/// Asserts the new path gives every verdict and every lint of the old one;
/// returns how many schemas do not compile.
fn assert_same(tools: &[Tool], what: &str) -> usize {
    let old = compiled(tools);
    for (tool, verdict) in tools.iter().zip(&old) {
        assert_eq!(
            &schema_verdict(&tool.input_schema),
            verdict,
            "{what}: tool {} with {}",
            tool.name,
            Value::Object((*tool.input_schema).clone())
        );
    }
    for strict in [false, true] {
        assert_eq!(
            lint_tools(tools, PageEnd::Complete, strict),
            lint_compiled(tools, old.clone(), PageEnd::Complete, strict),
            "{what}"
        );
    }
    old.iter().filter(|v| v.is_err()).count()
}

fn tool(n: usize, schema: Value) -> Tool {
    let schema = schema.as_object().expect("an object schema").clone();
    Tool::new(format!("t{n}"), "d", schema)
}

async fn listed(def: &mcpctl::defs::ServerDef) -> Vec<Tool> {
    let mut opts = DiscoverOptions::default();
    opts.connect.budget = Some(Duration::from_secs(60));
    mcp::discover(def, &opts).await.expect("discover").tools
}

#[tokio::test]
async fn server_everything_verdicts_are_those_of_compiling() {
    let bin = require(
        "mcp-server-everything",
        "run `bash tests/run.sh`, which installs @modelcontextprotocol/server-everything",
    );
    let tools = listed(&stdio("everything", bin.to_str().unwrap(), &["stdio"])).await;
    assert!(tools.len() >= 10, "{} tools", tools.len());
    assert_eq!(assert_same(&tools, "server-everything"), 0);
}

#[tokio::test]
async fn fixture_verdicts_are_those_of_compiling() {
    let def = fixture_def(
        "fx",
        &[
            "--hostile",
            "--bad-schema",
            "--talk",
            "--tools",
            "300",
            "--schema-props",
            "20",
        ],
    );
    let tools = listed(&def).await;
    assert!(tools.len() > 300, "{} tools", tools.len());
    assert_same(&tools, "fixture");
    let lints = lint_tools(&tools, PageEnd::Complete, false);
    assert!(
        lints
            .iter()
            .any(|l| l.code == "schema-invalid" && l.tool.as_deref() == Some("pairs")),
        "{lints:?}"
    );
}

#[test]
fn broken_schemas_get_the_verdicts_and_messages_of_compiling() {
    let d7 = "http://json-schema.org/draft-07/schema#";
    let schemas = [
        json!({"type":"object","properties":{"a":{"type":"string","pattern":"(unclosed"}}}),
        json!({"type":"object","patternProperties":{"[z-a]":{"type":"string"}}}),
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}),
        json!({"type":"object","properties":{"a":{"$ref":"#/definitions/nope"}}}),
        json!({"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/evil.json"}}}),
        json!({"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}),
        json!({"type":"object","properties":{"a":{"$ref":"other.json#/x"}}}),
        json!({"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}),
        json!({"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}}),
        json!({"$schema":d7,"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}}),
        json!({"type":"object","properties":{"p":{"type":"object","dependencies":{"x":["y"]}}}}),
        json!({"type":"object","properties":{"p":{"additionalItems":false}}}),
        json!({"type":7}),
        json!({"type":"strin"}),
        json!({"type":["string","string"]}),
        json!({"type":"object","properties":[]}),
        json!({"type":"object","required":"x"}),
        json!({"type":"object","required":["x","x"]}),
        json!({"type":"string","maxLength":-1}),
        json!({"type":"string","maxLength":1.5}),
        json!({"type":"string","maxLength":5.0}),
        json!({"type":"string","maxLength":1e30}),
        json!({"type":"array","minItems":"3"}),
        json!({"enum":3}),
        json!({"enum":[]}),
        json!({"type":"object","additionalProperties":5}),
        json!({"type":"number","exclusiveMinimum":true}),
        json!({"type":"number","multipleOf":0}),
        json!({"type":"string","format":"no-such-format"}),
        json!({"type":"object","$id":"::not a uri"}),
        json!({"type":"object","$anchor":"1bad"}),
        json!({"$schema":"http://example.com/custom","type":"object"}),
        json!({"$schema":7,"type":"object"}),
        json!({"$schema":"http://json-schema.org/draft-04/schema#","id":"x","type":"object"}),
        json!({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}),
        json!({"$schema":"http://json-schema.org/draft/2020-12/schema","type":"object"}),
        json!({"type":"object","properties":{"a":{"$schema":d7,"items":[true]}}}),
        json!({"type":"object","properties":{"pattern":{"type":"string"},"id":{"type":"integer"}}}),
        json!({"type":"object","properties":{"a":{"not":{"allOf":[{"type":"string"},{"minLength":"x"}]}}}}),
        json!({"type":"object","if":{"required":["a"]},"then":{"required":[1]}}),
        json!({}),
    ];
    let tools: Vec<Tool> = schemas
        .into_iter()
        .enumerate()
        .map(|(n, s)| tool(n, s))
        .collect();
    let invalid = assert_same(&tools, "broken schemas");
    assert!(invalid >= 20, "only {invalid} of them fail to compile");
}

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Gen(u64);

impl Gen {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }

    /// Any JSON value, often a schema-shaped one.
    fn value(&mut self, depth: usize) -> Value {
        match self.next(if depth == 0 { 6 } else { 10 }) {
            0 => json!(null),
            1 => json!(self.next(2) == 0),
            2 => [
                json!(-1),
                json!(0),
                json!(3),
                json!(1.5),
                json!(2.0),
                json!(1e300),
            ][self.next(6)]
            .clone(),
            3 => json!(
                [
                    "string",
                    "object",
                    "x",
                    "(",
                    "integer",
                    "#/$defs/a",
                    "strin"
                ][self.next(7)]
            ),
            4 => json!([]),
            5 => json!({}),
            6..=8 => self.schema(depth - 1),
            _ => Value::Array(
                (0..self.next(3) + 1)
                    .map(|_| self.value(depth - 1))
                    .collect(),
            ),
        }
    }

    /// A schema object of a few random keywords with random values.
    fn schema(&mut self, depth: usize) -> Value {
        const KEYWORDS: &[&str] = &[
            "type",
            "properties",
            "items",
            "prefixItems",
            "required",
            "maxLength",
            "minimum",
            "exclusiveMinimum",
            "enum",
            "const",
            "additionalProperties",
            "anyOf",
            "allOf",
            "oneOf",
            "not",
            "dependencies",
            "dependentRequired",
            "dependentSchemas",
            "minItems",
            "uniqueItems",
            "multipleOf",
            "title",
            "description",
            "$defs",
            "if",
            "then",
            "else",
            "propertyNames",
            "contains",
            "minContains",
            "unevaluatedProperties",
            "unevaluatedItems",
            "additionalItems",
            "default",
            "examples",
            "x-extra",
        ];
        let mut map = serde_json::Map::new();
        for _ in 0..self.next(4) + 1 {
            let key = KEYWORDS[self.next(KEYWORDS.len())];
            let value = match key {
                "properties" | "$defs" | "dependentSchemas" if depth > 0 => {
                    let mut props = serde_json::Map::new();
                    for i in 0..self.next(3) {
                        props.insert(format!("p{i}"), self.value(depth - 1));
                    }
                    Value::Object(props)
                }
                "type" if self.next(3) > 0 => {
                    json!(
                        [
                            "string", "object", "integer", "array", "number", "boolean", "null"
                        ][self.next(7)]
                    )
                }
                _ if self.next(4) == 0 => self.value(depth),
                "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "propertyNames"
                | "contains"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "additionalItems"
                    if depth > 0 =>
                {
                    self.schema(depth - 1)
                }
                "anyOf" | "allOf" | "oneOf" | "prefixItems" if depth > 0 => Value::Array(
                    (0..self.next(3) + 1)
                        .map(|_| self.schema(depth - 1))
                        .collect(),
                ),
                "maxLength" | "minItems" | "minContains" | "minimum" | "multipleOf" => {
                    [json!(0), json!(3), json!(2.0), json!(-1), json!(1.5)][self.next(5)].clone()
                }
                "required" => json!(["a", "b"]),
                _ => self.value(depth),
            };
            map.insert(key.to_string(), value);
        }
        Value::Object(map)
    }
}

#[test]
fn generated_schemas_get_the_verdicts_and_messages_of_compiling() {
    let mut generator = Gen(0x9E37_79B9_7F4A_7C15);
    let tools: Vec<Tool> = (0..4000).map(|n| tool(n, generator.schema(3))).collect();
    let invalid = assert_same(&tools, "generated schemas");
    // Both verdicts are well represented, so the comparison means something.
    assert!(
        (400..3600).contains(&invalid),
        "{invalid} of 4000 fail to compile"
    );
}
