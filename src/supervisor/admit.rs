//! What is checked before a tool call is sent, by the supervisor's owner and
//! by `call --direct` alike: the tool exists, and the arguments match its
//! `inputSchema` (compiled as `check` lints it: spec dialect, no remote
//! `$ref`s), it is not held (listed twice by the server, or drifted from
//! the lockfile). One place, so both paths refuse with the same words.

use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::{Map, Value};

use super::protocol::{ErrorCode, WireError};
use crate::lock::guard;

/// At most this many schema errors are named in one refusal.
const MAX_ERRORS: usize = 5;

/// A tool's compiled validator, or why its schema does not compile.
pub type Compiled = Result<Arc<jsonschema::Validator>, String>;

/// Compile `tool`'s `inputSchema` for validating call arguments.
pub fn compile(tool: &Tool) -> Compiled {
    let schema = Value::Object((*tool.input_schema).clone());
    crate::mcp::lint::compile(&schema).map(Arc::new)
}

/// How the operator can see a server's tools and their schemas, for hints:
/// `mcpctl tools NAME` under the supervisor, `check` for a direct call.
#[derive(Debug, Clone, Copy)]
pub enum Lister {
    /// The supervisor has the catalog.
    Supervisor,
    /// No supervisor: a one-shot check lists them.
    Direct,
}

impl Lister {
    fn list(self, server: &str) -> String {
        match self {
            Lister::Supervisor => format!("mcpctl tools {server}"),
            Lister::Direct => format!("mcpctl check {server}"),
        }
    }

    fn schemas(self, server: &str) -> String {
        match self {
            Lister::Supervisor => format!("mcpctl tools {server} --json"),
            Lister::Direct => format!("mcpctl check {server} --json"),
        }
    }
}

/// The tool named `tool` of `server`, or a `not_found` refusal.
pub fn find_tool<'a>(
    tools: &'a [Tool],
    server: &str,
    tool: &str,
    lister: Lister,
) -> Result<&'a Tool, WireError> {
    tools
        .iter()
        .find(|t| t.name == tool)
        .ok_or_else(|| no_such_tool(server, tool, lister))
}

/// The `not_found` refusal of a call to a tool `server` does not list.
pub fn no_such_tool(server: &str, tool: &str, lister: Lister) -> WireError {
    WireError::new(
        ErrorCode::NotFound,
        format!("`{server}` has no tool `{tool}`"),
    )
    .hint(format!("list them with `{}`", lister.list(server)))
}

/// Refuse `arguments` (nothing is sent) unless they match `tool`'s schema;
/// a schema that does not compile refuses too (`--no-validate` skips this).
pub fn check_arguments(
    compiled: &Compiled,
    server: &str,
    tool: &str,
    arguments: &Map<String, Value>,
    lister: Lister,
) -> Result<(), WireError> {
    let validator = compiled.as_ref().map_err(|why| {
        WireError::new(
            ErrorCode::Invalid,
            format!(
                "the inputSchema of `{tool}` cannot be compiled, so the arguments cannot be validated (not sent): {why}"
            ),
        )
        .hint("pass --no-validate to send them unvalidated; the server should declare its $schema")
    })?;
    let args = Value::Object(arguments.clone());
    let errors: Vec<String> = validator
        .iter_errors(&args)
        .take(MAX_ERRORS)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{at}: {e}")
            }
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(WireError::new(
        ErrorCode::Invalid,
        format!(
            "arguments for `{tool}` do not match its inputSchema (not sent): {}",
            errors.join("; ")
        ),
    )
    .hint(format!("see the schema with `{}`", lister.schemas(server))))
}

/// The refusal of a tool the server lists twice.
pub fn listed_twice(server: &str, tool: &str) -> WireError {
    WireError::new(
        ErrorCode::Conflict,
        format!(
            "`{server}`'s tool `{}` is {}: which definition a call reaches is the server's choice, so it is held",
            crate::output::sanitize(tool),
            crate::lock::LISTED_TWICE
        ),
    )
    .hint("ask the server's maintainers to list each tool once; `mcpctl check` names it")
}

/// The refusal of an entry held for drift (exit 4), with the way to
/// review and approve it.
pub fn drifted(server: &str, verdict: &guard::Verdict, why: &str, what: &str) -> WireError {
    WireError::new(
        ErrorCode::Conflict,
        format!(
            "`{server}` drifted from {}: {why}; the {what} is held back until approved",
            verdict.lockfile.display()
        ),
    )
    .hint(format!(
        "review the change with `mcpctl approve {server} --dry-run`, then `mcpctl approve {server}`"
    ))
}

/// Refuse a direct call of a tool the supervisor would hold: listed twice,
/// or (when `definitions` has a lockfile) new or changed since the lock,
/// compared as the supervisor compares it.
pub fn refuse_held(
    definitions: &std::path::Path,
    server: &str,
    tools: &[Tool],
    tool: &str,
    allow_insecure_file: bool,
) -> Result<(), WireError> {
    if crate::lock::ambiguous(tools).contains(tool) {
        return Err(listed_twice(server, tool));
    }
    let listed = guard::Listed {
        tools,
        prompts: &[],
        templates: &[],
    };
    let Some(verdict) = guard::evaluate(definitions, server, listed, allow_insecure_file) else {
        return Ok(());
    };
    match verdict.held(tool) {
        None => Ok(()),
        Some(why) => Err(drifted(server, &verdict, why, "tool")),
    }
}
