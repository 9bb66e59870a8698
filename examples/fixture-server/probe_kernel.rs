//! The `probe` tool's kernel attempts (see the `probe` module): what a
//! seccomp filter and a PID namespace must refuse or hide. Each is tried
//! the way an ordinary user can succeed at it unconfined (a namespace is
//! made in a forked child, a child of its own is traced), so a test under
//! `"off"` proves the probe and one under `"none"` proves the boundary.
//!
//! Arguments: `ptrace` (`"child"`: a `sleep` of its own; `"ppid"`: the
//! parent, mcpctl or the sandbox's init; or a pid), `unshare` (a new user
//! namespace), `clone` (a child in a new user namespace, by a raw
//! `clone`), `mount` (a new user and mount namespace, then a mount in it), `keyctl` (the user's keyring), `bpf` (a one-entry map), `proc`
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

/// Run the kernel probes `args` asks for into `seen`.
pub fn run(args: &rmcp::model::JsonObject, seen: &mut Map<String, Value>) {
    let asked = |key: &str| args.get(key).is_some_and(|v| v == &json!(true));
    for target in super::strings(args, "ptrace") {
        seen.insert(format!("ptrace {target}"), outcome(ptrace(&target)));
    }
    if asked("unshare") {
        seen.insert("unshare".into(), outcome(in_child(false)));
    }
    if asked("clone") {
        seen.insert("clone".into(), outcome(clone_new_user()));
    }
    if asked("mount") {
        seen.insert("mount".into(), outcome(in_child(true)));
    }
    if asked("keyctl") {
        seen.insert("keyctl".into(), outcome(keyctl()));
    }
    if asked("bpf") {
        seen.insert("bpf".into(), outcome(bpf()));
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
    unsafe {
        let pid = libc::syscall(libc::SYS_clone, flags, null, null, null, null);
        if pid < 0 {
            return last_error();
        }
        if pid == 0 {
            libc::_exit(0);
        }
        let mut status = 0;
        libc::waitpid(pid as libc::pid_t, &mut status, 0);
    }
    Ok(())
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
