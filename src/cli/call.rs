//! `mcpctl call NAME TOOL`: call a tool through the supervisor, or
//! `--direct` with a one-shot connection (for CI).
//!
//! Arguments are validated against the tool's `inputSchema` before
//! anything is sent (no `$schema` means 2020-12, draft-07 is respected,
//! remote `$ref`s are never fetched); a call is never retried.
//!
//! A call may talk back (see [`crate::mcp::talk`] and [`super::talkback`]):
//! the server's questions are asked on the terminal or answered from
//! `--answers`/`--accept-defaults`, `input_required` rounds are followed,
//! progress is shown on stderr, and Ctrl-C or `--timeout` tells the server
//! the call is cancelled. Through the supervisor the same happens over the
//! socket ([`crate::supervisor::protocol::Op::Talk`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde_json::{Map, Value, json};

use super::Context;
use super::lifecycle;
use super::talkback::{Answerer, Progress, ProgressMode};
use crate::error::{ExitCode, Result, UsageError};
use crate::mcp::talk::{Router, Talk};
use crate::mcp::{ConnectOptions, Connection};
use crate::output;
use crate::supervisor::SupervisorError;
use crate::supervisor::admit::{self, Lister};
use crate::supervisor::protocol::{Body, CallRequest, Op};

const EXAMPLES: &str = "\
Text content is printed as is, structuredContent as JSON; images and
audio are written to --output-dir (else summarised). A result with
isError exits 1. Stale --catalog-id / --binding-id and schema-invalid
arguments are refused before anything is sent (exit 4 and 2).

When the server asks for input (elicitation), each field is asked on a
terminal; without one the question is declined unless --answers or
--accept-defaults answers it. A URL is printed, and opened with --open.
Progress is a bar on a terminal's stderr (--progress json: JSON lines on
stderr). Ctrl-C or --timeout cancels the call on the server too.

Exit codes: 0 ok, 1 the tool failed (isError), the call failed or timed
out, 2 invalid arguments, 3 unknown server or tool, 4 not running or stale
id, 5 supervisor unreachable, 130 interrupted (Ctrl-C).

Examples:
  mcpctl call time get_current_time --arg timezone=Europe/Paris
  mcpctl call everything echo --args '{\"message\": \"hi\"}'
  mcpctl call everything get-tiny-image --output-dir ./out
  mcpctl call billing refund --catalog-id \"$(mcpctl tools billing --json | jq -r .catalog_id)\" --arg id=42
  mcpctl call time get_current_time --direct --arg timezone=UTC   # no supervisor
  mcpctl call deploy release --answers '{\"confirm\": true}'        # answer a form unattended
  mcpctl call deploy release --answers @answers.json --progress json
  mcpctl call deploy release --accept-defaults                    # accept every default
  mcpctl call github login --open                                 # open a URL the server sends";

/// Arguments of `mcpctl call`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// The tool.
    #[arg(value_name = "TOOL", add = clap_complete::engine::ArgValueCandidates::new(super::complete::tool_names))]
    pub tool: String,
    /// The arguments as one JSON object.
    #[arg(long = "args", value_name = "JSON", conflicts_with = "arg")]
    pub args_json: Option<String>,
    /// One argument, KEY=VALUE; VALUE is parsed as JSON when it can be, else
    /// taken as a string (repeatable).
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// Refuse the call unless this is still the server's catalog id.
    #[arg(long, value_name = "ID")]
    pub catalog_id: Option<String>,
    /// Refuse the call unless this is still the server's binding id.
    #[arg(long, value_name = "ID")]
    pub binding_id: Option<String>,
    /// Seconds to wait for the answer (default 60).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub timeout: f64,
    /// Write images and audio here.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Connect directly, without the supervisor (spawns and ends the server).
    #[arg(long)]
    pub direct: bool,
    /// Send the arguments even if the schema cannot be compiled or they do not match.
    #[arg(long)]
    pub no_validate: bool,
    /// Answer the server's questions (elicitation) with these values, by
    /// field name: a JSON object, or @FILE holding one.
    #[arg(long, value_name = "JSON|@FILE")]
    pub answers: Option<String>,
    /// Accept a question whose every required field has a default, with
    /// the defaults, instead of declining it (no terminal needed).
    #[arg(long)]
    pub accept_defaults: bool,
    /// Open a URL the server asks the user to visit with $BROWSER (it is
    /// always printed; mcpctl never fetches it).
    #[arg(long)]
    pub open: bool,
    /// How to show the server's progress on stderr: a bar on a terminal
    /// (auto), JSON lines (json), or nothing (none). Never on stdout.
    #[arg(long, value_name = "MODE", value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
}

