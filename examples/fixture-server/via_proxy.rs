//! The `probe` tool's attempts through the sandbox's egress proxy: an
//! HTTP GET through `$HTTP_PROXY` (`http`: URLs), raw bytes sent to it as
//! a request (`raw`), and a `CONNECT` tunnel through `$HTTPS_PROXY` with
//! a GET inside it (`connect`: `HOST:PORT`). Each says `ok` only on a
//! `200`.

use std::io::{Error, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(5);

/// `host:port` of the proxy a variable names (`http://127.0.0.1:3128`).
fn proxy(var: &str) -> std::io::Result<TcpStream> {
    let url = std::env::var(var).map_err(|_| Error::other(format!("{var} is not set")))?;
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(WAIT))?;
    stream.set_write_timeout(Some(WAIT))?;
    Ok(stream)
}

/// Read a response head (at most 16 KiB) and refuse anything but 200.
fn expect_200(stream: &mut TcpStream) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        if stream.read(&mut byte)? == 0 {
            break;
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    let status = head.lines().next().unwrap_or_default().to_string();
    if status.split(' ').nth(1) == Some("200") {
        Ok(())
    } else {
        Err(Error::other(format!("answered `{status}`")))
    }
}

/// GET `url` through `$HTTP_PROXY`, with a forged `Host` and a
/// `Proxy-Authorization`, neither of which the proxy may pass on.
pub fn http_get(url: &str) -> std::io::Result<()> {
    raw(&format!(
        "GET {url} HTTP/1.1\r\nHost: forged.example\r\nProxy-Authorization: Basic cHJvYmU6c2VjcmV0\r\nConnection: close\r\n\r\n"
    ))
}

/// Send `request` as it is to `$HTTP_PROXY` (a hostile client's bytes).
pub fn raw(request: &str) -> std::io::Result<()> {
    let mut stream = proxy("HTTP_PROXY")?;
    stream.write_all(request.as_bytes())?;
    expect_200(&mut stream)
}

/// `CONNECT target` through `$HTTPS_PROXY`, then a GET inside the tunnel.
pub fn connect(target: &str) -> std::io::Result<()> {
    let mut stream = proxy("HTTPS_PROXY")?;
    write!(
        stream,
        "CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n"
    )?;
    expect_200(&mut stream)?;
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {target}\r\nConnection: close\r\n\r\n"
    )?;
    expect_200(&mut stream)
}
