//! mcpctl's egress proxy, for a profile that lists `allow_host` or
//! `allow_port`: the server runs in a network namespace of its own with
//! no route out, and reaches only this proxy, through `HTTP_PROXY` and
//! `HTTPS_PROXY` pointing at `127.0.0.1:`[`PORT`] *inside its namespace*.
//!
//! How the two sides meet without privileges: before the fork, [`prepare`]
//! makes a socket pair; the child, once in its new namespace, brings `lo`
//! up, listens there and sends the listening socket back
//! ([`child::ChildEnd`]); after the spawn, [`Egress::start`] receives it
//! and serves it from a tokio task ([`serve`]). A socket keeps the
//! namespace it was made in, so what mcpctl accepts on it comes from the
//! server, while the proxy's own connections leave from the host's
//! namespace (`setns` into the child's would need `CAP_SYS_ADMIN`). The
//! proxy lives as long as the [`Running`] handle its server's process
//! owner holds. Which destinations pass is [`rules`]; resolving and
//! connecting is `dial`.

pub mod child;
mod dial;
pub mod relay;
pub mod rules;
mod serve;

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::error::SandboxError;
use super::policy::{Outbound, Sandbox};

pub use serve::Log;

/// The port the proxy listens on in the server's namespace (which is new
/// and empty, so the port is always free there; Squid's, as ToolHive's).
pub const PORT: u16 = 3128;

/// The proxy's side, between [`prepare`] and [`Egress::start`].
#[derive(Debug)]
pub struct Egress {
    parent: OwnedFd,
    rules: rules::Allowed,
}

/// A running proxy; dropping it ends the proxy and every tunnel.
#[derive(Debug)]
pub struct Running {
    cancel: CancellationToken,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The outbound rules of a policy whose network goes through the proxy:
/// a profile without `insecure_allow_all` that lists hosts or ports.
pub fn wanted(sandbox: &Sandbox) -> Option<&Outbound> {
    let Sandbox::Profile(profile) = sandbox else {
        return None;
    };
    let out = &profile.outbound;
    let lists = !out.allow_host.is_empty() || !out.allow_port.is_empty();
    (lists && !out.insecure_allow_all).then_some(out)
}

/// The socket pair and the rules of one launch, made before the fork.
pub fn prepare(outbound: &Outbound) -> Result<(Egress, child::ChildEnd), SandboxError> {
    use nix::sys::socket::{AddressFamily, SockFlag, SockType, socketpair};
    let rules = rules::Allowed::new(outbound).map_err(|detail| SandboxError::Setup {
        step: "`allow_host`".into(),
        detail,
    })?;
    let (parent, channel) = socketpair(
        AddressFamily::Unix,
        SockType::SeqPacket,
        None,
        SockFlag::SOCK_CLOEXEC,
    )
    .map_err(|e| SandboxError::Setup {
        step: "the egress proxy's socket pair".into(),
        detail: e.to_string(),
    })?;
    Ok((Egress { parent, rules }, child::ChildEnd { channel }))
}

/// The variables that send the server's HTTP and HTTPS through the proxy
/// (both spellings; `NO_PROXY` emptied so nothing bypasses it, which
/// would fail anyway; `NODE_USE_ENV_PROXY` for Node's own `fetch`).
pub fn env() -> Vec<(String, String)> {
    let url = format!("http://127.0.0.1:{PORT}");
    let mut env: Vec<(String, String)> = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]
        .into_iter()
        .map(|name| (name.to_string(), url.clone()))
        .collect();
    env.extend(["NO_PROXY", "no_proxy"].map(|name| (name.to_string(), String::new())));
    env.push(("NODE_USE_ENV_PROXY".into(), "1".into()));
    env
}

impl Egress {
    /// Receive the listener the child made (it is there once the spawn
    /// returned: the child sends it before `exec`) and serve it; `log`
    /// receives each refusal.
    pub fn start(self, log: Log) -> Result<Running, SandboxError> {
        let failed = |detail: String| SandboxError::Setup {
            step: "the egress proxy's listener".into(),
            detail,
        };
        let listener = receive(self.parent.as_raw_fd()).map_err(failed)?;
        listener
            .set_nonblocking(true)
            .map_err(|e| failed(e.to_string()))?;
        let listener =
            tokio::net::TcpListener::from_std(listener).map_err(|e| failed(e.to_string()))?;
        let cancel = CancellationToken::new();
        let shared = Arc::new(serve::Shared::new(self.rules, log, cancel.clone()));
        let stop = cancel.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = serve::accept_loop(listener, shared) => {}
            }
        });
        Ok(Running { cancel })
    }
}

/// The one descriptor the child sent, without waiting.
fn receive(channel: RawFd) -> Result<std::net::TcpListener, String> {
    let mut byte = [0u8; 1];
    let mut control = child::Control { bytes: [0; 64] };
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // SAFETY: recvmsg into buffers on this stack frame; the CMSG_* helpers
    // walk only the control buffer the kernel filled (its length is
    // `msg_controllen`), and a descriptor found there is ours to own.
    unsafe {
        let mut msg = child::message(&mut iov, &mut control);
        let flags = libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC;
        if libc::recvmsg(channel, &mut msg, flags) < 0 {
            let e = std::io::Error::last_os_error();
            return Err(format!("the child sent none: {e}"));
        }
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        let wanted = libc::CMSG_LEN(size_of::<RawFd>() as u32) as usize;
        if cmsg.is_null()
            || (*cmsg).cmsg_level != libc::SOL_SOCKET
            || (*cmsg).cmsg_type != libc::SCM_RIGHTS
            || (*cmsg).cmsg_len as usize != wanted
        {
            return Err("the child sent no descriptor".into());
        }
        let mut fd: RawFd = -1;
        std::ptr::copy_nonoverlapping(
            libc::CMSG_DATA(cmsg),
            (&raw mut fd).cast::<u8>(),
            size_of::<RawFd>(),
        );
        Ok(std::net::TcpListener::from(OwnedFd::from_raw_fd(fd)))
    }
}
