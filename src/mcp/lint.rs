//! Lints on what a server advertises: schemas, names, descriptions.
//!
//! These are problems that make a server misbehave in some clients even
//! though it connects fine, so `check` reports them as warnings (errors
//! under `--strict`). Schema dialect follows the MCP spec exactly (the
//! spec's rule): no `$schema` means 2020-12, an explicit draft-07 is respected, and
//! nothing is ever guessed, rewritten or fetched.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

use super::connection::PageEnd;

/// The longest tool description that does not draw a lint.
pub const MAX_DESCRIPTION: usize = 10_000;

/// How serious a lint is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Reported; `check` still passes.
    Warning,
    /// `check` fails (lints become errors under `--strict`).
    Error,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Lint {
    /// A stable identifier, e.g. `schema-dialect`.
    pub code: &'static str,
    /// The tool it concerns, if any.
    pub tool: Option<String>,
    /// What is wrong and how to fix it.
    pub message: String,
    /// Warning or error.
    pub severity: Severity,
}

/// A retriever that refuses every external `$ref`.
///
/// jsonschema would otherwise fetch `http(s)://` and `file://` references
/// from untrusted tool schemas: an SSRF and local-file-read risk. Public so
/// every compiled schema (the tests' included) refuses them the same way.
pub struct RefuseAll;

impl jsonschema::Retrieve for RefuseAll {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!(
            "mcpctl never fetches external schemas (refused `{}`)",
            uri.as_str()
        )
        .into())
    }
}

/// The dialect a schema is compiled with, as the spec decides it.
pub fn schema_dialect(schema: &Value) -> Result<jsonschema::Draft, String> {
    match schema.as_object() {
        Some(map) => dialect_of(map),
        None => Ok(jsonschema::Draft::Draft202012),
    }
}

/// [`schema_dialect`] of a schema object (a tool's inputSchema as listed,
/// without copying it into a [`Value`]).
pub fn dialect_of(schema: &JsonObject) -> Result<jsonschema::Draft, String> {
    match schema.get("$schema") {
        None => Ok(jsonschema::Draft::Draft202012),
        Some(Value::String(uri)) => {
            let uri = uri.trim_end_matches('#');
            let uri = uri
                .strip_prefix("https://")
                .or_else(|| uri.strip_prefix("http://"))
                .unwrap_or(uri);
            match uri {
                "json-schema.org/draft-07/schema" => Ok(jsonschema::Draft::Draft7),
                "json-schema.org/draft/2020-12/schema" => Ok(jsonschema::Draft::Draft202012),
                "json-schema.org/draft/2019-09/schema" => Ok(jsonschema::Draft::Draft201909),
                "json-schema.org/draft-06/schema" => Ok(jsonschema::Draft::Draft6),
                "json-schema.org/draft-04/schema" => Ok(jsonschema::Draft::Draft4),
                other => Err(format!("unknown $schema `{other}`")),
            }
        }
        Some(_) => Err("`$schema` is not a string".into()),
    }
}

/// The human name of a dialect, e.g. `2020-12`.
pub fn dialect_name(draft: jsonschema::Draft) -> &'static str {
    match draft {
        jsonschema::Draft::Draft4 => "draft-04",
        jsonschema::Draft::Draft6 => "draft-06",
        jsonschema::Draft::Draft7 => "draft-07",
        jsonschema::Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}

