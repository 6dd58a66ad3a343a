//! Text someone typed: echoed back safely in a message, and numbers read
//! from it; and numbers written for people to read (digits grouped, a
//! fixed count of decimals).

/// At most a few characters of what someone typed, without markup or
/// control characters (each becomes `?`), so an echoed value can never
/// carry injected text of any length. Punctuation a number, a time or a
/// schedule or a flag's `=` needs (`- _ . + , : / % = #` and spaces), a
/// sum's brackets and signs (`( ) × ÷ √ − ≈ ~ ∞ * ^`), and arrows, symbols
/// and emoji (a "👍" was echoed as "?", which the learner never typed)
/// stay as typed.
pub fn clip(raw: &str) -> String {
    const SHOWN_CHARS: usize = 24;
    let clean: String = raw
        .chars()
        .map(|c| {
            // Not the ornaments that look like quotes or brackets (they
            // could pass for the quotes round an echo), nor the blank
            // braille pattern, which shows as nothing.
            let lookalike = matches!(u32::from(c), 0x2758..=0x2760 | 0x2768..=0x2775 | 0x2800);
            let symbol = !lookalike
                && matches!(u32::from(c), 0x2190..=0x2BFF | 0x1F000..=0x1FAFF | 0xFE0F | 0x200D);
            if symbol || c.is_alphanumeric() || "-_.+ ,:/%=#()×÷√−≈~∞*^".contains(c) {
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

/// A run of digits with its thousands grouped by commas: `"1234567"` →
/// `"1,234,567"`. Every number the app, the CLI and the course print is
/// grouped here.
pub fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `text` with every whole number of four or more digits grouped by
/// commas, as the app, the CLI and theory print them: "mean 2136 ms" → "mean
/// 2,136 ms". Digits after a decimal point are left alone.
pub fn group_thousands(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let run: String = chars[start..i].iter().collect();
        let fraction = start > 0 && chars[start - 1] == '.';
        if fraction || run.len() < 4 {
            out.push_str(&run);
        } else {
            out.push_str(&group_digits(&run));
        }
    }
    out
}

/// `x` rounded to `decimals`, with a comma every three digits: `1,234.5`.
/// A negative number gets a minus sign (−, U+2212), unless it rounds to
/// zero ("0", never "-0"); NaN is "—" and an infinity "∞". Every number
/// written with a fixed count of decimals (the app's, theory's reasons,
/// the course's) is written here.
pub fn fmt_fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "—".into()
        } else if x < 0.0 {
            "−∞".into()
        } else {
            "∞".into()
        };
    }
    // Rounded half away from zero, as people round: 12.5 % is "13 %".
    // Rust's formatting rounds a tie to even ("12 %"), and a learner who
    // worked out 12.5 took that for an error. Rounded in x's exact
    // decimal digits, which std writes out (40 past the kept ones): up
    // when the first dropped digit is 5 or more, so 2.675, stored just
    // below its tie, stays 2.67, and a number past 2^53 rounds as a small
    // one does.
    let digits = format!("{:.*}", decimals + 40, x.abs());
    let (kept, dropped) = digits.split_at(digits.len() - 40);
    let kept = kept.trim_end_matches('.');
    let s = if dropped.as_bytes()[0] >= b'5' {
        up_one_in_the_last_place(kept)
    } else {
        kept.to_owned()
    };
    let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(a, b)| (a, b));
    let mut out = group_digits(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    let zero = s.chars().all(|c| c == '0' || c == '.');
    if x < 0.0 && !zero {
        out.insert(0, '−');
    }
    out
}

/// `digits` (such as "12" or "9.99") one up in its last place, carried:
/// "13", "10.00".
fn up_one_in_the_last_place(digits: &str) -> String {
    let mut out: Vec<u8> = digits.bytes().collect();
    for b in out.iter_mut().rev() {
        match *b {
            b'.' => continue,
            b'9' => *b = b'0',
            _ => {
                *b += 1;
                return String::from_utf8(out).unwrap_or_default();
            }
        }
    }
    // Every digit carried: "9.99" is "10.00".
    format!("1{}", String::from_utf8(out).unwrap_or_default())
}

