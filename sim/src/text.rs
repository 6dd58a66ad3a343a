//! Text someone typed, echoed back safely in a message.

/// At most a few characters of what someone typed, without markup or
/// control characters (each becomes `?`), so an echoed value can never
/// carry injected text of any length. Punctuation a number, a time or a
/// schedule needs (`- _ . + , : / %` and spaces) stays as typed.
pub fn clip(raw: &str) -> String {
    const SHOWN_CHARS: usize = 24;
    let clean: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.+ ,:/%".contains(c) {
                c
            } else {
                '?'
            }
        })
        .take(SHOWN_CHARS)
        .collect();
    if raw.chars().count() > SHOWN_CHARS {
        format!("{clean}…")
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn clip_keeps_a_numbers_punctuation_and_drops_markup() {
        assert_eq!(clip("0:nan, 5:200"), "0:nan, 5:200");
        assert_eq!(clip("2,5 %"), "2,5 %");
        assert_eq!(clip("<b>\"x\"&\n\u{1b}[31m"), "?b??x?????31m");
        assert_eq!(clip(&"9".repeat(30)), format!("{}…", "9".repeat(24)));
    }
}