/// Compile `schema` the way `call` will validate arguments: spec dialect,
/// no remote `$ref`s. Returns the dialect name on success.
pub fn compile(schema: &Value) -> Result<jsonschema::Validator, String> {
    let draft = schema_dialect(schema)?;
    jsonschema::options()
        .with_draft(draft)
        .with_retriever(RefuseAll)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Keywords whose compilation can fail where the metaschema passes: a
/// regex that does not compile (`pattern`, `patternProperties`), a `$ref`
/// that does not resolve or is refused, an id or anchor the registry
/// rejects, a nested `$schema` (its own dialect and vocabularies), and the
/// format and content keywords. A schema with any of these anywhere (as any
/// object key, property names included, so the test is conservative) is
/// compiled; any other 2020-12 schema is judged by its metaschema alone.
const COMPILE_ONLY: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "pattern",
    "patternProperties",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Whether any object in `value` has a [`COMPILE_ONLY`] key.
fn needs_compile(value: &Value) -> bool {
    match value {
        Value::Object(map) => object_needs_compile(map),
        Value::Array(items) => items.iter().any(needs_compile),
        _ => false,
    }
}

/// [`needs_compile`] of a schema object.
fn object_needs_compile(map: &JsonObject) -> bool {
    map.iter()
        .any(|(k, v)| COMPILE_ONLY.contains(&k.as_str()) || needs_compile(v))
}

/// Whether `schema` compiles (why not, when it does not), with the verdict
/// and the message [`compile`] gives, at a fraction of its cost. Compiling
/// starts by validating the schema against its draft's metaschema; for a
/// schema without `$schema` (2020-12) and without [`COMPILE_ONLY`] keywords
/// nothing after that step can fail, so the cached metaschema validator
/// decides alone. Everything else, and every schema the metaschema refuses
/// (for the message), is compiled.
pub fn schema_verdict(schema: &JsonObject) -> Result<(), String> {
    value_verdict(&Value::Object(schema.clone()))
}

/// [`schema_verdict`] of a schema already held as a [`Value`].
fn value_verdict(schema: &Value) -> Result<(), String> {
    if needs_compile(schema) || !jsonschema::draft202012::meta::is_valid(schema) {
        return compile(schema).map(|_| ());
    }
    Ok(())
}

/// The first draft-07 keyword that means something else (or nothing)
/// under 2020-12, anywhere in the schema (depth first, in key order), as
/// `(json pointer, keyword)`. The pointer is written only for the finding,
/// not for every node passed on the way: on a big catalog this walk visits
/// every schema node once.
fn first_draft07_ism(schema: &JsonObject) -> Option<(String, &'static str)> {
    fn in_object<'a>(
        map: &'a JsonObject,
        path: &mut Vec<Step<'a>>,
    ) -> Option<(String, &'static str)> {
        if let Some((keyword, what)) = own_ism(map) {
            let mut pointer = String::new();
            for step in path.iter() {
                match step {
                    Step::Key(k) => pointer.push_str(&format!("/{k}")),
                    Step::Index(i) => pointer.push_str(&format!("/{i}")),
                }
            }
            return Some((format!("{pointer}/{keyword}"), what));
        }
        map.iter().find_map(|(k, v)| {
            path.push(Step::Key(k));
            let found = in_value(v, path);
            path.pop();
            found
        })
    }
    fn in_value<'a>(value: &'a Value, path: &mut Vec<Step<'a>>) -> Option<(String, &'static str)> {
        match value {
            Value::Object(map) => in_object(map, path),
            Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
                path.push(Step::Index(i));
                let found = in_value(v, path);
                path.pop();
                found
            }),
            _ => None,
        }
    }
    in_object(schema, &mut Vec::new())
}