/// Decimals that keep about three significant figures of `x` for a
/// person to read: none from 100 (and for 0), one from 10, two below.
pub fn decimals_for(x: f64) -> usize {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    }
}

/// `x` to about three significant figures and `more` decimals beyond,
/// without trailing zeros, thousands separated by commas: `1,000`,
/// `33.3`, `0.0452`, `0.0000003`; `105.3` for 105.26 with one more. As the
/// figures table from 1 up; below 1, enough decimals for three digits. The
/// lessons' worked solutions and the answer checker's messages write
/// numbers so.
pub fn fmt_figures(x: f64, more: usize) -> String {
    let a = x.abs();
    let decimals = more
        + if a >= 1.0 || a == 0.0 {
            decimals_for(x)
        } else {
            (2 - a.log10().floor() as i32).clamp(0, 9) as usize
        };
    let s = fmt_fixed(x, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A rate in a sentence, requests a second, to about three figures as the
/// figures table writes it ([`decimals_for`]): `200`, `1,250`, `20.4`,
/// `9.46`, `0.54` (a slow rate never reads `0`). The signs wrote `20`
/// beside the table's `20.4`.
///
/// Below 0.1 a rate keeps three figures (`0.00667`): at two decimals a
/// limit of 0.0067 rps read `0.01` beside a run that finished `0.02`.
pub fn fmt_rate(x: f64) -> String {
    if x != 0.0 && x.abs() < 0.1 {
        fmt_figures(x, 0)
    } else {
        fmt_fixed(x, decimals_for(x))
    }
}

/// A rate, e.g. `400 rps`; a rate without end (a limit requests that use
/// no CPU never meet) is `no limit`, never `∞ rps`.
pub fn fmt_rps(x: f64) -> String {
    if x.is_infinite() {
        return "no limit".into();
    }
    format!("{} rps", fmt_rate(x))
}

/// A count or a mean count, e.g. `2,260` or `19.6`.
pub fn fmt_count(x: f64) -> String {
    fmt_fixed(
        x,
        if x.fract() == 0.0 {
            0
        } else {
            decimals_for(x).min(1)
        },
    )
}

/// A share 0–1 as a percentage, e.g. `50 %`, one decimal below 10 %
/// (`5.0 %`). Near 100 % a share just under or over it says which
/// (`99.8 %`, `100.3 %`), never a round `100 %` that is not exactly all.
/// Every percentage the app and the signs write is written here.
pub fn fmt_pct(x: f64) -> String {
    let mut p = x * 100.0;
    // Off by rounding in the sum that made it (1000/19 × 19/1000): all.
    if (p - 100.0).abs() < 1e-9 {
        p = 100.0;
    }
    let mut d = if x.abs() < 0.1 { 1 } else { 0 };
    let rounds_to_all = |d: usize| {
        let k = 10f64.powi(d as i32);
        p != 100.0 && (p * k).round() == 100.0 * k
    };
    while d < 3 && rounds_to_all(d) {
        d += 1;
    }
    if rounds_to_all(d) {
        return if p < 100.0 { "99.999 %" } else { "100.001 %" }.to_owned();
    }
    format!("{} %", fmt_fixed(p, d))
}

/// A run length in seconds as it was set: `60`, `2.5` (never rounded to
/// `2`), without the unit.
pub fn fmt_length_s(x: f64) -> String {
    let exact = |d: usize| {
        let k = 10f64.powi(d as i32);
        ((x * k).round() / k - x).abs() < 1e-9
    };
    fmt_fixed(x, (0..3).find(|d| exact(*d)).unwrap_or(3))
}

/// A decimal number as typed: an optional sign, digits with at most one
/// point, an optional exponent ("12", "-0.5", ".5", "5.", "+2", "1e3",
/// "2.5E-3"), spaces around it ignored; `None` for anything else ("inf",
/// "nan", "0x10", "1 000") or a number too large for an f64.
///
/// Every number a person types (a box, a URL, a flag, an answer) is read
/// here, by serde_json's number reader, which every build already holds
/// for JSON, and not by `str::parse::<f64>`, whose correctly rounded
/// reader brings a 10 KB table into the app's WebAssembly (10.5 KB of the
/// gzipped app, measured). The result is the same natively and in
/// WebAssembly. It is the nearest f64 whenever the digits (without the
/// point) are at most 2^53 and the power of ten is at most 10^22, which
/// covers what people type; beyond, it may differ from the nearest in the
/// last bits.
pub fn number(text: &str) -> Option<f64> {
    read_number(text).ok()
}

/// Why a text is not read as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotNumber {
    /// It is not written as a decimal number.
    Text,
    /// It is written as one, but is too large for an f64 ("1e400").
    TooLarge,
    /// It is written as one and is not 0, but is too close to 0 for an
    /// f64 to hold: [`read_number`] reads it as 0, as Rust does, and
    /// [`read_setting`] refuses it.
    TooSmall,
}

/// [`number`], saying why a text is not one.
pub fn read_number(text: &str) -> Result<f64, NotNumber> {
    let t = text.trim();
    let (negative, t) = match t.as_bytes().first().ok_or(NotNumber::Text)? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || whole.len() + fraction.len() == 0 {
        return Err(NotNumber::Text);
    }
    let exponent = match exponent {
        None => "",
        Some(e) => {
            let unsigned = e.strip_prefix(['-', '+']).unwrap_or(e);
            if unsigned.is_empty() || !digits(unsigned) {
                return Err(NotNumber::Text);
            }
            e
        }
    };
    // In JSON's grammar: no leading zeros, a digit on each side of the point.
    let whole = match whole.trim_start_matches('0') {
        "" => "0",
        w => w,
    };
    let json = format!(
        "{}{whole}{}{fraction}{}{exponent}",
        if negative { "-" } else { "" },
        if fraction.is_empty() { "" } else { "." },
        if exponent.is_empty() { "" } else { "e" },
    );
    // Written as a number: serde_json refuses only one too large to hold.
    serde_json::from_str::<f64>(&json)
        .ok()
        .filter(|v| v.is_finite())
        .ok_or(NotNumber::TooLarge)
}

/// Said of a number too close to 0 to hold ([`NotNumber::TooSmall`]).
const TOO_SMALL: &str = "is too close to 0 to hold (it would be read as 0)";

/// A setting's number ([`read_number`]), where one too close to 0 to
/// hold is refused, not read as 0: "rps=1e-400" was told "0 is out of
/// range", and a schedule's "10:1e-400" ran as a pause.
pub fn read_setting(text: &str) -> Result<f64, NotNumber> {
    let v = read_number(text)?;
    let mantissa = text.trim().split(['e', 'E']).next().unwrap_or_default();
    if v == 0.0 && mantissa.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        return Err(NotNumber::TooSmall);
    }
    Ok(v)
}

