//! The system calls a sandboxed server is refused: a seccomp filter,
//! compiled in the parent (allocating) and installed by the child as the
//! very last step before `exec` (one `seccomp(2)` call per program).
//!
//! A deny list, not an allow list: servers run any runtime (node, python,
//! a Go binary), and what must never work is small and known: debugging
//! other processes (`ptrace`, `process_vm_*`, `pidfd_getfd`), changing the
//! mount view (`mount`, the new mount API), making or joining namespaces
//! (`unshare`, `setns`, `clone` with a namespace flag), the kernel's
//! keyrings, `bpf`, `perf_event_open`, loading kernels or modules, swap,
//! `reboot`, `acct`, `userfaultfd` (a race-widening primitive), file
//! handles (which bypass paths, and so Landlock), pushing characters into
//! a terminal (`TIOCSTI`, `TIOCLINUX`), and `personality` flags that turn
//! address randomisation off. Each is refused with `EPERM`, so a runtime
//! sees an ordinary failure. `clone3` is refused with `ENOSYS`: its flags
//! sit in memory a filter cannot read, and libc then falls back to
//! `clone`, whose flags it can. A system call of another architecture
//! (32-bit `int 0x80`, AArch32) or of the x32 ABI kills the process.
//!
//! Built on `seccompiler` (rust-vmm's, Firecracker's filter compiler):
//! pure Rust, no C library to install, maintained, and it checks the
//! architecture and compares 32-bit arguments exactly.

use std::collections::BTreeMap;
use std::io;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch, sock_filter,
};

use super::error::SandboxError;

/// The `clone` flags that make a namespace (`CLONE_NEWTIME` shares its
/// bit with the exit signal in `clone`, and is refused in `unshare`).
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
];

/// The `personality` values a runtime may set: the plain Linux one and its
/// 32-bit and `uname26` variants, plus the `0xffffffff` query. Anything
/// else (`ADDR_NO_RANDOMIZE`, `READ_IMPLIES_EXEC`, `MMAP_PAGE_ZERO`…) is
/// refused.
const PERSONALITIES: &[u64] = &[0x0, 0x8, 0x20000, 0x20008, 0xffff_ffff];

/// Refused outright, whatever the arguments.
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_process_madvise,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_fsconfig,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_reboot,
    libc::SYS_acct,
    libc::SYS_userfaultfd,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
];

/// The filters one sandboxed launch installs, compiled for this machine.
#[derive(Debug, Clone)]
pub struct Filters {
    programs: Vec<BpfProgram>,
}

/// This machine's architecture as seccompiler names it; an architecture
/// it cannot filter is refused (fail closed), not run unfiltered.
fn target() -> Result<TargetArch, SandboxError> {
    TargetArch::try_from(std::env::consts::ARCH).map_err(|_| SandboxError::Unsupported {
        what: format!(
            "a seccomp filter for this architecture ({})",
            std::env::consts::ARCH
        ),
    })
}

fn compile_failed(e: seccompiler::BackendError) -> SandboxError {
    SandboxError::Setup {
        step: "compiling the seccomp filter".into(),
        detail: e.to_string(),
    }
}

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, SandboxError> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(compile_failed)
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, SandboxError> {
    SeccompRule::new(conditions).map_err(compile_failed)
}

/// The rules answered `EPERM`: [`DENIED`], `clone` with a namespace flag,
/// the terminal-injecting `ioctl`s and `personality` outside
/// [`PERSONALITIES`].
fn eperm_rules() -> Result<BTreeMap<i64, Vec<SeccompRule>>, SandboxError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|nr| (*nr, Vec::new())).collect();
    let clone = NAMESPACE_FLAGS
        .iter()
        .map(|flag| rule(vec![condition(0, SeccompCmpOp::MaskedEq(*flag), *flag)?]))
        .collect::<Result<_, _>>()?;
    rules.insert(libc::SYS_clone, clone);
    // `Ioctl` is `c_ulong` here, `c_int` on musl: the cast is needed there.
    #[allow(clippy::unnecessary_cast)]
    let ioctl = [libc::TIOCSTI, libc::TIOCLINUX]
        .iter()
        .map(|request| rule(vec![condition(1, SeccompCmpOp::Eq, *request as u64)?]))
        .collect::<Result<_, _>>()?;
    rules.insert(libc::SYS_ioctl, ioctl);
    let others = PERSONALITIES
        .iter()
        .map(|value| condition(0, SeccompCmpOp::Ne, *value))
        .collect::<Result<_, _>>()?;
    rules.insert(libc::SYS_personality, vec![rule(others)?]);
    Ok(rules)
}

fn program(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
    arch: TargetArch,
) -> Result<BpfProgram, SandboxError> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .map_err(compile_failed)?;
    BpfProgram::try_from(filter).map_err(compile_failed)
}

/// On x86_64, the x32 ABI reuses the architecture's audit value with bit
/// 30 set in the call number: every such call kills the process (mcpctl
/// launches no x32 program), so the rules cannot be dodged through it.
/// The instructions go right after seccompiler's architecture check
/// (its first three), which no jump crosses.
fn refuse_x32(program: &mut BpfProgram, arch: TargetArch) {
    const X32_BIT: u32 = 0x4000_0000;
    if arch != TargetArch::x86_64 {
        return;
    }
    let guard = [
        // Load the call number (offset 0 of `struct seccomp_data`).
        sock_filter {
            code: 0x20,
            jt: 0,
            jf: 0,
            k: 0,
        },
        // If >= X32_BIT, fall through to the kill; else skip it.
        sock_filter {
            code: 0x35,
            jt: 0,
            jf: 1,
            k: X32_BIT,
        },
        sock_filter {
            code: 0x06,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_KILL_PROCESS,
        },
    ];
    program.splice(3..3, guard);
}

/// Compile the filters of a sandboxed launch (in the parent).
pub fn filters() -> Result<Filters, SandboxError> {
    let arch = target()?;
    let mut eperm = program(eperm_rules()?, libc::EPERM, arch)?;
    refuse_x32(&mut eperm, arch);
    let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
    let enosys = program(clone3, libc::ENOSYS, arch)?;
    Ok(Filters {
        programs: vec![eperm, enosys],
    })
}

impl Filters {
    /// Install every filter on the calling thread; in the child after
    /// `fork`, async-signal-safe (one `seccomp(2)` call each, no
    /// allocation). Needs no_new_privs, which the child set before.
    pub fn install(&self) -> io::Result<()> {
        for program in &self.programs {
            let fprog = libc::sock_fprog {
                len: program.len() as libc::c_ushort,
                filter: program.as_ptr() as *mut libc::sock_filter,
            };
            // SAFETY: the kernel copies the program; `fprog` and the
            // instructions it points to live across the call.
            let done = unsafe {
                libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0 as libc::c_ulong,
                    &fprog as *const libc::sock_fprog,
                )
            };
            if done != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_machine_with_the_x32_guard() {
        let filters = filters().expect("compiles");
        assert_eq!(filters.programs.len(), 2);
        let eperm = &filters.programs[0];
        // The architecture check kills, then (x86_64) the x32 guard.
        assert_eq!(eperm[2].k, libc::SECCOMP_RET_KILL_PROCESS);
        if cfg!(target_arch = "x86_64") {
            assert_eq!(eperm[4].k, 0x4000_0000);
            assert_eq!(eperm[5].k, libc::SECCOMP_RET_KILL_PROCESS);
        }
    }
}