/// One step of the walk in [`first_draft07_ism`].
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The first draft-07 keyword of one schema object itself (not of its
/// children): its key and how the lint names it.
fn own_ism(map: &JsonObject) -> Option<(&'static str, &'static str)> {
    if matches!(map.get("items"), Some(Value::Array(_))) {
        return Some(("items", "items (array form)"));
    }
    if map.contains_key("additionalItems") {
        return Some(("additionalItems", "additionalItems"));
    }
    if map.contains_key("dependencies") {
        return Some(("dependencies", "dependencies"));
    }
    None
}

/// Whether each tool's inputSchema compiles (why not, when it does not),
/// in tool order ([`schema_verdict`] of each). Judging schemas is what lint
/// costs on a big catalog, and each is independent, so the tools are shared
/// out across the cores.
fn compile_all(tools: &[Tool]) -> Vec<Result<(), String>> {
    let one = |tool: &Tool| schema_verdict(&tool.input_schema);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(tools.len() / PER_THREAD);
    if threads <= 1 {
        return tools.iter().map(one).collect();
    }
    let chunk = tools.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = tools
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|part| part.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Judges tool schemas on worker threads while the listing goes on: each
/// page is handed over as it arrives ([`Compiler::page`]), so on a big
/// catalog linting overlaps with the server sending the next pages instead
/// of following them.
///
/// The metaschema check wants each schema as a [`Value`], and a tool holds
/// its schema as an object; rather than copy every schema into a `Value`,
/// the compiler moves it out of its freshly listed tool, to a worker and
/// back: [`Compiler::finish`] returns each to its tool.
#[derive(Default)]
pub struct Compiler {
    inner: std::sync::Mutex<Option<Workers>>,
}

/// The running workers: the queue they share, and their handles.
struct Workers {
    queue: std::sync::mpsc::Sender<Batch>,
    next: usize,
    handles: Vec<std::thread::JoinHandle<Vec<Verdict>>>,
}

/// Whether the schema of the tool at an index compiles, and the schema,
/// going back to its tool.
type Verdict = (usize, Result<(), String>, Value);

/// Schemas to judge (moved out of their tools), with the index of the first.
type Batch = (usize, Vec<Value>);

impl Compiler {
    /// Queue one page's schemas (the workers start with the first page).
    /// The page's tools are left with empty schemas until [`Self::finish`]
    /// gives them back.
    pub fn page(&self, tools: &mut [Tool]) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let workers = inner.get_or_insert_with(|| Workers::start(tools.len()));
        for part in tools.chunks_mut(PER_THREAD / 2) {
            let first = workers.next;
            workers.next += part.len();
            // Unique right after the listing, so this moves, never copies.
            let schemas = part
                .iter_mut()
                .map(|t| Value::Object(std::mem::take(Arc::make_mut(&mut t.input_schema))))
                .collect();
            if let Err(returned) = workers.queue.send((first, schemas)) {
                // No worker is left to judge them: give the schemas back
                // now, and `lint_compiled` judges these tools itself.
                let (_, schemas) = returned.0;
                for (tool, schema) in part.iter_mut().zip(schemas) {
                    tool.input_schema = Arc::new(into_object(schema));
                }
            }
        }
    }

    /// Give every queued schema back to its tool in `tools` (all the tools
    /// listed, in order), and say whether each compiles, in that order.
    pub fn finish(&self, tools: &mut [Tool]) -> Vec<Result<(), String>> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(Workers {
            queue,
            next,
            handles,
        }) = inner
        else {
            return Vec::new();
        };
        drop(queue);
        let mut all: Vec<Option<Result<(), String>>> = vec![None; next];
        for handle in handles {
            for (i, verdict, schema) in handle.join().unwrap_or_default() {
                if let Some(tool) = tools.get_mut(i) {
                    tool.input_schema = Arc::new(into_object(schema));
                }
                if let Some(slot) = all.get_mut(i) {
                    *slot = Some(verdict);
                }
            }
        }
        all.into_iter()
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default()
    }
}

/// A schema moved into a [`Value`] for judging, as the object it came from.
fn into_object(schema: Value) -> JsonObject {
    match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

impl Workers {
    fn start(first_page: usize) -> Workers {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(first_page.div_ceil(PER_THREAD))
            .max(1);
        let (queue, batches) = std::sync::mpsc::channel::<Batch>();
        let batches = Arc::new(std::sync::Mutex::new(batches));
        let handles = (0..threads)
            .map(|_| {
                let batches = batches.clone();
                std::thread::spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let batch = batches.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok((first, schemas)) = batch else {
                            return done;
                        };
                        for (i, schema) in schemas.into_iter().enumerate() {
                            // A validator that panicked on a hostile schema
                            // must not take the schema (or the others) along.
                            let verdict = std::panic::catch_unwind(|| value_verdict(&schema))
                                .unwrap_or_else(|_| {
                                    Err("the schema validator failed on this schema".into())
                                });
                            done.push((first + i, verdict, schema));
                        }
                    }
                })
            })
            .collect();
        Workers {
            queue,
            next: 0,
            handles,
        }
    }
}

/// Below this many tools per thread, one thread lints them all (a thread
/// costs more than it saves).
const PER_THREAD: usize = 64;

