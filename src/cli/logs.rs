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
generation kept); lines starting with [mcpctl] are the supervisor's own.

Never starts the supervisor: without one, the log it left is read.

Exit codes: 0 ok, 3 unknown name, 5 supervisor unreachable, 130 interrupted.

Examples:
  mcpctl logs time
  mcpctl logs billing -n 200
  mcpctl logs billing -f";

/// Arguments of `mcpctl logs`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The server.
    #[arg(value_name = "NAME")]
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
        output::print_json(&json!({"name": args.name, "path": path, "lines": lines}))?;
        return Ok(ExitCode::Success);
    }
    for line in &lines {
        output::line(line)?;
    }
    if !args.follow {
        return Ok(ExitCode::Success);
    }
    follow(std::path::Path::new(&path))
}

/// Print what is appended to `path`, reopening it when it rotates.
fn follow(path: &std::path::Path) -> Result<ExitCode> {
    let mut pos = std::fs::metadata(path).map_or(0, |m| m.len());
    let mut buf = Vec::new();
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
            buf.clear();
            if f.seek(SeekFrom::Start(pos)).is_ok() && f.read_to_end(&mut buf).is_ok() {
                pos += buf.len() as u64;
                let mut out = std::io::stdout().lock();
                out.write_all(&buf).map_err(UsageError::Output)?;
                out.flush().map_err(UsageError::Output)?;
            }
        }
    }
}
