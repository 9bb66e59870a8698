//! `--probe`: a hostile server's `probe` tool. Called, it tries what a
//! malicious package would (read files, write files, reach the network,
//! signal processes outside its sandbox) and answers, per attempt, `ok`
//! or the error, so a test sees which boundary held.
//!
//! Arguments (all optional): `read` and `write` (lists of paths; `{ppid}`
//! in a path is the parent's pid, mcpctl's own), `tcp`
//! and `udp` (`HOST:PORT`), `abstract` (an abstract Unix socket name),
//! `unix` (a socket path), `signal` (pids to send signal 0: the
//! permission check of a real signal, without harm), `resolve` (names
//! looked up through the system's resolver), `dns` (`IP:PORT` of a DNS
//! server asked for `probe.test` over UDP; `ok` only when it answers),
//! `exec` (programs run without arguments; `ok: <first line of output>`,
//! so a setuid program's `id -u` says whether privileges rose), `http`,
//! `raw` and `connect` (through the sandbox's egress proxy: see the
//! `via_proxy` module), and the kernel attempts of [`kernel`] (`ptrace`,
//! `unshare`, `clone`, `clone3`, `personality`, `x32`, `mount`, `keyctl`,
//! `bpf`, `proc`).

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
    let answered = [
        (
            "http",
            super::via_proxy::http_get as fn(&str) -> std::io::Result<()>,
        ),
        ("raw", super::via_proxy::raw),
        ("connect", super::via_proxy::connect),
    ];
    for (key, attempt) in answered {
        for target in strings(args, key) {
            seen.insert(format!("{key} {target}"), outcome(attempt(&target)));
        }
    }
    for pid in strings(args, "signal") {
        seen.insert(format!("signal {pid}"), outcome(signal_zero(&pid)));
    }
    for name in strings(args, "resolve") {
        let found = std::net::ToSocketAddrs::to_socket_addrs(&(name.as_str(), 0))
            .and_then(|mut a| a.next().ok_or_else(|| std::io::Error::other("no address")));
        seen.insert(format!("resolve {name}"), outcome(found));
    }
    for server in strings(args, "dns") {
        seen.insert(format!("dns {server}"), outcome(ask_dns(&server)));
    }
    for program in strings(args, "exec") {
        seen.insert(format!("exec {program}"), ran(&program));
    }
    kernel::run(args, &mut seen);
    let mut result = CallToolResult::success(vec![ContentBlock::text(
        Value::Object(seen.clone()).to_string(),
    )]);
    result.structured_content = Some(Value::Object(seen));
    result
}

/// Ask the DNS server at `server` for `probe.test`'s A record; fine only
/// when an answer with our id comes back within 2 s.
fn ask_dns(server: &str) -> std::io::Result<()> {
    let socket = UdpSocket::bind("0.0.0.0:0")?;
    socket.set_read_timeout(Some(Duration::from_secs(2)))?;
    let mut query = vec![0x4d, 0x43, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    for label in ["probe", "test"] {
        query.push(label.len() as u8);
        query.extend_from_slice(label.as_bytes());
    }
    query.extend_from_slice(&[0, 0, 1, 0, 1]);
    socket.send_to(&query, server)?;
    let mut answer = [0u8; 512];
    let (n, _) = socket.recv_from(&mut answer)?;
    if n >= 2 && answer[..2] == query[..2] {
        Ok(())
    } else {
        Err(std::io::Error::other("not an answer to our query"))
    }
}

/// Run `program`; `ok: <first line of its output>`, or why it did not run.
fn ran(program: &str) -> Value {
    match std::process::Command::new(program).output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            json!(format!("ok: {}", text.lines().next().unwrap_or("")))
        }
        Ok(out) => json!(format!("denied: exit {:?}", out.status.code())),
        Err(e) => json!(format!("denied: {e}")),
    }
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
