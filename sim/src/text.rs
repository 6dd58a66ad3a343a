//! Text someone typed, echoed back safely in a message.

/// At most a few characters of what someone typed, without markup, so an
/// echoed value can never carry injected text of any length.
pub fn clip(raw: &str) -> String {
    const SHOWN_CHARS: usize = 24;
    let clean: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.+ ".contains(c) {
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