/// `text` without its thousands commas ([`ungrouped`]), or what is wrong:
/// a misplaced comma, or nothing typed ("'' is not a number" quoted
/// nothing a learner could see). The first step of both number readers.
fn typed_text(text: &str) -> Result<String, String> {
    let t = ungrouped(text)?;
    if t.is_empty() {
        return Err("an empty value is not a number".to_owned());
    }
    Ok(t)
}

/// A number someone typed (a box, a flag, a link, a schedule cell), its
/// thousands commas read ([`ungrouped`]), or what is wrong, quoting the
/// text: `'abc' is not a number`, `'1e400' is out of range`, or the
/// comma's own message. The caller adds what it allows.
pub fn typed_number(text: &str) -> Result<f64, String> {
    let t = typed_text(text)?;
    read_setting(&t).map_err(|why| match why {
        NotNumber::TooLarge => format!("'{}' is out of range", clip(&t)),
        NotNumber::TooSmall => format!("'{}' {TOO_SMALL}", clip(&t)),
        NotNumber::Text => format!("'{}' is not a number", clip(&t)),
    })
}

/// A whole number someone typed, as [`typed_number`] reads one: `40.0` and
/// `1e3` are whole, `-0` is 0; below 0 or past `u64` it is out of range
/// (every count's range starts at 0 or above), else not a whole number.
pub fn typed_whole(text: &str) -> Result<u64, String> {
    let t = typed_text(text)?;
    let refused = |what: &str| format!("'{}' {what}", clip(&t));
    // A number read is shown bare, as a decimal box shows one ("-3 is out
    // of range"); only text that is no number is quoted ("'1e400'").
    let out_of_range = || format!("{} is out of range", clip(&t));
    // A minus sign before digits is a whole number below every count's
    // range ("-0" is 0), not something else.
    let below_zero = t
        .strip_prefix('-')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    match below_zero {
        Some(d) if d.bytes().all(|b| b == b'0') => Ok(0),
        Some(_) => Err(out_of_range()),
        None => match t.parse::<u64>() {
            Ok(n) => Ok(n),
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(out_of_range()),
            // "40.0" and "1e3" are whole numbers written as decimals, as
            // a file's 40.0 is read; "2.5" is not.
            Err(_) => match read_setting(&t) {
                Ok(x) if x.fract() == 0.0 && (0.0..u64::MAX as f64).contains(&x) => Ok(x as u64),
                Ok(x) if x.fract() == 0.0 => Err(out_of_range()),
                Err(NotNumber::TooLarge) => Err(refused("is out of range")),
                // "threads=1e-400" was told "0 is out of range", and a line
                // limit of 1e-400 switched the limit off.
                Err(NotNumber::TooSmall) => Err(refused(TOO_SMALL)),
                _ => Err(refused("is not a whole number")),
            },
        },
    }
}

