//! The Landlock ruleset of one launch, built in the parent before the
//! fork (opening paths allocates; the child only calls
//! `landlock_restrict_self` on the finished ruleset's descriptor).
//!
//! Deny by default: every file-system right the kernel knows is handled,
//! and only the paths of [`Grants`] are opened, read-only or read-write.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope,
};

use super::error::SandboxError;

/// The runtime's read-only needs: system binaries and libraries, the
/// `/etc` files a launcher reads (name service, TLS roots, time zone,
/// resolver), `/proc` (Landlock's ptrace rule keeps other processes'
/// entries closed) and a few devices.
const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
    "/etc/crypto-policies",
    "/etc/alternatives",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/services",
    "/etc/protocols",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/os-release",
    "/etc/mime.types",
    "/etc/npmrc",
    "/etc/pip.conf",
    "/usr/share/zoneinfo",
    "/proc",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
    "/dev/urandom",
    "/dev/random",
];

/// Devices every program may write.
const DEVICES_RW: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// The paths one launch may use, already expanded and checked.
#[derive(Debug, Default)]
pub struct Grants {
    /// Read and execute.
    pub read: Vec<PathBuf>,
    /// Read, write, create and remove beneath.
    pub write: Vec<PathBuf>,
}

impl Grants {
    /// The built-in system paths, that exist here.
    pub fn system() -> Grants {
        let existing = |list: &[&str]| {
            list.iter()
                .map(PathBuf::from)
                .filter(|p| p.exists())
                .collect::<Vec<_>>()
        };
        Grants {
            read: existing(SYSTEM_READ),
            write: existing(DEVICES_RW),
        }
    }
}

/// The Landlock ABI mcpctl asks for: the kernel's, capped at the newest
/// version whose rights this code was written against.
pub fn abi(kernel: i32) -> ABI {
    ABI::from(kernel.min(6))
}

/// The bits of the read-only rights [`ruleset`] grants, for a rule the
/// child adds itself (the PID namespace's fresh `/proc`).
pub fn read_bits(kernel: i32) -> u64 {
    AccessFs::from_read(abi(kernel)).bits()
}

fn landlock_failed(step: &str) -> impl Fn(landlock::RulesetError) -> SandboxError + '_ {
    move |e| SandboxError::Setup {
        step: format!("Landlock {step}"),
        detail: e.to_string(),
    }
}

/// The ruleset's descriptor: every right handled, the grants added,
/// signals and abstract Unix sockets scoped when the kernel can (ABI 6).
pub fn ruleset(kernel: i32, grants: &Grants) -> Result<OwnedFd, SandboxError> {
    let abi = abi(kernel);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .map_err(landlock_failed("ruleset"))?;
    if abi >= ABI::V6 {
        ruleset = ruleset
            .scope(Scope::from_all(abi))
            .map_err(landlock_failed("scoping"))?;
    }
    let mut created = ruleset.create().map_err(landlock_failed("ruleset"))?;
    let read = AccessFs::from_read(abi);
    let write = AccessFs::from_all(abi);
    let rules = grants
        .read
        .iter()
        .map(|p| (p, read))
        .chain(grants.write.iter().map(|p| (p, write)));
    for (path, access) in rules {
        created = created
            .add_rule(path_rule(path, access, abi)?)
            .map_err(landlock_failed("rule"))?;
    }
    Option::<OwnedFd>::from(created).ok_or_else(|| SandboxError::Unsupported {
        what: "Landlock".into(),
    })
}

/// One path beneath rule; a file gets only the rights a file can have.
fn path_rule(
    path: &Path,
    access: BitFlags<AccessFs>,
    abi: ABI,
) -> Result<PathBeneath<PathFd>, SandboxError> {
    let fd = PathFd::new(path).map_err(|e| SandboxError::Setup {
        step: format!(
            "opening {}",
            crate::text::sanitize(&path.display().to_string())
        ),
        detail: e.to_string(),
    })?;
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(abi)
    };
    Ok(PathBeneath::new(fd, access))
}
