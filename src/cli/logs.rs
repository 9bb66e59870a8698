//! `mcpctl logs NAME [-f] [-n N]`: a supervised server's stderr.

use std::io::{Read, Seek, SeekFrom, Write};
use std::time::Duration;

use serde_json::json;

use super::Context;
use super::lifecycle;
use crate::error::{ExitCode, Result, UsageError};
use crate::output;
use crate::supervisor::protocol::{Body, Op};

const EXAMPLES: &str = "\
Each server's stderr goes to a size-capped file (1 MiB, one rotated
generation kept), every line stamped with the time it arrived (UTC, to the
millisecond); lines whose text starts with [mcpctl] are the supervisor's own.

--json prints {name, path, lines: [{time, text}]}; with -f, one JSON object
per line instead ({schema_version, time, text, name}), flushed as it comes.

Never starts the supervisor: without one, the log it left is read.

Exit codes: 0 ok, 3 unknown name, 5 supervisor unreachable, 130 interrupted.

Examples:
  mcpctl logs time
  mcpctl logs billing -n 200
  mcpctl logs billing -f
  mcpctl logs billing -f --json | jq -r 'select(.text | test(\"error\")) | .time'";

/// Arguments of `mcpctl logs`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME", add = clap_complete::engine::ArgValueCandidates::new(super::complete::server_names))]
    pub name: String,
    /// Keep printing new lines as they arrive (until Ctrl-C).
    #[arg(short, long)]
    pub follow: bool,
    /// How many lines from the end.
    #[arg(short = 'n', long = "lines", default_value_t = 50)]
    pub lines: usize,
}

/// Print the last lines, then follow the file if asked.
pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let (path, lines) = match lifecycle::connect_existing(ctx)? {
        Some(mut client) => {
            let body = client.request(Op::Logs {
                name: args.name.clone(),
                lines: args.lines,
            })?;
            let Body::Logs { path, lines } = body else {
                return Err(UsageError::new("unexpected answer", "restart the supervisor").into());
            };
            drop(client);
            (path, lines)
        }
        None => {
            // No supervisor: read the log it left, without starting one.
            ctx.catalog()?.get(&args.name)?;
            let dir = crate::supervisor::socket::Paths::for_sources(&ctx.sources).logs;
            let path = crate::supervisor::logs::log_path(&dir, &args.name);
            lifecycle::note_not_running();
            let lines = crate::supervisor::logs::tail(&path, args.lines);
            (path.display().to_string(), lines)
        }
    };
    if ctx.json && !args.follow {
        let lines: Vec<_> = lines.iter().map(|l| line_json(l)).collect();
        output::print_json(&json!({"name": args.name, "path": path, "lines": lines}))?;
        return Ok(ExitCode::Success);
    }
    let show = |line: &str| -> Result<()> {
        if ctx.json {
            let mut entry = line_json(line);
            entry["name"] = json!(args.name);
            output::print_json_line(&entry)?;
        } else {
            output::line(output::sanitize(line))?;
        }
        Ok(())
    };
    for line in &lines {
        show(line)?;
    }
    if !args.follow {
        return Ok(ExitCode::Success);
    }
    follow(std::path::Path::new(&path), &show)
}

/// One log line as JSON: its stamp (`time`, null for an unstamped line)
/// and its text exactly as written.
fn line_json(line: &str) -> serde_json::Value {
    let (time, text) = crate::supervisor::logs::split_stamp(line);
    json!({"time": time, "text": text})
}

/// A line still unfinished after this many bytes is printed as it is, so
/// a server that never writes a newline cannot grow `logs -f` without end.
const MAX_PENDING: usize = 64 * 1024;

/// Print what is appended to `path`, reopening it when it rotates. Lines
/// are printed whole through `show` (sanitized text, or one JSON line
/// each), like the tail before them: the file holds what the server wrote,
/// raw.
fn follow(path: &std::path::Path, show: &dyn Fn(&str) -> Result<()>) -> Result<ExitCode> {
    let mut pos = std::fs::metadata(path).map_or(0, |m| m.len());
    let mut pending = Vec::new();
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let len = std::fs::metadata(path).map_or(0, |m| m.len());
        if len < pos {
            pos = 0; // rotated
        }
        if len == pos {
            continue;
        }
        if let Ok(mut f) = std::fs::File::open(path) {
            let before = pending.len();
            if f.seek(SeekFrom::Start(pos)).is_ok() && f.read_to_end(&mut pending).is_ok() {
                pos += (pending.len() - before) as u64;
                print_lines(&mut pending, show)?;
            }
        }
    }
}

/// Print and remove the complete lines at the start of `pending` (all of
/// it once it passes [`MAX_PENDING`]), each through `show`.
fn print_lines(pending: &mut Vec<u8>, show: &dyn Fn(&str) -> Result<()>) -> Result<()> {
    let end = match pending.iter().rposition(|&b| b == b'\n') {
        Some(i) => i + 1,
        None if pending.len() > MAX_PENDING => pending.len(),
        None => return Ok(()),
    };
    let text = String::from_utf8_lossy(&pending[..end]).into_owned();
    pending.drain(..end);
    for line in text.strip_suffix('\n').unwrap_or(&text).split('\n') {
        show(line)?;
    }
    std::io::stdout().flush().map_err(UsageError::Output)?;
    Ok(())
}
