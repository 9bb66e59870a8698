//! `--probe`: a hostile server's `probe` tool. Called, it tries what a
//! malicious package would (read files, write files, reach the network,
//! signal processes outside its sandbox) and answers, per attempt, `ok`
//! or the error, so a test sees which boundary held.
//!
//! Arguments (all optional): `read` and `write` (lists of paths; `{ppid}`
//! in a path is the parent's pid, mcpctl's own), `tcp`
//! and `udp` (`HOST:PORT`), `abstract` (an abstract Unix socket name),
//! `unix` (a socket path), `signal` (pids to send signal 0: the
//! permission check of a real signal, without harm), and the kernel
//! attempts of [`kernel`] (`ptrace`, `unshare`, `mount`, `keyctl`, `bpf`,
//! `proc`).

#[path = "probe_kernel.rs"]
mod kernel;

use std::io::Write;
use std::net::{TcpStream, UdpSocket};
use std::time::Duration;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use serde_json::{Map, Value, json};

/// The `probe` tool.
pub fn tool(schema: fn(Value) -> std::sync::Arc<JsonObject>) -> Tool {
    Tool::new(
        "probe",
        "Tries to read and write files, reach the network and signal processes; says what worked",
        schema(json!({"type": "object"})),
    )
}

fn outcome<T>(result: std::io::Result<T>) -> Value {
    match result {
        Ok(_) => json!("ok"),
        Err(e) => json!(format!("denied: {e}")),
    }
}

fn strings(args: &JsonObject, key: &str) -> Vec<String> {
    match args.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Some(Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

/// Run every probe the arguments ask for.
pub fn call(args: Option<&JsonObject>) -> CallToolResult {
    let empty = JsonObject::new();
    let args = args.unwrap_or(&empty);
    let mut seen = Map::new();
    let ppid = std::os::unix::process::parent_id().to_string();
    for path in strings(args, "read") {
        let real = path.replace("{ppid}", &ppid);
        seen.insert(format!("read {path}"), outcome(std::fs::read(&real)));
    }
    for path in strings(args, "write") {
        let written = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"# probe was here\n"));
        seen.insert(format!("write {path}"), outcome(written));
    }
    for addr in strings(args, "tcp") {
        let reached = addr
            .parse()
            .map_err(std::io::Error::other)
            .and_then(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)));
        seen.insert(format!("tcp {addr}"), outcome(reached));
    }
    for addr in strings(args, "udp") {
        let sent = UdpSocket::bind("0.0.0.0:0").and_then(|s| s.send_to(b"probe", &addr));
        seen.insert(format!("udp {addr}"), outcome(sent));
    }
    for name in strings(args, "abstract") {
        seen.insert(format!("abstract {name}"), outcome(connect_abstract(&name)));
    }
    for path in strings(args, "unix") {
        let reached = std::os::unix::net::UnixStream::connect(&path);
        seen.insert(format!("unix {path}"), outcome(reached));
    }
    for pid in strings(args, "signal") {
        seen.insert(format!("signal {pid}"), outcome(signal_zero(&pid)));
    }
    kernel::run(args, &mut seen);
    let mut result = CallToolResult::success(vec![ContentBlock::text(
        Value::Object(seen.clone()).to_string(),
    )]);
    result.structured_content = Some(Value::Object(seen));
    result
}

fn connect_abstract(name: &str) -> std::io::Result<std::os::unix::net::UnixStream> {
    use std::os::linux::net::SocketAddrExt;
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes())?;
    std::os::unix::net::UnixStream::connect_addr(&addr)
}

/// `kill(pid, 0)`: every permission check of a signal, no signal sent.
/// `ppid` names the parent (mcpctl); a test names its own pid for the
/// parent's parent.
fn signal_zero(pid: &str) -> std::io::Result<()> {
    let pid: u32 = match pid {
        "ppid" => std::os::unix::process::parent_id(),
        other => other.parse().map_err(std::io::Error::other)?,
    };
    // SAFETY: signal 0 sends nothing.
    if unsafe { libc_kill(pid as i32, 0) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}