/// A number typed (in a box, a flag, a URL) without its thousands commas ("1,200" →
/// "1200"), or what is wrong: a comma anywhere else ("2,5" meant as 2.5)
/// is refused, not read as a bigger number.
pub fn ungrouped(text: &str) -> Result<String, String> {
    let t = text.trim();
    if !t.contains(',') {
        return Ok(t.to_owned());
    }
    let whole = t.split(['.', 'e', 'E']).next().unwrap_or("");
    let mut groups = whole.trim_start_matches(['-', '+']).split(',');
    let first = groups.next().unwrap_or("");
    let grouped = (1..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
        && !t[whole.len()..].contains(',');
    if grouped {
        Ok(t.replace(',', ""))
    } else {
        Err(format!(
            "'{}': write decimals with a point (2.5); a comma may only group thousands (1,000)",
            clip(t)
        ))
    }
}

/// A duration given in ms, e.g. `1,234 ms`, `45.6 ms`, `0.25 ms`; from 10 s
/// on in seconds (`22.6 s`).
pub fn fmt_ms(x: f64) -> String {
    // From 10 s on in seconds: "22.6 s", not "22,567 ms".
    if x.abs() >= 10_000.0 {
        return fmt_s(x / 1000.0);
    }
    // A time that rounds to nothing is not 0.00 ms: some request waited.
    if x > 0.0 && x < 0.005 {
        return "under 0.01 ms".to_owned();
    }
    format!("{} ms", fmt_fixed(x, decimals_for(x)))
}

/// A duration in seconds, e.g. `2.3 s`, `0.25 s`, `1,200 s`; under 10 ms
/// in ms (`1.00 ms`, not `0.00 s`).
pub fn fmt_s(x: f64) -> String {
    if x != 0.0 && x.abs() < 0.01 {
        return fmt_ms(x * 1000.0);
    }
    format!(
        "{} s",
        fmt_fixed(x, decimals_for(x).min(if x >= 1.0 { 1 } else { 2 }))
    )
}

/// A list in words: "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    joined(items, "and")
}

