//! A PID namespace of the server's own: `/proc` shows it no process but
//! its own and its init's, and every process it forks (a `setsid` double
//! fork included) dies with it.
//!
//! Called in the child between `fork` and `exec`, after the user and mount
//! namespaces are made, [`split`] makes three processes of one, without
//! any `exec` of its own (so nothing is loaded again; a few hundred
//! microseconds):
//!
//! - the **relay**, the process mcpctl spawned (its pid is the one
//!   `status` shows and the group mcpctl signals): forwards TERM, INT and
//!   HUP to the init, and exits as the init does;
//! - the **init**, PID 1 of the new namespace, in a process group of its
//!   own: mounts a fresh `/proc`, forwards those signals to the server's
//!   group (a PID 1 ignores a signal it has no handler for, so a server
//!   as PID 1 would ignore mcpctl's TERM), reaps orphans, and exits with
//!   the server's status, which makes the kernel kill every process left
//!   in the namespace. It gets SIGKILL when the relay dies
//!   (`PR_SET_PDEATHSIG`; the relay has one thread), so a KILL of
//!   mcpctl's process group ends the namespace too;
//! - the **server**, the only one that returns: it finishes the sandbox
//!   (Landlock, seccomp) and `exec`s the program, its stdio still the
//!   pipes mcpctl made.
//!
//! The relay and the init close every descriptor once they have forked
//! (the close-on-exec pipe through which the spawn learns that `exec`
//! happened, mcpctl's watchdog socket, the server's stdio) and run only
//! async-signal-safe system calls: they are forks of a multi-threaded
//! process. Every signal is blocked in them and taken with `sigwaitinfo`,
//! so mcpctl's own handlers, inherited, never run there.

use std::io;

/// The signals passed on to the server.
const FORWARDED: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

fn check(result: libc::c_long) -> io::Result<libc::c_long> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// A raw `clone` (no `CLONE_VM`: a copy, as `fork`), not libc's `fork`,
/// whose handlers may take locks a thread of mcpctl's held at the spawn.
fn clone(flags: libc::c_int) -> io::Result<libc::pid_t> {
    let flags = (flags | libc::SIGCHLD) as libc::c_ulong;
    let none: libc::c_ulong = 0;
    // SAFETY: no new stack and no shared memory: the child continues on
    // a copy of this one, as after `fork`.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, none, none, none, none) };
    check(pid).map(|pid| pid as libc::pid_t)
}

fn mask(how: libc::c_int, set: &libc::sigset_t) {
    // SAFETY: a valid set; the old mask is not wanted.
    unsafe { libc::sigprocmask(how, set, std::ptr::null_mut()) };
}

fn every_signal() -> libc::sigset_t {
    // SAFETY: `sigfillset` initialises the set it is given.
    unsafe {
        let mut set = std::mem::zeroed();
        libc::sigfillset(&mut set);
        set
    }
}

/// Split into relay, init and server (see the module's comment); returns
/// only in the server. An error before the server exists fails the
/// launch as any other step of the sandbox does.
pub fn split() -> io::Result<()> {
    let all = every_signal();
    mask(libc::SIG_BLOCK, &all);
    let init = match clone(libc::CLONE_NEWPID) {
        Ok(0) => return become_init(),
        Ok(init) => init,
        Err(e) => {
            mask(libc::SIG_UNBLOCK, &all);
            return Err(e);
        }
    };
    close_everything();
    relay(init)
}

/// PID 1: mount `/proc`, fork the server (which returns), then serve it.
fn become_init() -> io::Result<()> {
    // SAFETY: plain system calls on constants and static strings.
    unsafe {
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0).into())?;
        check(libc::setpgid(0, 0).into())?;
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        let proc = c"proc".as_ptr();
        check(libc::mount(proc, c"/proc".as_ptr(), proc, flags, std::ptr::null()).into())?;
    }
    let server = clone(0)?;
    if server == 0 {
        // SAFETY: a plain system call; the server leads its own group so
        // the init's forwarded signals reach its children as mcpctl's
        // group kill did.
        check(unsafe { libc::setpgid(0, 0) }.into())?;
        mask(libc::SIG_UNBLOCK, &every_signal());
        return Ok(());
    }
    close_everything();
    init(server)
}