fn parse_arguments(args: &Args) -> Result<Map<String, Value>> {
    if let Some(text) = &args.args_json {
        return match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(UsageError::new(
                "--args must be a JSON object",
                "e.g. --args '{\"key\": \"value\"}'",
            )
            .into()),
            Err(e) => Err(UsageError::new(
                format!("--args is not valid JSON: {e}"),
                "e.g. --args '{\"key\": \"value\"}'",
            )
            .into()),
        };
    }
    let mut map = Map::new();
    for pair in &args.arg {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(UsageError::new(
                format!("--arg `{pair}` has no `=`"),
                "write --arg key=value",
            )
            .into());
        };
        let value = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string()));
        map.insert(k.to_string(), value);
    }
    Ok(map)
}

/// Call the tool and print the result.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let arguments = parse_arguments(&args)?;
    let timeout = crate::validate::seconds::duration("--timeout", args.timeout)
        .map_err(|why| UsageError::new(why, "e.g. --timeout 30"))?;
    let progress = Arc::new(Progress::new(args.progress));
    let answerer = Arc::new(Answerer::new(
        args.answers.as_deref(),
        args.accept_defaults,
        args.open,
        progress.clone(),
    )?);
    let called = if args.direct {
        direct(ctx, &args, arguments, timeout, &answerer, &progress)
    } else {
        supervised(ctx, &args, arguments, timeout, &answerer, &progress)
    };
    progress.finish();
    let (binding, catalog, result) = called?;
    print_result(ctx, &args, binding, catalog, &result, &answerer.outcomes())
}

/// Through the supervisor: an [`Op::Talk`], answering its questions here.
fn supervised(
    ctx: &Context,
    args: &Args,
    arguments: Map<String, Value>,
    timeout: Duration,
    answerer: &Answerer,
    progress: &Arc<Progress>,
) -> Result<Called> {
    let mut client = lifecycle::connect(ctx)?;
    let bar = progress.clone();
    super::interrupt::exit_on_signal("the supervisor cancels the call on the server", move || {
        bar.clear_for_exit()
    });
    let request = CallRequest {
        name: args.name.clone(),
        tool: args.tool.clone(),
        arguments,
        catalog_id: args.catalog_id.clone(),
        binding_id: args.binding_id.clone(),
        timeout_ms: Some(timeout.as_millis() as u64),
        validate: !args.no_validate,
        relay: None,
    };
    let talked = client.talk(request.clone(), |interim| match interim {
        Body::Asked { question, params } => Some(Op::Answer {
            question,
            result: answerer.answer(&params),
        }),
        Body::Progress { progress: p } => {
            progress.show(&p);
            None
        }
        _ => None,
    });
    let body = match talked {
        // A supervisor older than `talk` refused it unread: nothing ran,
        // so a plain call (its questions declined) is not a retry.
        Err(SupervisorError::Remote(e))
            if e.code == crate::supervisor::protocol::ErrorCode::Invalid
                && e.message.contains("unknown variant `talk`") =>
        {
            output::note(
                "the running supervisor is older than interactive calls: its questions are declined and progress is not shown (`mcpctl supervisor stop` lets the next command start a new one)",
            );
            client.request(Op::Call(request))?
        }
        other => other?,
    };
    {
        let Body::Call {
            binding_id,
            catalog_id,
            result,
        } = body
        else {
            return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
        };
        Ok((Some(binding_id), Some(catalog_id), result))
    }
}