/// A list of choices in words: "a", "a or b", "a, b or c".
pub fn or_list(items: &[String]) -> String {
    joined(items, "or")
}

/// `items` in words, the last joined by `word`.
fn joined(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// `text` with its first letter in upper case, in ASCII (the app's own
/// words start with a plain letter; Unicode's upper case would add its
/// tables to the wasm, about 6 KB).
pub fn capitalised(text: &str) -> String {
    let mut out = text.to_owned();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

/// `text` as it reads inside a sentence: its first letter in lower case,
/// in ASCII, unless the word is an abbreviation ("That is …" → "that is
/// …"; "CPU time …" stays).
pub fn decapitalised(text: &str) -> String {
    let mut out = text.to_owned();
    let abbreviation = text.chars().nth(1).is_some_and(|c| c.is_ascii_uppercase());
    if let (Some(first), false) = (out.get_mut(..1), abbreviation) {
        first.make_ascii_lowercase();
    }
    out
}

/// `x` as typed (no more decimals than it has), thousands grouped: "1,500",
/// "0.05"; far from 1, in short to four figures: "1e-300", "1.798e308"
/// (written out, they are hundreds of digits).
pub fn typed(x: f64) -> String {
    if x != 0.0 && !(1e-6..1e15).contains(&x.abs()) {
        // By hand, to four figures: std's `{:e}` costs the app 0.5 KB.
        // The power of ten is taken in two halves, as 10^±324 is out of
        // range.
        let mut e = x.abs().log10().floor() as i32;
        let mut m = x / 10f64.powi(e / 2) / 10f64.powi(e - e / 2);
        m = (m * 1000.0).round() / 1000.0;
        if m.abs() >= 10.0 {
            (m, e) = (m / 10.0, e + 1);
        }
        return format!("{m}e{e}");
    }
    group_thousands(&format!("{x}"))
}

/// A count and its noun: `1 core`, `4 cores`, `1,000 clients` (a noun
/// whose plural is not its `s` form takes [`noun`]).
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", group_thousands(&n.to_string()))
    }
}

/// "4 cores", or "one core": a count of `n` of `word` written after
/// "the" or another determiner ("the pool's one thread", not "1 thread").
pub fn counted(n: u64, word: &str) -> String {
    if n == 1 {
        format!("one {word}")
    } else {
        plural(n, word)
    }
}

/// "the 4 cores", or "the one core" (not "the 1 core").
pub fn the_count(n: u64, word: &str) -> String {
    format!("the {}", counted(n, word))
}

/// The words for a count of `n`: `one` for 1, `many` otherwise
/// ("request waits" / "requests wait"), written after the count.
pub fn noun<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The units of measure a number keeps beside it on a line; after 1 they
/// stay as they are ("1 ms"), where a counted thing takes the singular
/// ("1 call").
pub const UNITS: [&str; 10] = [
    "calls/s", "per", "rps", "ms", "µs", "MB", "KB", "GB", "%", "s",
];