/// Close every descriptor (`close_range`, or one by one before Linux 5.9).
fn close_everything() {
    // SAFETY: closing descriptors this process no longer needs.
    unsafe {
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            for fd in 0..4096 {
                libc::close(fd);
            }
        }
    }
}

/// The next signal this process is sent (all of them are blocked).
fn next_signal() -> libc::c_int {
    let all = every_signal();
    loop {
        // SAFETY: a valid set; no siginfo wanted.
        let sig = unsafe { libc::sigwaitinfo(&all, std::ptr::null_mut()) };
        if sig > 0 {
            return sig;
        }
    }
}

/// PID 1's loop: forward, reap, and exit with the server's status.
fn init(server: libc::pid_t) -> ! {
    loop {
        match next_signal() {
            libc::SIGCHLD => loop {
                let mut status = 0;
                // SAFETY: reaping any child, without blocking.
                let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
                if pid <= 0 {
                    break;
                }
                if pid == server {
                    exit_as(status);
                }
            },
            // SAFETY: signalling the server's group.
            sig if FORWARDED.contains(&sig) => unsafe {
                libc::kill(-server, sig);
            },
            _ => {}
        }
    }
}

/// The relay's loop: forward to the init, exit as it does.
fn relay(init: libc::pid_t) -> ! {
    loop {
        match next_signal() {
            libc::SIGCHLD => {
                let mut status = 0;
                // SAFETY: reaping the one child, without blocking.
                if unsafe { libc::waitpid(init, &mut status, libc::WNOHANG) } == init {
                    exit_as(status);
                }
            }
            // SAFETY: signalling the init.
            sig if FORWARDED.contains(&sig) => unsafe {
                libc::kill(init, sig);
            },
            _ => {}
        }
    }
}

/// Exit with a child's wait status: its code, or for a signal the
/// shell's `128 + N`. The init cannot die of a signal it sends itself
/// (PID 1), so the relay turns `128 + N` back into death by signal `N`
/// when `N`'s default is to terminate (no core is dumped: the relay is a
/// copy of mcpctl's memory).
fn exit_as(status: libc::c_int) -> ! {
    let code = if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        libc::WEXITSTATUS(status)
    };
    // SAFETY: plain system calls; `_exit` does not return.
    unsafe {
        if libc::getpid() != 1 && (129..160).contains(&code) {
            die_of(code - 128);
        }
        libc::_exit(code)
    }
}

/// Die of `sig` if its default action ends the process; else return.
///
/// # Safety
/// Only in the relay, whose handlers and memory no longer matter.
unsafe fn die_of(sig: libc::c_int) {
    let ignored_or_stops = [
        libc::SIGCHLD,
        libc::SIGCONT,
        libc::SIGSTOP,
        libc::SIGTSTP,
        libc::SIGTTIN,
        libc::SIGTTOU,
        libc::SIGURG,
        libc::SIGWINCH,
    ];
    if ignored_or_stops.contains(&sig) {
        return;
    }
    // SAFETY: see the function's contract.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        libc::signal(sig, libc::SIG_DFL);
        let mut one = std::mem::zeroed();
        libc::sigemptyset(&mut one);
        libc::sigaddset(&mut one, sig);
        libc::kill(libc::getpid(), sig);
        mask(libc::SIG_UNBLOCK, &one);
    }
}

/// Let the server read the fresh `/proc`: the ruleset's `/proc` rule names
/// the mount it covers, and Landlock does not look through a mount point
/// to a rule beneath it. `access` is the read-only rights' bits.
pub fn grant_proc(ruleset: libc::c_int, access: u64) -> io::Result<()> {
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    let flags = libc::O_PATH | libc::O_CLOEXEC | libc::O_DIRECTORY;
    // SAFETY: open, landlock_add_rule and close on a static path, a live
    // struct and the descriptor just opened.
    unsafe {
        let fd = libc::open(c"/proc".as_ptr(), flags);
        check(fd.into())?;
        let rule = PathBeneath {
            allowed_access: access,
            parent_fd: fd,
        };
        let done = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            LANDLOCK_RULE_PATH_BENEATH,
            &rule as *const PathBeneath,
            0u32,
        );
        let error = io::Error::last_os_error();
        libc::close(fd);
        if done != 0 {
            return Err(error);
        }
    }
    Ok(())
}
