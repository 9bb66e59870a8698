//! Yes-or-no environment variables, read the way operators write them.
//!
//! `MCPCTL_REQUIRE_PIN`, `MCPCTL_NO_SPAWN`, `MCPCTL_ALLOW_INSECURE_FILE`
//! and `MCPCTL_SERVE_IN_PROCESS` each accept `1`/`0`, `true`/`false`,
//! `yes`/`no` and `on`/`off` (any case, as clap's `BoolishValueParser`
//! reads the same variables on the command line); anything else is refused
//! there with the accepted words, and read as "no" where no command line
//! is parsed. A bottom-floor module: it imports nothing of mcpctl's.

/// The words that mean "yes", as clap's `BoolishValueParser` reads them.
const TRUE: &[&str] = &["y", "yes", "t", "true", "on", "1"];
/// The words that mean "no", as clap's `BoolishValueParser` reads them.
const FALSE: &[&str] = &["n", "no", "f", "false", "off", "0"];

/// `value` as a yes or a no, or `None` for a word that is neither (the
/// empty value too, as clap refuses it).
pub fn parse(value: &str) -> Option<bool> {
    let is = |words: &[&str]| words.iter().any(|w| value.eq_ignore_ascii_case(w));
    if is(TRUE) {
        Some(true)
    } else if is(FALSE) {
        Some(false)
    } else {
        None
    }
}

/// True when the variable `name` is set to a word meaning "yes"; unset,
/// "no" or an unknown word is false, so a typo never turns an override on.
pub fn is_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|value| parse(&value) == Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_operators_type() {
        for yes in ["1", "true", "TRUE", "yes", "Yes", "on", "ON", "y", "t"] {
            assert_eq!(parse(yes), Some(true), "{yes:?}");
        }
        for no in ["0", "false", "False", "no", "NO", "off", "n", "f"] {
            assert_eq!(parse(no), Some(false), "{no:?}");
        }
        for neither in ["", "2", "enable", "yess", "-1", " 1", "\u{0}"] {
            assert_eq!(parse(neither), None, "{neither:?}");
        }
    }

    /// The words agree with clap's, which reads the same variables when
    /// they back a flag.
    #[test]
    fn agrees_with_clap() {
        use clap::builder::TypedValueParser;
        let cmd = clap::Command::new("t");
        let clap_reads = |word: &str| {
            clap::builder::BoolishValueParser::new()
                .parse_ref(&cmd, None, std::ffi::OsStr::new(word))
                .ok()
        };
        for word in TRUE.iter().chain(FALSE).chain(&["maybe", "2", ""]) {
            assert_eq!(parse(word), clap_reads(word), "{word:?}");
        }
    }
}