/// `text` with a no-break space between each number and its unit ("933
/// ms", "75 %", "1,000 KB"), so that a line never breaks between them: a
/// screenshot review found "933 / ms" in narrow cells, and "25 / %" in an
/// exercise. A word that only starts like a unit ("2 slots") keeps its
/// space. A number's place in an exercise's text, `{…}` ("{cpu} %"),
/// counts as a number: the course keeps its units when it is built.
pub fn units_kept(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut from = 0;
    for (i, _) in text.match_indices(' ') {
        let after = &text[i + 1..];
        let unit = UNITS.iter().any(|u| {
            after.starts_with(u)
                && after
                    .as_bytes()
                    .get(u.len())
                    .is_none_or(|c| !c.is_ascii_alphanumeric())
        });
        if unit && i > 0 && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'}') {
            out.push_str(&text[from..i]);
            out.push('\u{a0}');
            from = i + 1;
        }
    }
    out.push_str(&text[from..]);
    // "per s" is one unit: "205 per / s" broke in a phone's narrow cell.
    let per_s = "\u{a0}per s";
    let mut kept = String::with_capacity(out.len() + 4);
    let mut rest = out.as_str();
    while let Some(at) = rest.find(per_s) {
        let end = at + per_s.len();
        let word_goes_on = rest[end..].starts_with(|c: char| c.is_alphanumeric());
        kept.push_str(&rest[..at]);
        kept.push_str(if word_goes_on {
            per_s
        } else {
            "\u{a0}per\u{a0}s"
        });
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

#[cfg(test)]
mod tests {
    use super::{
        capitalised, clip, decapitalised, fmt_count, fmt_fixed, fmt_length_s, fmt_pct, fmt_rate,
        group_digits, group_thousands, number, typed_number, typed_whole, units_kept,
    };

    /// An empty value is said to be empty, not quoted as `''`.
    #[test]
    fn an_empty_value_is_said_to_be_empty() {
        for t in ["", "  "] {
            assert_eq!(
                typed_number(t),
                Err("an empty value is not a number".to_owned())
            );
            assert_eq!(
                typed_whole(t),
                Err("an empty value is not a number".to_owned())
            );
        }
        assert_eq!(typed_number("abc"), Err("'abc' is not a number".to_owned()));
    }

    #[test]
    fn a_sentence_is_capitalised_and_read_on_in_ascii() {
        assert_eq!(capitalised("the p99"), "The p99");
        assert_eq!(decapitalised("That is the wait."), "that is the wait.");
        // An abbreviation keeps its capitals.
        assert_eq!(decapitalised("CPU time alone."), "CPU time alone.");
        assert_eq!(decapitalised(""), "");
        assert_eq!(decapitalised("Élan"), "Élan");
    }

    #[test]
    fn a_share_near_all_says_which_side_of_all_it_is() {
        assert_eq!(fmt_pct(0.5013), "50 %");
        assert_eq!(fmt_pct(0.05), "5.0 %");
        // The tipping point reads as what it is.
        assert_eq!(fmt_pct(0.9975), "99.8 %");
        assert_eq!(fmt_pct(0.996), "99.6 %");
        assert_eq!(fmt_pct(0.9996), "99.96 %");
        assert_eq!(fmt_pct(1.0), "100 %");
        assert_eq!(fmt_pct(1.003), "100.3 %");
        assert_eq!(fmt_pct(1000.0 / 19.0 * 19.0 / 1000.0), "100 %");
        assert_eq!(fmt_pct(0.999_999_9), "99.999 %");
    }

    #[test]
    fn counts_and_run_lengths_read_like_prose() {
        assert_eq!(fmt_rate(1250.4), "1,250");
        assert_eq!(fmt_rate(9.46), "9.46");
        assert_eq!(fmt_rate(20.44), "20.4");
        assert_eq!(
            fmt_rate(20.44),
            super::fmt_rps(20.44).trim_end_matches(" rps")
        );
        assert_eq!(fmt_rate(0.5417), "0.54");
        assert_eq!(fmt_rate(0.0), "0");
        assert_eq!(fmt_rate(1.0 / 150.0), "0.00667");
        assert_eq!(fmt_rate(0.048), "0.048");
        assert_eq!(fmt_count(2259.85), "2,260");
        assert_eq!(fmt_count(19.0), "19");
        assert_eq!(fmt_count(19.64), "19.6");
        assert_eq!(fmt_length_s(2.5), "2.5");
        assert_eq!(fmt_length_s(60.0), "60");
    }

    #[test]
    fn long_numbers_in_a_sentence_are_grouped() {
        assert_eq!(
            group_thousands("mean 7238 ms against 100 ms; 1024 cores, 0.12345 s, 1,234"),
            "mean 7,238 ms against 100 ms; 1,024 cores, 0.12345 s, 1,234"
        );
        assert_eq!(group_thousands("1000000 rps"), "1,000,000 rps");
        assert_eq!(group_thousands("no numbers"), "no numbers");
    }

    #[test]
    fn digits_are_grouped_by_thousands() {
        for (digits, shown) in [
            ("0", "0"),
            ("999", "999"),
            ("1000", "1,000"),
            ("123456", "123,456"),
            ("18446744073709551615", "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(group_digits(digits), shown);
        }
    }

    #[test]
    fn a_number_far_from_1_is_written_short() {
        for (x, shown) in [
            (1e-300, "1e-300"),
            // The least number above 0, 4.94e-324, to four figures.
            (5e-324, "4.941e-324"),
            (-2.5e-7, "-2.5e-7"),
            (f64::MAX, "1.798e308"),
            (9.99999e20, "1e21"),
            (1e15, "1e15"),
            (1_500.0, "1,500"),
            (0.05, "0.05"),
            (0.0, "0"),
        ] {
            assert_eq!(super::typed(x), shown, "{x}");
        }
    }

    #[test]
    fn fixed_decimals_are_rounded_and_grouped() {
        for (x, decimals, shown) in [
            (1234.5, 1, "1,234.5"),
            (1234.56, 0, "1,235"),
            (999.96, 1, "1,000.0"),
            (1_234_567.891, 2, "1,234,567.89"),
            (0.0, 2, "0.00"),
            (0.25, 2, "0.25"),
            (12.0, 0, "12"),
            // Ties away from zero (std gives "12", "0.12", "2", "0").
            (12.5, 0, "13"),
            (0.125, 2, "0.13"),
            (2.5, 0, "3"),
            (-2.5, 0, "−3"),
            (0.5, 0, "1"),
            // Not a tie: 2.675 is stored just below it.
            (2.675, 2, "2.67"),
            // Carried, and past 2^53 as below it.
            (9.995, 2, "9.99"),
            (9.5, 0, "10"),
            (99.875, 2, "99.88"),
            (0.999_5, 3, "1.000"),
            (1e15 + 0.25, 1, "1,000,000,000,000,000.3"),
            (1e14 + 0.625, 2, "100,000,000,000,000.63"),
            (-1234.5, 1, "−1,234.5"),
            (-0.004, 2, "0.00"),
            (-0.0, 0, "0"),
            (f64::NAN, 1, "—"),
            (f64::INFINITY, 0, "∞"),
            (f64::NEG_INFINITY, 0, "−∞"),
        ] {
            assert_eq!(
                fmt_fixed(x, decimals),
                shown,
                "{x} with {decimals} decimals"
            );
        }
    }

    #[test]
    fn fixed_decimals_of_a_positive_number_are_stds_digits_grouped() {
        // What theory's text wrote before it called fmt_fixed: std's
        // digits, thousands grouped (ties apart, which these values are
        // not: the test above has them).
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((x % 13) as i32 - 3);
            for decimals in 0..4 {
                assert_eq!(
                    fmt_fixed(v, decimals),
                    group_thousands(&format!("{v:.decimals$}")),
                    "{v}"
                );
            }
        }
    }

    #[test]
    fn numbers_read_as_people_type_them() {
        for (typed, v) in [
            ("12", 12.0),
            ("-0.5", -0.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("+2", 2.0),
            ("1e3", 1000.0),
            ("2.5E-3", 0.0025),
            ("007.50", 7.5),
            (" 42 ", 42.0),
            ("-.25", -0.25),
            ("13e3", 13000.0),
            ("0", 0.0),
            ("1e-400", 0.0),
        ] {
            assert_eq!(number(typed), Some(v), "{typed}");
        }
        for bad in [
            "", "-", ".", "e3", "1e", "1e+", "inf", "NaN", "infinity", "0x10", "1 000", "1,5",
            "1.2.3", "--1", "1e3.5", "1e400", "½", "١٢",
        ] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_people_type_read_as_std_reads_them() {
        // What people type: up to 15 significant digits, exponents within
        // ±22 (after the point is moved). xorshift for variety, no crate.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200_000 {
            let digits = 1 + (next() % 15) as u32;
            let mantissa = next() % 10u64.pow(digits);
            let point = (next() % u64::from(digits + 1)) as usize;
            let s = format!("{mantissa:0width$}", width = digits as usize);
            let s = format!("{}.{}", &s[..point], &s[point..]);
            let exp = (next() % 15) as i32 - 7;
            let typed = if next() % 2 == 0 {
                s
            } else {
                format!("{s}e{exp}")
            };
            let std: f64 = typed.parse().unwrap();
            assert_eq!(number(&typed), Some(std), "{typed}");
        }
    }

    #[test]
    fn clip_keeps_a_numbers_punctuation_and_drops_markup() {
        assert_eq!(clip("0:nan, 5:200"), "0:nan, 5:200");
        assert_eq!(clip("2,5 %"), "2,5 %");
        assert_eq!(clip("<b>\"x\"&\n\u{1b}[31m"), "?b??x?????31m");
        assert_eq!(clip(&"9".repeat(30)), format!("{}…", "9".repeat(24)));
        // A learner's sum is echoed as typed (brackets, √ and × were '?').
        assert_eq!(clip("(1 − 0.85) × √2 ≈ ∞"), "(1 − 0.85) × √2 ≈ ∞");
        // A link's '#' is echoed as itself: '?' reads as another character
        // of a URL ("'40?junk'" for 40#junk).
        assert_eq!(clip("40#junk"), "40#junk");
        // Emoji and symbols are echoed as themselves; marks that turn text
        // round or hide it are not.
        assert_eq!(clip("👍 ✓ → 👩‍💻 ❤️"), "👍 ✓ → 👩‍💻 ❤️");
        assert_eq!(clip("a\u{202e}b\u{200b}"), "a?b?");
        assert_eq!(clip("20\u{275c} \u{2800}\u{276e}"), "20? ??");
    }

    #[test]
    fn a_number_keeps_its_unit_on_its_line() {
        let nb = |s: &str| s.replace('~', "\u{a0}");
        assert_eq!(units_kept("582 ms / 933 ms"), nb("582~ms / 933~ms"));
        assert_eq!(
            units_kept("runs at 75 % of its limit: 1,000 KB, 10.3 s."),
            nb("runs at 75~% of its limit: 1,000~KB, 10.3~s.")
        );
        assert_eq!(units_kept("80 per s"), nb("80~per~s"));
        assert_eq!(units_kept("80 per s."), nb("80~per~s."));
        assert_eq!(units_kept("80 per second"), nb("80~per second"));
        assert_eq!(units_kept("400 rps (approx.)"), nb("400~rps (approx.)"));
        assert_eq!(units_kept("≈5 µs"), nb("≈5~µs"));
        // A word that starts like a unit is no unit; no number, no unit.
        assert_eq!(units_kept("2 slots, 3 messages"), "2 slots, 3 messages");
        assert_eq!(units_kept("ms and s"), "ms and s");
        assert_eq!(units_kept(" ms"), " ms");
        assert_eq!(units_kept(""), "");
        // An exercise's number, before it is filled in.
        assert_eq!(
            units_kept("CPU is at {cpu} %; {=rps*2} rps"),
            nb("CPU is at {cpu}~%; {=rps*2}~rps")
        );
    }
}
