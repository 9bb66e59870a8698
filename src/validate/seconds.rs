//! Seconds given as a float (`connect_timeout`, `--timeout`) turned into a
//! [`Duration`] without panicking.
//!
//! `Duration::from_secs_f64` panics on NaN, infinities, negatives and
//! values past `u64::MAX` seconds; a number read from a file or a flag is
//! hostile input, so every such conversion goes through [`duration`], which
//! refuses them with a message instead, and caps budgets at [`MAX_SECONDS`].

use std::time::Duration;

/// The longest budget or timeout mcpctl accepts: one day.
pub const MAX_SECONDS: f64 = 86_400.0;

/// The shortest: one millisecond. Less would fail every operation at once
/// and is a typo (`1e-3` meant as `1e3`) rather than a wish.
pub const MIN_SECONDS: f64 = 0.001;

/// `secs` as a [`Duration`] if it is a finite number of seconds from
/// [`MIN_SECONDS`] to [`MAX_SECONDS`]; otherwise why not, naming `what` (e.g.
/// "`connect_timeout`" or "--timeout").
pub fn duration(what: &str, secs: f64) -> Result<Duration, String> {
    if secs.is_nan() {
        return Err(format!("{what} must be a number of seconds, not NaN"));
    }
    let shown = show(secs);
    if secs <= 0.0 {
        return Err(format!(
            "{what} must be a positive number of seconds, not {shown}"
        ));
    }
    if secs < MIN_SECONDS {
        return Err(format!(
            "{what} of {shown} seconds is under the minimum of 1 ms (0.001)"
        ));
    }
    if secs > MAX_SECONDS {
        return Err(format!(
            "{what} of {shown} seconds is over the limit of {MAX_SECONDS} seconds (one day)"
        ));
    }
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("{what} of {shown} seconds is not a valid duration"))
}

/// A number as a person wrote it: `1e300`, not three hundred digits.
fn show(secs: f64) -> String {
    if secs.is_finite() && (secs.abs() >= 1e9 || (secs != 0.0 && secs.abs() < 1e-3)) {
        format!("{secs:e}")
    } else {
        secs.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_would_panic_and_accepts_the_rest() {
        for bad in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.0,
            0.0,
            1e30,
            1e300,
            1e-300,
            0.0009,
        ] {
            assert!(
                duration("--timeout", bad)
                    .unwrap_err()
                    .starts_with("--timeout")
            );
        }
        assert_eq!(duration("x", 1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(
            duration("x", 1e300).unwrap_err(),
            "x of 1e300 seconds is over the limit of 86400 seconds (one day)"
        );
        assert_eq!(duration("x", MAX_SECONDS), Ok(Duration::from_secs(86_400)));
        assert_eq!(duration("x", MIN_SECONDS), Ok(Duration::from_millis(1)));
        assert_eq!(
            duration("x", 1e-300).unwrap_err(),
            "x of 1e-300 seconds is under the minimum of 1 ms (0.001)"
        );
    }
}
