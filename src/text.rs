//! Cutting text to fit: the one way a long string is shortened with `…`.

/// `text` cut to at most `width` terminal columns, ending in `…` when cut.
///
/// Columns, not bytes or chars: a wide character counts twice and an ANSI
/// style sequence not at all, so tables stay aligned; a cut never splits
/// a character.
pub fn truncate(text: &str, width: usize) -> String {
    console::truncate_str(text, width, "…").into_owned()
}

/// `text` in the style of an environment variable name: ASCII letters
/// upper-cased, digits kept, anything else `_` (`x-api-key` → `X_API_KEY`).
pub fn env_style(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(truncate("hello", 5), "hello");
        assert_eq!(truncate("", 3), "");
    }

    #[test]
    fn long_text_is_cut_to_the_width_with_an_ellipsis() {
        assert_eq!(truncate("hello world", 6), "hello…");
        assert_eq!(console::measure_text_width(&truncate("hello world", 6)), 6);
    }

    #[test]
    fn wide_characters_count_as_two_columns_and_are_not_split() {
        let cut = truncate("日本語のテキスト", 7);
        assert!(console::measure_text_width(&cut) <= 7, "{cut}");
        assert!(cut.ends_with('…'), "{cut}");
    }
}