type Called = (Option<String>, Option<String>, Value);

fn direct(
    ctx: &Context,
    args: &Args,
    arguments: Map<String, Value>,
    timeout: Duration,
    answerer: &Arc<Answerer>,
    progress: &Arc<Progress>,
) -> Result<Called> {
    let catalog = ctx.catalog()?;
    let def = catalog.get(&args.name)?.clone();
    ctx.require_trusted(&def.source)?;
    let rt = super::runtime()?;
    // The grace lets a Ctrl-C'd call tell the server before it is stopped.
    let grace = Duration::from_secs(3);
    super::interrupt::block_on_graceful(&rt, grace, |mut stop| async move {
        let opts = ConnectOptions {
            router: Some(Router::default()),
            ..ConnectOptions::default()
        };
        let connected = tokio::select! {
            connected = Connection::connect(&def, &opts) => connected,
            _ = stop.changed() => return Ok((None, None, Value::Null)),
        };
        let (mut conn, deadline) = connected?;
        let redactor = conn.redactor().clone();
        let (talk, shown) = answer_here(answerer.clone(), progress.clone(), redactor);
        let work = async {
            let budget = opts.budget.unwrap_or_else(|| def.connect_budget());
            let pages = conn
                .list_tools(deadline, budget, crate::mcp::connection::DEFAULT_MAX_PAGES)
                .await?;
            let tool = admit::find_tool(&pages.tools, &args.name, &args.tool, Lister::Direct)
                .map_err(SupervisorError::Remote)?;
            // What the supervisor would hold is not called directly either.
            let allow = ctx.allow_insecure_file || crate::defs::trust::allowed_by_env();
            admit::refuse_held(&def.source, &def.name, &pages.tools, &args.tool, allow)
                .map_err(SupervisorError::Remote)?;
            if !args.no_validate {
                admit::check_arguments(
                    &admit::compile(tool),
                    &args.name,
                    &args.tool,
                    &arguments,
                    Lister::Direct,
                )
                .map_err(SupervisorError::Remote)?;
            }
            let result = conn
                .call_tool_talking(&args.tool, Some(arguments), timeout, talk)
                .await?;
            // The call is over and its progress all queued: show it
            // before the result.
            let _ = shown.await;
            let mut result = serde_json::to_value(result).unwrap_or(Value::Null);
            conn.redactor().apply_json(&mut result);
            Ok::<_, crate::error::Error>(result)
        };
        // Dropping the call on a signal sends `notifications/cancelled`;
        // `close` waits for it to be sent before stopping the server.
        let outcome = tokio::select! {
            outcome = work => Some(outcome),
            _ = stop.changed() => None,
        };
        conn.close().await;
        match outcome {
            Some(outcome) => Ok((None, None, outcome?)),
            None => Ok((None, None, Value::Null)),
        }
    })?
}

/// A [`Talk`] answered in this process: questions on a blocking thread
/// (prompts), progress shown as it comes, by the returned task, which ends
/// once the call is over and everything it was sent is shown.
/// What the server says during a direct call, answered and shown here, and
/// redacted with the entry's secrets first, as the supervisor's relay does.
fn answer_here(
    answerer: Arc<Answerer>,
    progress: Arc<Progress>,
    redactor: crate::defs::redact::Redactor,
) -> (Talk, tokio::task::JoinHandle<()>) {
    let shown_redactor = redactor.clone();
    let (questions, mut asked) = tokio::sync::mpsc::channel::<crate::mcp::talk::Question>(1);
    let (mailbox, mut said) = crate::mcp::interim::mailbox();
    tokio::spawn(async move {
        while let Some(question) = asked.recv().await {
            let answerer = answerer.clone();
            let mut params = question.params;
            redactor.apply_json(&mut params);
            let answer = tokio::task::spawn_blocking(move || answerer.answer(&params))
                .await
                .unwrap_or_else(|_| crate::mcp::talk::decline());
            let _ = question.reply.send(answer);
        }
    });
    let shown = tokio::spawn(async move {
        while let Some(next) = said.recv().await {
            let crate::mcp::interim::Interim::Progress(p) = next else {
                continue;
            };
            let mut shown = serde_json::to_value(p).unwrap_or(Value::Null);
            shown_redactor.apply_json(&mut shown);
            progress.show(&shown);
        }
    });
    (Talk::new(Some(questions), Some(mailbox)), shown)
}

