//! What the running kernel offers: the Landlock ABI and unprivileged user
//! namespaces, each with a test-only switch that simulates a kernel
//! without it (so the refusal is tested on any machine).

/// Test only: set to `1` to make mcpctl believe the kernel has no Landlock.
pub const TEST_NO_LANDLOCK: &str = "MCPCTL_TEST_NO_LANDLOCK";

/// Test only: set to `1` to make mcpctl believe user namespaces are off.
pub const TEST_NO_USERNS: &str = "MCPCTL_TEST_NO_USERNS";

fn switched_off(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// The Landlock ABI version the kernel speaks, 0 when it has none (or
/// Landlock is not enabled at boot).
pub fn landlock_abi() -> i32 {
    if switched_off(TEST_NO_LANDLOCK) {
        return 0;
    }
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the documented version query: no attribute, size 0.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    abi.max(0) as i32
}

/// True when this process may create a user namespace (checked in the
/// kernel's own switches; the child's `unshare` is the final word).
pub fn user_namespaces() -> bool {
    if switched_off(TEST_NO_USERNS) {
        return false;
    }
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let max = read("/proc/sys/user/max_user_namespaces")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(1);
    let debian = read("/proc/sys/kernel/unprivileged_userns_clone")
        .map(|v| v.trim() != "0")
        .unwrap_or(true);
    let root = nix::unistd::geteuid().is_root();
    max > 0 && (debian || root)
}
