//! The child's half: what runs between `fork` and `exec`. Only
//! async-signal-safe system calls on data prepared before the fork
//! (no allocation, no lock): a user and mount namespace of its own (and a
//! network namespace when the policy closes the network), mcpctl's state
//! covered by empty tmpfs mounts, a PID namespace (see [`super::pidns`]:
//! the one process becomes a relay, an init and the server, and only the
//! server goes on), then no_new_privs, then the Landlock
//! ruleset, then the seccomp filters last (so that they need not allow
//! any step of the setup). Any failure aborts the launch (the parent sees
//! the errno).

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

/// Everything the child needs, prepared in the parent.
#[derive(Debug)]
pub struct ChildSetup {
    /// The Landlock ruleset to restrict to.
    pub ruleset: OwnedFd,
    /// `uid_map` and `gid_map` lines for the new user namespace (mapping
    /// the operator's ids to themselves).
    pub maps: (Vec<u8>, Vec<u8>),
    /// True for a network namespace of its own (no route at all).
    pub network: bool,
    /// Directories to cover with an empty, read-only tmpfs.
    pub hide: Vec<CString>,
    /// The egress proxy's listener to make in the new network namespace.
    pub egress: Option<super::proxy::child::ChildEnd>,
    /// The read-only Landlock rights, for the fresh `/proc` of the PID
    /// namespace (see [`super::pidns::grant_proc`]).
    pub proc_access: u64,
    /// The seccomp filters, compiled (see [`super::seccomp`]).
    pub filters: super::seccomp::Filters,
}

impl ChildSetup {
    /// The ids maps that keep the child's uid and gid what they were.
    pub fn identity_maps() -> (Vec<u8>, Vec<u8>) {
        let uid = nix::unistd::getuid();
        let gid = nix::unistd::getgid();
        (
            format!("{uid} {uid} 1\n").into_bytes(),
            format!("{gid} {gid} 1\n").into_bytes(),
        )
    }

    /// Enter the sandbox; called in the child after `fork`.
    pub fn enter(&self) -> io::Result<()> {
        let mut flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNS;
        if self.network {
            flags |= libc::CLONE_NEWNET;
        }
        // SAFETY: a plain system call on constants.
        check(unsafe { libc::unshare(flags) })?;
        write_proc(c"/proc/self/setgroups", b"deny")?;
        write_proc(c"/proc/self/uid_map", &self.maps.0)?;
        write_proc(c"/proc/self/gid_map", &self.maps.1)?;
        if let Some(egress) = &self.egress {
            egress.enter()?;
        }
        for dir in &self.hide {
            hide(dir)?;
        }
        // Returns only in the server, PID 2 of a namespace of its own.
        super::pidns::split()?;
        super::pidns::grant_proc(self.ruleset.as_raw_fd(), self.proc_access)?;
        // SAFETY: plain system calls; the descriptor is alive (self holds it).
        check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) })?;
        let fd = self.ruleset.as_raw_fd();
        let done = unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) };
        check(done as libc::c_int)?;
        self.filters.install()
    }
}

/// Cover `dir` with an empty, read-only tmpfs (this mount namespace only:
/// a namespace made with a user namespace never propagates back).
fn hide(dir: &CStr) -> io::Result<()> {
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
    // SAFETY: mount(2) on NUL-terminated strings prepared before the fork.
    check(unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            dir.as_ptr(),
            c"tmpfs".as_ptr(),
            flags,
            c"size=4k,mode=0500".as_ptr().cast(),
        )
    })
}

fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Write `data` to a `/proc/self` file in one `write`, as the kernel wants.
fn write_proc(path: &CStr, data: &[u8]) -> io::Result<()> {
    // SAFETY: open, write and close on a NUL-terminated path and a live
    // buffer: async-signal-safe.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let written = libc::write(fd, data.as_ptr().cast(), data.len());
        let error = io::Error::last_os_error();
        libc::close(fd);
        if written != data.len() as isize {
            return Err(error);
        }
    }
    Ok(())
}
