//! Giving memory back to the system after a big, short-lived allocation.
//!
//! Parsing a catalog of thousands of tools takes several times its JSON
//! size for a moment (the parsed schemas); once the catalog is kept as
//! JSON, that memory is free but the C allocator keeps most of it mapped,
//! so the supervisor's resident size would stay at its peak. Releasing it
//! keeps the daemon's footprint proportional to the catalogs it holds.

/// Return free heap pages to the system (glibc's `malloc_trim`; a no-op
/// on other C libraries, whose allocators differ).
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists, under
    // its own locks; it takes no pointer.
    unsafe {
        nix::libc::malloc_trim(0);
    }
}
