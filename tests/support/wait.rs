//! Waiting for a condition with a deadline: tests wait for the thing
//! itself, never for a fixed time.

use std::time::{Duration, Instant};

/// Poll `cond` every 20 ms until it holds or `deadline` passes; true when it
/// held. Tests wait for the condition itself with this, never for a fixed
/// time, and assert on the result with what they last saw.
pub fn wait_until(deadline: Instant, mut cond: impl FnMut() -> bool) -> bool {
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A deadline `secs` seconds from now, for [`wait_until`].
pub fn within(secs: u64) -> Instant {
    Instant::now() + Duration::from_secs(secs)
}

/// A deadline `limit` from now, for [`wait_until`] with a limit that is
/// not whole seconds.
pub fn after(limit: Duration) -> Instant {
    Instant::now() + limit
}

/// Poll `what` every 20 ms until it finds something or `deadline` passes;
/// what it found, `None` when the deadline passed first.
pub fn wait_for<T>(deadline: Instant, mut what: impl FnMut() -> Option<T>) -> Option<T> {
    let mut found = None;
    wait_until(deadline, || {
        found = what();
        found.is_some()
    });
    found
}
