//! The child's half of the egress proxy, run between `fork` and `exec`
//! right after the network namespace is made (async-signal-safe system
//! calls only, on data prepared before the fork): bring the namespace's
//! `lo` up, listen on `127.0.0.1:`[`super::PORT`] there, and hand the
//! listening socket to mcpctl over an inherited socket pair. A socket
//! stays in the namespace it was made in, so mcpctl accepts, in its own
//! process and namespace, exactly the connections the server makes.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// The child's end of the socket pair (close-on-exec: the server never
/// holds it).
#[derive(Debug)]
pub struct ChildEnd {
    pub(super) channel: OwnedFd,
}

impl ChildEnd {
    /// Make the listener in the new namespace and send it to mcpctl.
    pub fn enter(&self) -> io::Result<()> {
        loopback_up()?;
        let listener = listen(super::PORT)?;
        let sent = send_fd(self.channel.as_raw_fd(), listener);
        // SAFETY: close(2) on the descriptor made above; mcpctl has its own.
        unsafe { libc::close(listener) };
        sent
    }
}

fn check(result: libc::c_int) -> io::Result<libc::c_int> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// `ip link set lo up` in this (new) namespace: `SIOCSIFFLAGS` with `IFF_UP`.
fn loopback_up() -> io::Result<()> {
    // SAFETY: socket, ioctl and close on a zeroed `ifreq` on the stack.
    unsafe {
        let fd = check(libc::socket(
            libc::AF_INET,
            libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
            0,
        ))?;
        let mut req: libc::ifreq = std::mem::zeroed();
        for (dst, src) in req.ifr_name.iter_mut().zip(b"lo\0") {
            *dst = *src as libc::c_char;
        }
        req.ifr_ifru.ifru_flags = (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
        let done = libc::ioctl(fd, libc::SIOCSIFFLAGS as _, &mut req);
        let error = io::Error::last_os_error();
        libc::close(fd);
        if done < 0 {
            return Err(error);
        }
    }
    Ok(())
}

/// A TCP listener on `127.0.0.1:port`, close-on-exec.
fn listen(port: u16) -> io::Result<RawFd> {
    // SAFETY: socket, bind, listen and close on a `sockaddr_in` on the stack.
    unsafe {
        let fd = check(libc::socket(
            libc::AF_INET,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
        ))?;
        let mut addr: libc::sockaddr_in = std::mem::zeroed();
        addr.sin_family = libc::AF_INET as libc::sa_family_t;
        addr.sin_port = port.to_be();
        addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        let bound = libc::bind(fd, (&raw const addr).cast(), len);
        if bound < 0 || libc::listen(fd, 128) < 0 {
            let error = io::Error::last_os_error();
            libc::close(fd);
            return Err(error);
        }
        Ok(fd)
    }
}

/// Room for one `SCM_RIGHTS` descriptor, aligned for `cmsghdr`.
#[repr(C)]
pub(super) union Control {
    _align: libc::cmsghdr,
    pub(super) bytes: [u8; 64],
}

/// `sendmsg` with one byte and `fd` as `SCM_RIGHTS`, all on the stack.
fn send_fd(channel: RawFd, fd: RawFd) -> io::Result<()> {
    let mut byte = [0u8; 1];
    let mut control = Control { bytes: [0; 64] };
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // SAFETY: every pointer is to the stack frame; the CMSG_* helpers
    // are arithmetic on the buffer, which is large and aligned enough.
    unsafe {
        let mut msg = message(&mut iov, &mut control);
        msg.msg_controllen = libc::CMSG_SPACE(size_of::<RawFd>() as u32) as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(size_of::<RawFd>() as u32) as _;
        std::ptr::copy_nonoverlapping(
            (&raw const fd).cast::<u8>(),
            libc::CMSG_DATA(cmsg),
            size_of::<RawFd>(),
        );
        check(libc::sendmsg(channel, &msg, libc::MSG_NOSIGNAL) as libc::c_int)?;
    }
    Ok(())
}

/// A `msghdr` over one byte and a control buffer (both on the caller's
/// stack), for sending or receiving one descriptor.
pub(super) fn message(iov: &mut libc::iovec, control: &mut Control) -> libc::msghdr {
    // SAFETY: msghdr is plain data; all zeroes is its empty value.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = iov;
    msg.msg_iovlen = 1;
    msg.msg_control = (control as *mut Control).cast();
    msg.msg_controllen = size_of::<Control>() as _;
    msg
}