fn extension(mime: &str) -> &str {
    match mime {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "image/svg+xml" => "svg",
        "audio/wav" | "audio/x-wav" => "wav",
        "audio/mpeg" => "mp3",
        _ => "bin",
    }
}

fn save(dir: &Path, name: String, data: &str) -> Result<PathBuf> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.as_bytes())
        .map_err(|e| {
            UsageError::new(
                format!("the server sent invalid base64: {e}"),
                "report it to the server's authors",
            )
        })?;
    std::fs::create_dir_all(dir).map_err(UsageError::Output)?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(UsageError::Output)?;
    Ok(path)
}

/// Print a tool's result (or `--json`'s document) and map `isError` to
/// the exit code.
fn print_result(
    ctx: &Context,
    args: &Args,
    binding: Option<String>,
    catalog: Option<String>,
    result: &Value,
    elicitations: &[Value],
) -> Result<ExitCode> {
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (lines, files) = content_lines(args, result)?;
    if ctx.json {
        output::print_json(&json!({
            "server": args.name, "tool": args.tool, "binding_id": binding, "catalog_id": catalog,
            "is_error": is_error, "files": files, "result": result,
            "elicitations": elicitations,
        }))?;
    } else {
        for line in &lines {
            output::line(line)?;
        }
        // Servers often repeat structuredContent as a JSON text block; print it once.
        let repeated = |v: &Value| {
            lines
                .iter()
                .any(|l| serde_json::from_str::<Value>(l).is_ok_and(|t| &t == v))
        };
        if let Some(structured) = result
            .get("structuredContent")
            .filter(|v| !v.is_null() && !repeated(v))
        {
            output::line(serde_json::to_string_pretty(structured).unwrap_or_default())?;
        }
    }
    if is_error {
        output::error(
            &format!("the tool `{}` reported an error (isError)", args.tool),
            None,
        );
        return Ok(ExitCode::Failed);
    }
    Ok(ExitCode::Success)
}

/// A line per content block (images and audio written to `--output-dir`
/// when given), and the files written.
fn content_lines(args: &Args, result: &Value) -> Result<(Vec<String>, Vec<PathBuf>)> {
    let mut files = Vec::new();
    let mut lines = Vec::new();
    let empty = Vec::new();
    let content = result
        .get("content")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    for (i, block) in content.iter().enumerate() {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "text" => lines.push(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
            "image" | "audio" => lines.push(media_line(args, i, kind, block, &mut files)?),
            "resource" | "resource_link" => {
                lines.push(serde_json::to_string_pretty(block).unwrap_or_default())
            }
            _ => lines.push(block.to_string()),
        }
    }
    Ok((lines, files))
}

/// An image or audio block: written to `--output-dir` (and the path noted
/// in `files`), else described by its size.
fn media_line(
    args: &Args,
    i: usize,
    kind: &str,
    block: &Value,
    files: &mut Vec<PathBuf>,
) -> Result<String> {
    let mime = block
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or("application/octet-stream");
    let data = block.get("data").and_then(Value::as_str).unwrap_or("");
    Ok(match &args.output_dir {
        Some(dir) => {
            let path = save(dir, format!("{}-{i}.{}", args.tool, extension(mime)), data)?;
            let line = format!("[{kind} {mime} written to {}]", path.display());
            files.push(path);
            line
        }
        None => format!(
            "[{kind} {mime}, {} base64 bytes; pass --output-dir to save it]",
            data.len()
        ),
    })
}