fn valid_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A lint's severity: a warning, or an error under `--strict`.
fn severity(strict: bool) -> Severity {
    if strict {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// A server that advertises the `tools` capability but lists none: valid
/// MCP, yet usually a server still waiting for its configuration.
pub fn no_tools(strict: bool) -> Lint {
    Lint {
        code: "no-tools",
        tool: None,
        message: "advertises the tools capability but lists no tools; it may need configuration (env, args) before it exposes any".into(),
        severity: severity(strict),
    }
}

/// Lint every tool; `strict` turns warnings into errors.
pub fn lint_tools(tools: &[Tool], end: PageEnd, strict: bool) -> Vec<Lint> {
    lint_compiled(tools, compile_all(tools), end, strict)
}

/// A finding before it has a severity: its code and its message.
type Finding = (&'static str, String);

/// [`lint_tools`] with whether each schema compiles already known (from a
/// [`Compiler`] that ran while the tools were listed); a list that does not
/// match `tools` is computed again.
pub fn lint_compiled(
    tools: &[Tool],
    compiled: Vec<Result<(), String>>,
    end: PageEnd,
    strict: bool,
) -> Vec<Lint> {
    let compiled = if compiled.len() == tools.len() {
        compiled
    } else {
        compile_all(tools)
    };
    let severity = severity(strict);
    let mut lints = Vec::new();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for tool in tools {
        *counts.entry(tool.name.as_ref()).or_default() += 1;
    }
    let mut reported = std::collections::HashSet::new();
    for (tool, compiled) in tools.iter().zip(&compiled) {
        let name = tool.name.as_ref();
        let repeated = (counts[name] > 1 && reported.insert(name)).then(|| {
            let message = format!(
                "tool `{name}` is listed {} times; it is held (never served nor callable) until the server lists it once",
                counts[name]
            );
            ("duplicate-name", message)
        });
        let findings = repeated
            .into_iter()
            .chain(naming_findings(tool))
            .chain(schema_finding(name, &tool.input_schema, compiled));
        lints.extend(findings.map(|(code, message)| Lint {
            code,
            tool: Some(name.to_string()),
            message,
            // A name listed twice is never served nor callable (which
            // definition a call reaches is the server's choice): an error.
            severity: if code == "duplicate-name" {
                Severity::Error
            } else {
                severity
            },
        }));
    }
    lints.extend(page_end_finding(end).map(|(code, message)| Lint {
        code,
        tool: None,
        message,
        severity,
    }));
    lints
}

/// A tool's name outside what clients accept, and a description too long.
fn naming_findings(tool: &Tool) -> impl Iterator<Item = Finding> + '_ {
    let name = tool.name.as_ref();
    let invalid = (!valid_name(name)).then(|| {
        // Written out outside ASCII: the name is wrong for what cannot be seen.
        let shown = crate::text::sanitize_ascii(name);
        (
            "invalid-name",
            format!(
                "tool name `{shown}` is outside [A-Za-z0-9_.-]{{1,128}}; some clients will reject it"
            ),
        )
    });
    let len = tool.description.as_ref().map_or(0, |d| d.chars().count());
    let long = (len > MAX_DESCRIPTION).then(|| {
        ("long-description", format!(
            "tool `{name}` has a {len}-character description (over {MAX_DESCRIPTION}); it costs every client context"
        ))
    });
    invalid.into_iter().chain(long)
}

/// A tool's input schema that does not compile, or that compiles only
/// because, without `$schema`, a draft-07 keyword means something else.
fn schema_finding(
    name: &str,
    schema: &serde_json::Map<String, Value>,
    compiled: &Result<(), String>,
) -> Option<Finding> {
    let declared = schema.get("$schema").is_some();
    // Only a schema without `$schema`, or one that does not compile,
    // can draw a finding that names a draft-07 keyword.
    let ism = match compiled {
        Ok(()) if declared => None,
        _ => first_draft07_ism(schema),
    };
    match (compiled, &ism) {
        (Ok(()), Some((at, keyword))) if !declared => Some((
            "schema-dialect",
            format!(
                "tool `{name}`: inputSchema has no $schema, so it is JSON Schema 2020-12, where `{keyword}` (at {at}) does not mean what draft-07 means; the server should declare \"$schema\": \"http://json-schema.org/draft-07/schema#\""
            ),
        )),
        (Ok(()), _) => None,
        (Err(err), _) => {
            let dialect = dialect_of(schema).map(dialect_name).unwrap_or("unknown");
            let message = match (declared, &ism) {
                (false, Some((at, keyword))) => format!(
                    "tool `{name}`: inputSchema does not compile as JSON Schema 2020-12 (no $schema): `{keyword}` at {at} is draft-07 syntax; the server should declare \"$schema\": \"http://json-schema.org/draft-07/schema#\" ({err})"
                ),
                _ => format!("tool `{name}`: inputSchema does not compile as {dialect}: {err}"),
            };
            Some(("schema-invalid", message))
        }
    }
}

/// How the listing ended, when it did not end well.
fn page_end_finding(end: PageEnd) -> Option<Finding> {
    match end {
        PageEnd::RepeatedCursor => Some((
            "repeated-cursor",
            "tools/list repeated a cursor it had already sent; listing stopped there".into(),
        )),
        PageEnd::PageCap => Some((
            "page-cap",
            "tools/list hit the page cap; the list may be incomplete".into(),
        )),
        PageEnd::Complete | PageEnd::EmptyCursor => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, schema: Value) -> Tool {
        Tool::new(name.to_string(), "d", schema.as_object().unwrap().clone())
    }

    #[test]
    fn draft07_without_schema_is_flagged_with_keyword_and_fix() {
        let t = tool(
            "pairs",
            json!({"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"},{"type":"number"}]}}}),
        );
        let lints = lint_tools(&[t], PageEnd::Complete, false);
        assert_eq!(lints.len(), 1, "{lints:?}");
        assert!(
            lints[0].message.contains("items (array form)"),
            "{}",
            lints[0].message
        );
        assert!(
            lints[0].message.contains("draft-07"),
            "{}",
            lints[0].message
        );
        assert_eq!(lints[0].tool.as_deref(), Some("pairs"));
    }

    #[test]
    fn explicit_draft07_is_respected() {
        let t = tool(
            "pairs",
            json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}}),
        );
        assert!(lint_tools(&[t], PageEnd::Complete, false).is_empty());
    }

    #[test]
    fn remote_refs_are_refused() {
        let t = tool(
            "r",
            json!({"type":"object","properties":{"x":{"$ref":"http://127.0.0.1:9/evil.json"}}}),
        );
        let lints = lint_tools(&[t], PageEnd::Complete, true);
        assert_eq!(lints[0].severity, Severity::Error);
        assert!(
            lints[0].message.contains("never fetches"),
            "{}",
            lints[0].message
        );
        let f = tool(
            "f",
            json!({"type":"object","properties":{"x":{"$ref":"file:///etc/passwd"}}}),
        );
        assert!(
            lint_tools(&[f], PageEnd::Complete, false)[0]
                .message
                .contains("never fetches")
        );
    }

    #[test]
    fn parallel_lint_gives_the_verdicts_of_one_thread_in_tool_order() {
        let tools: Vec<Tool> = (0..PER_THREAD * 5)
            .map(|n| match n % 3 {
                0 => tool(&format!("ok{n}"), json!({"type":"object","properties":{"a":{"type":"string"}}})),
                1 => tool(&format!("bad{n}"), json!({"type":"object","properties":{"a":{"type":7}}})),
                _ => tool(&format!("d7_{n}"), json!({"type":"object","properties":{"a":{"type":"object","dependencies":{"x":["y"]}}}})),
            })
            .collect();
        let parallel = compile_all(&tools);
        // The same, page by page while "listing", in any page sizes, and
        // every schema back in its tool afterwards.
        for size in [1, 7, PER_THREAD * 2] {
            let compiler = Compiler::default();
            let mut listed = tools.clone();
            listed.chunks_mut(size).for_each(|page| compiler.page(page));
            assert_eq!(compiler.finish(&mut listed), parallel, "pages of {size}");
            assert_eq!(listed, tools, "pages of {size}");
        }
        assert!(Compiler::default().finish(&mut []).is_empty());
        let one: Vec<_> = tools
            .iter()
            .map(|t| compile(&Value::Object((*t.input_schema).clone())).map(|_| ()))
            .collect();
        assert_eq!(parallel, one);
        let lints = lint_tools(&tools, PageEnd::Complete, false);
        let named: Vec<_> = lints.iter().map(|l| l.tool.clone().unwrap()).collect();
        let expected: Vec<_> = tools
            .iter()
            .map(|t| t.name.to_string())
            .filter(|n| !n.starts_with("ok"))
            .collect();
        assert_eq!(named, expected);
        assert!(
            lints
                .iter()
                .all(|l| if l.tool.as_deref().unwrap().starts_with("bad") {
                    l.code == "schema-invalid"
                } else {
                    l.code == "schema-dialect"
                })
        );
    }

    #[test]
    fn names_duplicates_and_long_descriptions() {
        let ok = json!({"type":"object"});
        let mut long = tool("long", ok.clone());
        long.description = Some("x".repeat(MAX_DESCRIPTION + 1).into());
        let tools = vec![
            tool("a", ok.clone()),
            tool("a", ok.clone()),
            tool("bad name!", ok.clone()),
            long,
        ];
        let codes: Vec<_> = lint_tools(&tools, PageEnd::Complete, false)
            .iter()
            .map(|l| l.code)
            .collect();
        assert_eq!(
            codes,
            vec!["duplicate-name", "invalid-name", "long-description"]
        );
        assert!(valid_name(&"a".repeat(128)) && !valid_name(&"a".repeat(129)) && !valid_name(""));
    }
}
