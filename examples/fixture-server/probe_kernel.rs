//! The `probe` tool's kernel attempts (see the `probe` module): what a
//! seccomp filter and a PID namespace must refuse or hide. Each is tried
//! the way an ordinary user can succeed at it unconfined (a namespace is
//! made in a forked child, a child of its own is traced), so a test under
//! `"off"` proves the probe and one under `"none"` proves the boundary.
//!
//! Arguments: `ptrace` (`"child"`: a `sleep` of its own; `"ppid"`: the
//! parent, mcpctl or the sandbox's init; or a pid), `unshare` (a new user
//! namespace), `clone` (a child in a new user namespace, by a raw
//! `clone`), `clone3` (the same by `clone3`), `personality` (address
//! randomisation off, then back), `x32` (a call through the x32 ABI),
//! `mount` (a new user and mount namespace, then a mount in it), `keyctl` (the user's keyring), `bpf` (a one-entry map), `proc`
//! (`{"pids": [...], "self": PID}`: what `/proc` lists, and its own pid).

use serde_json::{Map, Value, json};

fn outcome(result: std::io::Result<()>) -> Value {
    match result {
        Ok(()) => json!("ok"),
        Err(e) => json!(format!("denied: {e}")),
    }
}

fn last_error<T>() -> std::io::Result<T> {
    Err(std::io::Error::last_os_error())
}

/// One kernel attempt: `Ok` when the kernel let it through.
type Attempt = fn() -> std::io::Result<()>;

/// Run the kernel probes `args` asks for into `seen`.
pub fn run(args: &rmcp::model::JsonObject, seen: &mut Map<String, Value>) {
    let asked = |key: &str| args.get(key).is_some_and(|v| v == &json!(true));
    for target in super::strings(args, "ptrace") {
        seen.insert(format!("ptrace {target}"), outcome(ptrace(&target)));
    }
    let attempts: [(&str, Attempt); 8] = [
        ("unshare", || in_child(false)),
        ("clone", clone_new_user),
        ("clone3", clone3_new_user),
        ("personality", no_randomize),
        ("x32", x32_getpid),
        ("mount", || in_child(true)),
        ("keyctl", keyctl),
        ("bpf", bpf),
    ];
    for (key, attempt) in attempts {
        if asked(key) {
            seen.insert(key.into(), outcome(attempt()));
        }
    }
    if asked("proc") {
        seen.insert("proc".into(), proc_pids());
    }
}

/// Attach to `target` with `PTRACE_SEIZE` (which stops nothing), then
/// let go at once: interrupt, wait for that stop, detach (handing back a
/// signal that stop held).
fn ptrace(target: &str) -> std::io::Result<()> {
    if target == "child" {
        let mut child = std::process::Command::new("sleep").arg("30").spawn()?;
        let traced = seize_and_release(child.id() as libc::pid_t);
        let _ = child.kill();
        let _ = child.wait();
        return traced;
    }
    let pid = match target {
        "ppid" => std::os::unix::process::parent_id() as libc::pid_t,
        other => other.parse().map_err(std::io::Error::other)?,
    };
    seize_and_release(pid)
}

fn seize_and_release(pid: libc::pid_t) -> std::io::Result<()> {
    let null = std::ptr::null_mut::<libc::c_void>();
    // SAFETY: ptrace and waitpid on plain integers; `status` outlives them.
    unsafe {
        if libc::ptrace(libc::PTRACE_SEIZE, pid, null, null) != 0 {
            return last_error();
        }
        libc::ptrace(libc::PTRACE_INTERRUPT, pid, null, null);
        let mut status = 0;
        libc::waitpid(pid, &mut status, libc::__WALL);
        let event_stop = status >> 16 != 0;
        let signal = if libc::WIFSTOPPED(status) && !event_stop {
            libc::WSTOPSIG(status) as usize
        } else {
            0
        };
        libc::ptrace(libc::PTRACE_DETACH, pid, null, signal as *mut libc::c_void);
    }
    Ok(())
}

/// In a forked child (a namespace needs a single thread): a new user
/// namespace, and with `mount` a mount namespace too and a mount in it.
/// The child's exit code says which step failed with which errno.
fn in_child(mount: bool) -> std::io::Result<()> {
    let flags = libc::CLONE_NEWUSER | if mount { libc::CLONE_NEWNS } else { 0 };
    // SAFETY: the child makes only async-signal-safe system calls, then
    // `_exit`s.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return last_error();
        }
        if pid == 0 {
            if libc::unshare(flags) != 0 {
                libc::_exit(*libc::__errno_location() & 0x7f);
            }
            let private = libc::MS_REC | libc::MS_PRIVATE;
            if mount
                && libc::mount(
                    c"none".as_ptr(),
                    c"/".as_ptr(),
                    std::ptr::null(),
                    private,
                    std::ptr::null(),
                ) != 0
            {
                libc::_exit(0x80 | (*libc::__errno_location() & 0x7f));
            }
            libc::_exit(0);
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        match libc::WEXITSTATUS(status) {
            0 => Ok(()),
            code if code & 0x80 != 0 => Err(std::io::Error::other(format!(
                "mount: {}",
                std::io::Error::from_raw_os_error(code & 0x7f)
            ))),
            code => Err(std::io::Error::other(format!(
                "unshare: {}",
                std::io::Error::from_raw_os_error(code)
            ))),
        }
    }
}

/// A child made by `clone(CLONE_NEWUSER)` itself (not libc's wrapper, so
/// no `clone3`), which exits at once.
fn clone_new_user() -> std::io::Result<()> {
    let flags = (libc::CLONE_NEWUSER | libc::SIGCHLD) as libc::c_ulong;
    let null = 0 as libc::c_ulong;
    // SAFETY: the child shares nothing (no CLONE_VM) and only `_exit`s.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, null, null, null, null) };
    reap_at_once(pid)
}

/// The same as [`clone_new_user`] through `clone3`, whose flags sit in
/// memory a seccomp filter cannot read.
fn clone3_new_user() -> std::io::Result<()> {
    // struct clone_args, version 0: flags, pidfd, child_tid, parent_tid,
    // exit_signal, stack, stack_size, tls.
    let mut args = [0u64; 8];
    args[0] = libc::CLONE_NEWUSER as u64;
    args[4] = libc::SIGCHLD as u64;
    let size = std::mem::size_of_val(&args);
    // SAFETY: as in `clone_new_user`; `args` lives across the call.
    let pid = unsafe { libc::syscall(libc::SYS_clone3, args.as_ptr(), size) };
    reap_at_once(pid)
}

/// After a raw `clone`: the child `_exit`s at once, the parent reaps it.
fn reap_at_once(pid: libc::c_long) -> std::io::Result<()> {
    if pid < 0 {
        return last_error();
    }
    // SAFETY: `_exit` in the child (async-signal-safe); waitpid on its pid.
    unsafe {
        if pid == 0 {
            libc::_exit(0);
        }
        let mut status = 0;
        libc::waitpid(pid as libc::pid_t, &mut status, 0);
    }
    Ok(())
}

/// `personality(ADDR_NO_RANDOMIZE)`, then the previous one back.
fn no_randomize() -> std::io::Result<()> {
    const ADDR_NO_RANDOMIZE: libc::c_ulong = 0x0040000;
    // SAFETY: personality on integers; the query changes nothing.
    unsafe {
        let before = libc::personality(0xffff_ffff);
        if libc::personality(ADDR_NO_RANDOMIZE | before as libc::c_ulong) < 0 {
            return last_error();
        }
        libc::personality(before as libc::c_ulong);
    }
    Ok(())
}

/// `getpid` through the x32 ABI (bit 30 of the call number, x86_64).
fn x32_getpid() -> std::io::Result<()> {
    // SAFETY: getpid takes no argument.
    let pid = unsafe { libc::syscall(0x4000_0000 | libc::SYS_getpid) };
    if pid < 0 { last_error() } else { Ok(()) }
}

/// The id of the user's keyring (shared by every process of the user's),
/// created if need be.
fn keyctl() -> std::io::Result<()> {
    const KEYCTL_GET_KEYRING_ID: libc::c_long = 0;
    const KEY_SPEC_USER_KEYRING: libc::c_long = -4;
    // SAFETY: keyctl on integers only.
    let id = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_GET_KEYRING_ID,
            KEY_SPEC_USER_KEYRING,
            1 as libc::c_long,
        )
    };
    if id < 0 { last_error() } else { Ok(()) }
}

/// A one-entry array map (closed at once).
fn bpf() -> std::io::Result<()> {
    const BPF_MAP_CREATE: libc::c_long = 0;
    const BPF_MAP_TYPE_ARRAY: u32 = 2;
    // map_type, key_size, value_size, max_entries, then zeros.
    let mut attr = [0u32; 32];
    attr[..4].copy_from_slice(&[BPF_MAP_TYPE_ARRAY, 4, 4, 1]);
    // SAFETY: `attr` is a live, zeroed buffer of the size passed.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_bpf,
            BPF_MAP_CREATE,
            attr.as_ptr(),
            std::mem::size_of_val(&attr),
        )
    };
    if fd < 0 {
        return last_error();
    }
    // SAFETY: closing the descriptor just returned.
    unsafe { libc::close(fd as libc::c_int) };
    Ok(())
}

/// Every pid `/proc` lists, sorted, and its own.
fn proc_pids() -> Value {
    let mut pids: Vec<u32> = std::fs::read_dir("/proc")
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    pids.sort_unstable();
    json!({"pids": pids, "self": std::process::id()})
}
