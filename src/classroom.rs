//! The classroom's secrets: a teacher key, the class code made from it, and
//! the check value that tells a student's untouched progress file from an
//! edited one.
//!
//! ```text
//!  20 random symbols ──► teacher key  ABCDE-FGHJK-MNPQR-STVWX   (the teacher keeps it)
//!  SHA-256(key) ──► 7 symbols + 1 check symbol ──► class code  K7Q2-MX4P   (for students)
//!  HMAC-SHA-256(class code, progress) ──► the file's "check" value
//! ```
//!
//! The class code is a one-way hash of the key, so knowing the code does not
//! give the key; the answer key page asks for the key and opens only if its
//! hash is the class code. All of this runs in the browser: a determined
//! student with developer tools can still work the answers out. The key
//! stops casual copying, and the check value stops casual editing of a
//! file (a student knows the class code, so could recompute it).
//!
//! Codes and keys use Crockford's base-32 symbols (digits and capitals
//! without I, L, O and U), so none reads as another. Encoding a few bytes
//! in it is the few lines of [`base32`]; a general base-32 crate would add
//! more to the app's download than it saves here.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The symbols of codes and keys: Crockford's base 32.
const SYMBOLS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Symbols in a teacher key: 100 bits.
pub const KEY_SYMBOLS: usize = 20;
/// Random bytes a new teacher key needs (104 bits; 100 are used).
pub const KEY_RANDOM_BYTES: usize = 13;
/// Symbols of a class code taken from the hash (35 bits); one check symbol follows.
const CODE_HASH_SYMBOLS: usize = 7;

/// The first line of the file a teacher saves their class in ([`class_file`]).
pub const CLASS_FILE_HEADING: &str = "Tellers class";

/// The text file a teacher saves: the class code, the teacher key, and
/// what each is for (CRLF line ends, for Windows' Notepad too).
pub fn class_file(code: &str, key: &str) -> String {
    format!(
        "{CLASS_FILE_HEADING}\r\n\r\nClass code (give it to your students): {code}\r\n\
         Teacher key (keep it to yourself; it opens the answer key): {key}\r\n",
    )
}

/// The first `n` base-32 symbols of `bytes`, five bits each, high bits first.
pub fn base32(bytes: &[u8], n: usize) -> String {
    (0..n.min(bytes.len() * 8 / 5))
        .map(|i| {
            let bit = i * 5;
            let pair =
                u16::from(bytes[bit / 8]) << 8 | u16::from(*bytes.get(bit / 8 + 1).unwrap_or(&0));
            let v = (pair >> (11 - bit % 8)) & 31;
            char::from(SYMBOLS[usize::from(v)])
        })
        .collect()
}

/// `text` in groups of `size` joined by hyphens: `ABCDEFGH` → `ABCD-EFGH`.
fn grouped(text: &str, size: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

fn sha256(parts: &[&str]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
    }
    h.finalize().into()
}

/// A new teacher key from `random` bytes (from the browser's
/// `crypto.getRandomValues`): 20 symbols in groups of five.
pub fn new_teacher_key(random: &[u8; KEY_RANDOM_BYTES]) -> String {
    grouped(&base32(random, KEY_SYMBOLS), 5)
}

/// A teacher key as typed, made canonical (capitals, no spaces or dashes,
/// and as Crockford's base 32 reads them, O as 0 and I or L as 1: a key
/// never holds those letters, so one typed for a digit is that digit),
/// or what is wrong with it.
pub fn read_teacher_key(text: &str) -> Result<String, String> {
    // As a class code is read when it may be mistyped: the same letters.
    let key = bare_code(text);
    if key.is_empty() {
        return Err("Type the teacher key you got when you created the class.".into());
    }
    if let Some(c) = key
        .chars()
        .find(|c| !c.is_ascii() || !SYMBOLS.contains(&(*c as u8)))
    {
        return Err(format!(
            "A teacher key has only digits and the letters A to Z other than U; '{c}' is not one of them."
        ));
    }
    // The class code typed where the key goes.
    if matches!(read_class_code(text), ClassCode::Keyed(_)) {
        return Err(format!(
            "{} is the class code, the one students type; the teacher key is the longer one \
             (four groups of five) you got when you created the class.",
            text.trim()
        ));
    }
    if key.chars().count() != KEY_SYMBOLS {
        return Err(format!(
            "A teacher key has {KEY_SYMBOLS} letters and digits (four groups of five); this one has {}.",
            key.chars().count()
        ));
    }
    Ok(key)
}

/// The check symbol of a class code's first seven symbols.
fn check_symbol(head: &str) -> char {
    let h = sha256(&["tellers class code check/", head]);
    char::from(SYMBOLS[usize::from(h[0] & 31)])
}

/// The class code a teacher key opens: `K7Q2-MX4P`.
pub fn class_code(key: &str) -> Result<String, String> {
    let key = read_teacher_key(key)?;
    let head = base32(&sha256(&["tellers class code/", &key]), CODE_HASH_SYMBOLS);
    Ok(format!(
        "{}-{}{}",
        &head[..4],
        &head[4..],
        check_symbol(&head)
    ))
}

/// What kind of class code a learner or teacher typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassCode {
    /// No code: everyone shares the default numbers.
    None,
    /// A code made by Tellers from a teacher key (canonical: capitals).
    Keyed(String),
    /// A code a teacher chose by hand, before teacher keys (as typed, trimmed).
    Plain(String),
    /// Shaped like a Tellers code (`XXXX-XXXX`) but its check symbol does
    /// not match: most likely mistyped.
    Mistyped(String),
}

impl ClassCode {
    /// The code to store and to seed numbers with.
    pub fn text(&self) -> &str {
        match self {
            ClassCode::None => "",
            ClassCode::Keyed(c) | ClassCode::Plain(c) | ClassCode::Mistyped(c) => c,
        }
    }
}

/// Read a class code. Only the exact shape `XXXX-XXXX` (any case) can be a
/// Tellers code, so a class's seeds never depend on how a code is typed;
/// anything else is a plain code from before teacher keys (a code typed
/// with a look-alike is one too, with a suggestion: [`suggested_code`]).
/// The shape is judged on the code as seeds read it ([`seed_text`], lower
/// case by Unicode's rules): a code that gives a Tellers code's numbers is
/// that code, and locked as it is. (The Kelvin sign `K`, U+212A, lowers to
/// an ASCII `k`: read as a plain code, `D9W2-CYWK` typed with it opened
/// the class's answer key without the teacher key.)
pub fn read_class_code(text: &str) -> ClassCode {
    let code = text.trim();
    if code.is_empty() {
        return ClassCode::None;
    }
    let upper = seed_text(code).to_ascii_uppercase();
    let b = upper.as_bytes();
    let shaped = b.len() == 9
        && b[4] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || SYMBOLS.contains(c));
    if !shaped {
        return ClassCode::Plain(code.to_string());
    }
    let head = format!("{}{}", &upper[..4], &upper[5..8]);
    if upper.ends_with(check_symbol(&head)) {
        ClassCode::Keyed(upper)
    } else {
        ClassCode::Mistyped(upper)
    }
}

/// For a code that is not a Tellers code as typed, the Tellers code it most
/// likely means, if that code is well formed: typed without its hyphen or
/// with a space (`k7q2mx4p`), with another dash (an en dash pasted from
/// slides), or with letters that look like digits (O for 0, I or L for 1).
/// Only suggested, never read so: a hand-chosen code must keep its numbers.
pub fn suggested_code(text: &str) -> Option<String> {
    if matches!(read_class_code(text), ClassCode::Keyed(_)) {
        return None;
    }
    let bare = bare_code(text);
    // A Tellers code is ASCII: only then is byte 4 between two letters.
    if bare.len() != 8 || !bare.is_ascii() {
        return None;
    }
    match read_class_code(&format!("{}-{}", &bare[..4], &bare[4..])) {
        ClassCode::Keyed(code) => Some(code),
        _ => None,
    }
}

/// A class code or a teacher key with what people mistype taken out: no
/// spaces or dashes of any kind, capitals, 0 for O and 1 for I or L (as
/// Crockford's base 32 reads them), and full-width letters and digits (a
/// keyboard set to Japanese or Chinese types Ｋ７Ｑ２) as their ASCII.
/// Two codes with the same bare form are one code typed two ways.
pub fn bare_code(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            // U+FF01–FF5E are ASCII's '!' to '~', full width.
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            // The long-vowel mark an IME often types for a hyphen.
            '\u{30FC}' => '-',
            c => c,
        })
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect()
}

/// Whether `key` opens the answer key of class `code`, or why not.
pub fn key_opens(key: &str, code: &str) -> Result<(), String> {
    let ClassCode::Keyed(code) = read_class_code(code) else {
        return Err("Only a class created in Tellers has a teacher key.".into());
    };
    if class_code(key)? == code {
        Ok(())
    } else {
        Err(format!(
            "This teacher key does not open class {code}. Check it against the one you saved when you created the class."
        ))
    }
}

/// What to tell a student about the class code they typed, if anything.
pub fn class_code_note(text: &str) -> Option<String> {
    code_note(
        text,
        "Check it with your teacher (if your teacher chose it by hand, it is fine).",
    )
}

/// What to tell a teacher about the class code typed on a teacher's page
/// (results, answer key), if anything.
pub fn teacher_code_note(text: &str) -> Option<String> {
    code_note(text, "A code you chose by hand is fine.")
}

/// The Tellers code a typed code may mean, or that it does not look like
/// one, then `advice`.
fn code_note(text: &str, advice: &str) -> Option<String> {
    if let Some(code) = suggested_code(text) {
        return Some(format!(
            "Did you mean {code}? Class codes made in Tellers have a hyphen in the middle, and use 0 and 1, never O, I or L."
        ));
    }
    match read_class_code(text) {
        ClassCode::Mistyped(code) => Some(format!(
            "{code} does not look like a code made in Tellers: a letter or digit may be mistyped. {advice}"
        )),
        ClassCode::Plain(code) => {
            let n = symbols_if_near_a_code(&code)?;
            let off = match n {
                7 => "one may be missing".to_owned(),
                9 => "one may be extra".to_owned(),
                _ => format!("{} may be missing", 8 - n),
            };
            Some(format!(
                "{code} has {n} letters and digits; a code made in Tellers has 8, four on each side \
                 of the hyphen, so {off}. {advice}"
            ))
        }
        _ => None,
    }
}

/// For a code shaped like a Tellers code but for one symbol too few or too
/// many (`H9FC-F26`, `H9FC-F2600`: a hyphen, and 7 or 9 of the symbols
/// Tellers codes use), or cut off after its hyphen (`H9FC-F`, `H9FC-`: a
/// link a chat app broke), how many symbols it has. A code chosen by hand
/// rarely has that shape; one that does is still read as typed.
fn symbols_if_near_a_code(code: &str) -> Option<usize> {
    let (left, right) = code.split_once('-')?;
    let ours = |part: &str| {
        part.bytes()
            .all(|b| SYMBOLS.contains(&b.to_ascii_uppercase()))
    };
    let n = left.len() + right.len();
    let near = matches!((left.len(), right.len()), (3 | 5, 4) | (4, 0..=5));
    (near && ours(left) && ours(right) && n != 8).then_some(n)
}

/// What the answer key page shows for a class code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyAccess {
    /// No class code yet.
    AskCode,
    /// A Tellers code not yet opened with its teacher key.
    AskKey(String),
    /// The key may be shown; with a notice when the code has no teacher key.
    Open {
        /// The code to seed the students' numbers with.
        code: String,
        /// Why anyone with the code could open this, when that is so.
        notice: Option<String>,
    },
}

/// What the answer key page shows for the `typed` class code, given the
/// code a teacher key has opened on this page (if any).
pub fn key_access(typed: &str, opened: Option<&str>) -> KeyAccess {
    // A code that looks like a mistyped Tellers code says which it may be.
    let maybe = suggested_code(typed).map_or(String::new(), |c| {
        format!(" If you meant the Tellers code {c}, type it exactly so.")
    });
    match read_class_code(typed) {
        ClassCode::None => KeyAccess::AskCode,
        ClassCode::Keyed(code) if opened == Some(code.as_str()) => {
            KeyAccess::Open { code, notice: None }
        }
        ClassCode::Keyed(code) => KeyAccess::AskKey(code),
        // Not "was made with": nobody may have made it (a Tellers code
        // typed with a symbol too few is one of these too).
        ClassCode::Plain(code) => KeyAccess::Open {
            notice: Some(format!(
                "{code} is not a code made in Tellers, so it has no teacher key: anyone who knows \
                 it can open this key. If you chose it by hand, before teacher keys, these are \
                 your students' numbers; create your next class in Tellers to get a teacher key.{}",
                symbols_if_near_a_code(&code).map_or(maybe, |n| format!(
                    " It has {n} letters and digits, where a code made in Tellers has 8: check it \
                     against the code you gave your class."
                ))
            )),
            code,
        },
        ClassCode::Mistyped(code) => KeyAccess::Open {
            notice: Some(format!(
                "{code} is not a code made in Tellers (its last symbol does not match), so it has \
                 no teacher key: these are the numbers of students who typed exactly {code}.{maybe}"
            )),
            code,
        },
    }
}

/// HMAC-SHA-256 of `message` under `key`, as lower-case hex.
fn hmac_hex(key: &[u8], message: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `text` trimmed, with each run of spaces inside made one space: "Ana
/// Souza" for "  Ana   Souza ", and without control characters (a NUL or
/// an escape in a name went into the teacher's CSV as it was) or the
/// invisible marks that turn text right to left ([`is_bidi_control`]): a
/// name holding one turned the words after it round wherever it was shown
/// ("egnahC" for "Change").
pub fn tidy(text: &str) -> String {
    text.split(|c: char| c.is_control() || is_bidi_control(c))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// True for Unicode's directional marks, embeddings, overrides and
/// isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A class code or a name as seeds and checks read it: [`tidy`], lower
/// case, in Unicode's composed form (NFC). Two spellings that differ only
/// so are the same student: "Zoë" typed as one letter or as an e and a
/// combining diaeresis (as some keyboards and pasted lists give it) look
/// alike, so they have the same numbers.
pub fn seed_text(text: &str) -> String {
    composed(&lower_case(&tidy(text)))
}

/// `text` in lower case, every letter of every script ("Élodie" →
/// "élodie"). In the browser, the JavaScript engine's
/// `String.prototype.toLowerCase` (so the wasm carries no case tables);
/// natively, Rust's. Both follow Unicode's default case mapping.
#[cfg(target_arch = "wasm32")]
pub fn lower_case(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    js_sys::JsString::from(text).to_lower_case().into()
}

/// `text` in lower case (see the browser's version above).
#[cfg(not(target_arch = "wasm32"))]
pub fn lower_case(text: &str) -> String {
    text.to_lowercase()
}

/// `text` in Unicode's composed form (NFC), as [`seed_text`] gives it.
pub fn composed(text: &str) -> String {
    normalized(text, Form::Composed)
}

/// Where a name sorts in a list of students: its [`seed_text`] with each
/// letter's accents left out (decomposed, NFD, then without combining
/// marks), then the whole [`seed_text`] to part names that differ only by
/// their accents. So "Élodie" sorts between "Ana" and "Zoë", not after
/// "Zoë" as code points would put it. Not a full collation: letters that
/// do not decompose ("ø", "ł", "ß") sort after "z".
pub fn name_order_key(text: &str) -> String {
    let seed = seed_text(text);
    let bare: String = normalized(&seed, Form::Decomposed)
        .chars()
        .filter(|c| !is_combining_mark(*c))
        .collect();
    format!("{bare}\u{1}{seed}")
}

/// Whether `c` is in one of Unicode's combining diacritical marks blocks
/// (the accents of Latin, Greek and Cyrillic letters once decomposed).
fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// A Unicode normalisation form.
#[derive(Clone, Copy)]
enum Form {
    /// NFC: a letter and its accents as one code point where one exists.
    Composed,
    /// NFD: each letter, then its accents.
    Decomposed,
}

/// `text` in normalisation form `form`. In the browser, the JavaScript
/// engine's `String.prototype.normalize` (so the wasm carries no Unicode
/// tables); natively, the unicode-normalization crate. Both follow
/// Unicode's normalisation, which is stable for every assigned character.
#[cfg(target_arch = "wasm32")]
fn normalized(text: &str, form: Form) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    let form = match form {
        Form::Composed => "NFC",
        Form::Decomposed => "NFD",
    };
    js_sys::JsString::from(text).normalize(form).into()
}

/// `text` in normalisation form `form` (see the browser's version above).
#[cfg(not(target_arch = "wasm32"))]
fn normalized(text: &str, form: Form) -> String {
    use unicode_normalization::UnicodeNormalization;
    match form {
        Form::Composed => text.nfc().collect(),
        Form::Decomposed => text.nfd().collect(),
    }
}

/// Most students one answer key lists.
pub const KEY_MAX_STUDENTS: usize = 200;

/// The longest name the student's name box takes, in UTF-16 code units
/// (what a browser's `maxlength` counts).
pub const NAME_MAX: usize = 60;

/// The longest class code the student's class box takes, in characters
/// (its `maxlength`).
pub const CLASS_MAX: usize = 40;

/// A class code as the class box would have kept it: [`tidy`], cut to
/// [`CLASS_MAX`] characters (a link's code of 50,000 was shown whole).
pub fn as_class_box_keeps(text: &str) -> String {
    tidy(&tidy(text).chars().take(CLASS_MAX).collect::<String>())
}

/// A name as a student's name box would have kept it: [`tidy`], cut to
/// [`NAME_MAX`] UTF-16 units (as the box's `maxlength` counts what was
/// typed), then in Unicode's composed form where that still fits, so that
/// an "É" typed as an E and a combining accent is one letter in a file's
/// name and a CSV (it became "e-lodie"). A key or a worksheet list with a longer name must
/// use this, or its numbers would differ from the student's.
pub fn as_name_box_keeps(text: &str) -> String {
    let mut units = 0;
    let cut: String = tidy(text)
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units <= NAME_MAX
        })
        .collect();
    let cut = tidy(&cut);
    // Composing can lengthen a few letters (a Devanagari nukta letter
    // doubles): kept as typed where the composed name would not fit, so
    // that reading a name again never changes it.
    let whole = composed(&cut);
    if whole.encode_utf16().count() <= NAME_MAX {
        whole
    } else {
        cut
    }
}

/// The students an answer key lists, from names typed one per line: each
/// [`tidy`], each student once ([`seed_text`]), at most
/// [`KEY_MAX_STUDENTS`]; and how many more students were typed and left out.
pub fn key_students(text: &str) -> (Vec<String>, usize) {
    let (all, _) = names_once(text);
    let left_out = all.len().saturating_sub(KEY_MAX_STUDENTS);
    (all.into_iter().take(KEY_MAX_STUDENTS).collect(), left_out)
}

/// Lines of an answer key's names that name a student listed above them
/// (the same name once [`tidy`] and [`seed_text`] have read it: case,
/// spaces and the form of accents aside), each as typed, tidied, with the
/// name it is read as.
pub fn repeated_names(text: &str) -> Vec<(String, String)> {
    names_once(text).1
}

/// Names typed one per line, read as a student's name box keeps them
/// ([`as_name_box_keeps`]), blank lines left out: each student once, by
/// their first line ([`seed_text`]), and the later lines that named one of
/// them again, each with the name it is read as. The one reading behind
/// [`key_students`] and [`repeated_names`].
fn names_once(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut first = std::collections::BTreeMap::new();
    let (mut once, mut repeated) = (Vec::new(), Vec::new());
    for name in text
        .lines()
        .map(as_name_box_keeps)
        .filter(|n| !n.is_empty())
    {
        match first.entry(seed_text(&name)) {
            std::collections::btree_map::Entry::Vacant(e) => {
                once.push(e.insert(name).clone());
            }
            std::collections::btree_map::Entry::Occupied(e) => {
                repeated.push((name, e.get().clone()));
            }
        }
    }
    (once, repeated)
}

/// What an answer key says of names listed twice ([`repeated_names`]):
/// kept once, since one name gets one set of numbers.
pub fn repeated_names_note(repeated: &[(String, String)]) -> Option<String> {
    let said: Vec<String> = repeated
        .iter()
        .map(|(typed, first)| {
            if typed == first {
                format!("“{first}”")
            } else {
                format!("“{typed}” (read as “{first}”)")
            }
        })
        .collect();
    if said.is_empty() {
        return None;
    }
    let list = said.join(", ");
    Some(format!(
        "Listed again, so kept once: {list}. One name gets one set of numbers: two students with the same name would share them, so tell them apart in the list and in the name each types (an initial will do)."
    ))
}

/// The check value of a progress file's `content` for class `class`: an
/// HMAC-SHA-256 keyed by the class code as seeds read it ([`seed_text`]),
/// so a file edited after saving, or moved to another class, fails.
pub fn file_check(class: &str, content: &str) -> String {
    hmac_hex(seed_text(class).as_bytes(), content.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_listed_twice_is_said_with_what_it_is_read_as() {
        let text = "Ana Souza\nBo Lee\n\nana  souza\nAna Souza\nE\u{301}lodie\nÉlodie";
        let repeated = repeated_names(text);
        assert_eq!(
            repeated,
            [
                ("ana souza".to_string(), "Ana Souza".to_string()),
                ("Ana Souza".to_string(), "Ana Souza".to_string()),
                ("Élodie".to_string(), "Élodie".to_string()),
            ]
        );
        assert_eq!(key_students(text).0.len(), 3, "each kept once");
        let note = repeated_names_note(&repeated[1..2]).unwrap();
        assert!(
            note.starts_with("Listed again, so kept once: “Ana Souza”."),
            "{note}"
        );
        let note = repeated_names_note(&repeated).unwrap();
        assert!(
            note.contains("“ana souza” (read as “Ana Souza”), “Ana Souza”"),
            "{note}"
        );
        assert_eq!(repeated_names_note(&[]), None);
        assert!(repeated_names("Ana\nBo").is_empty());
    }

    #[test]
    fn a_key_cuts_a_long_name_where_the_name_box_does() {
        let long = format!("{}  Okafor-Lindqvist", "Ana ".repeat(20));
        let kept = as_name_box_keeps(&long);
        assert_eq!(kept.encode_utf16().count(), NAME_MAX - 1, "{kept:?}");
        assert!(!kept.ends_with(' '));
        let (names, _) = key_students(&long);
        assert_eq!(names, [kept]);
        // UTF-16 units, as the browser counts: an emoji takes two.
        let emoji = "😀".repeat(40);
        assert_eq!(as_name_box_keeps(&emoji).chars().count(), 30);
        assert_eq!(as_name_box_keeps("  Zoë   Smith "), "Zoë Smith");
        // Composed: one letter, not an e and a combining accent.
        assert_eq!(as_name_box_keeps("E\u{301}lodie"), "\u{c9}lodie");
        // Unless composing would make it longer than the box holds: a
        // nukta letter (U+0958) is two units composed. Read twice, the
        // same name, within the box, with the same seed.
        let hindi = "\u{0958}".repeat(31);
        let kept = as_name_box_keeps(&hindi);
        assert!(
            kept.encode_utf16().count() <= NAME_MAX,
            "{}",
            kept.encode_utf16().count()
        );
        for name in [hindi.as_str(), "E\u{301}lodie", "Zoë", &long] {
            let once = as_name_box_keeps(name);
            assert_eq!(as_name_box_keeps(&once), once, "{name:?}");
            assert_eq!(seed_text(&as_name_box_keeps(&once)), seed_text(&once));
        }
    }

    #[test]
    fn names_lose_the_marks_that_turn_text_round_and_codes_are_cut() {
        // A right-to-left override in a name turned the words after it round.
        assert_eq!(tidy("Ana\u{202E} Souza\u{2066}"), "Ana Souza");
        assert_eq!(tidy("Ana\u{202E}Souza"), "Ana Souza");
        assert_eq!(tidy("Ana\u{0}\u{1b}[31mSouza"), "Ana [31mSouza");
        assert_eq!(as_name_box_keeps("\u{202E}Zoë"), "Zoë");
        // Right-to-left letters themselves stay.
        assert_eq!(tidy("  مريم  "), "مريم");
        assert_eq!(
            as_class_box_keeps(&"Q".repeat(50_000)),
            "Q".repeat(CLASS_MAX)
        );
        assert_eq!(as_class_box_keeps(" R12 "), "R12");
    }

    #[test]
    fn base32_takes_five_bits_at_a_time() {
        assert_eq!(base32(&[0; 5], 8), "00000000");
        assert_eq!(base32(&[0xff; 5], 8), "ZZZZZZZZ");
        // 00001 00001 00001 … : every symbol is 1.
        assert_eq!(base32(&[0x08, 0x42, 0x10, 0x84, 0x21], 8), "11111111");
        // 00001 00010 00011 0…
        assert_eq!(base32(&[0b0000_1000, 0b1000_0110], 3), "123");
        // 10000 = 16, the seventeenth symbol: G.
        assert_eq!(base32(&[0b1000_0000], 1), "G");
        assert_eq!(base32(&[1], 9), "0", "never reads past the bytes");
    }

    /// A code with a 0 and a 1 in it, typed with O, l and I, or pasted with
    /// an en dash, is suggested as the code it looks like, but read as
    /// typed: a hand-chosen code that happens to look like one keeps its
    /// numbers.
    #[test]
    fn look_alike_letters_and_dashes_are_suggested_not_read() {
        let key = (0u8..)
            .map(|i| new_teacher_key(&[i; KEY_RANDOM_BYTES]))
            .find(|k| {
                let c = class_code(k).unwrap();
                c[..8].contains('0') && c[..8].contains('1')
            })
            .unwrap();
        let code = class_code(&key).unwrap();
        let typed = code.replacen('0', "O", 1).replacen('1', "l", 1);
        for typo in [
            typed.clone(),
            typed.to_lowercase(),
            code.replace('1', "I"),
            code.replace('-', "\u{2013}"),
            code.replace('-', ""),
        ] {
            assert_eq!(suggested_code(&typo), Some(code.clone()), "{typo}");
            assert!(
                !matches!(read_class_code(&typo), ClassCode::Keyed(_)),
                "{typo}"
            );
            assert!(class_code_note(&typo)
                .unwrap()
                .contains(&format!("Did you mean {code}?")));
            // The answer key opens it as typed, and names the Tellers code.
            let KeyAccess::Open { notice, .. } = key_access(&typo, None) else {
                panic!("{typo}: opened as typed");
            };
            assert!(notice
                .unwrap()
                .contains(&format!("If you meant the Tellers code {code}")));
        }
        assert_eq!(suggested_code(&code), None, "already right");
        // Hand-chosen codes read as before, whatever they look like.
        for plain in ["ROLL-2024", "FILE-2024", "ROOM-2024", "R12", "CS100F24"] {
            assert!(
                !matches!(read_class_code(plain), ClassCode::Keyed(_)),
                "{plain}"
            );
        }
    }

    #[test]
    fn a_new_key_reads_back_and_gives_a_well_formed_code() {
        let key = new_teacher_key(&[7; KEY_RANDOM_BYTES]);
        assert_eq!(key.len(), 23);
        assert_eq!(key.matches('-').count(), 3);
        let canonical = read_teacher_key(&key).unwrap();
        assert_eq!(
            read_teacher_key(&key.to_lowercase().replace('-', " ")),
            Ok(canonical)
        );
        let code = class_code(&key).unwrap();
        assert_eq!(read_class_code(&code), ClassCode::Keyed(code.clone()));
        assert_eq!(
            read_class_code(&code.to_lowercase()),
            ClassCode::Keyed(code.clone())
        );
        assert_eq!(
            class_code(&key.to_lowercase()),
            Ok(code),
            "any case, same code"
        );
    }

    #[test]
    fn different_keys_give_different_codes() {
        let codes: std::collections::BTreeSet<String> = (0..200u8)
            .map(|i| {
                let mut r = [0u8; KEY_RANDOM_BYTES];
                r[0] = i;
                r[12] = i.wrapping_mul(31);
                class_code(&new_teacher_key(&r)).unwrap()
            })
            .collect();
        assert_eq!(codes.len(), 200);
    }

    #[test]
    fn bad_keys_say_what_is_wrong() {
        assert!(read_teacher_key("")
            .unwrap_err()
            .contains("Type the teacher key"));
        assert!(read_teacher_key("ABCDE-FGHJK")
            .unwrap_err()
            .contains("this one has 10"));
        let bad = read_teacher_key("ABCDE-FGHJK-MNPQR-STVWU").unwrap_err();
        assert_eq!(
            bad,
            "A teacher key has only digits and the letters A to Z other than U; 'U' is not one of them."
        );
        assert!(read_teacher_key("ABCDE-FGHJK-MNPQR-STVW€").is_err());
    }

    #[test]
    fn a_key_typed_with_o_for_0_or_i_or_l_for_1_opens_its_class() {
        // A key with zeros and ones in it, as a teacher may copy it by eye.
        let key = (0u8..=255)
            .map(|b| new_teacher_key(&[b; KEY_RANDOM_BYTES]))
            .find(|k| k.contains('0') && k.contains('1'))
            .unwrap();
        let code = class_code(&key).unwrap();
        let by_eye = key
            .replace('0', "O")
            .replacen('1', "l", 1)
            .replace('1', "I");
        assert_ne!(by_eye, key);
        assert_eq!(read_teacher_key(&by_eye), read_teacher_key(&key));
        assert_eq!(key_opens(&by_eye.to_lowercase(), &code), Ok(()));
        // Groups split by an en dash pasted from slides.
        assert_eq!(key_opens(&key.replace('-', "\u{2013}"), &code), Ok(()));
    }

    #[test]
    fn only_the_right_key_opens_a_class() {
        let key = new_teacher_key(&[42; KEY_RANDOM_BYTES]);
        let other = new_teacher_key(&[43; KEY_RANDOM_BYTES]);
        let code = class_code(&key).unwrap();
        assert_eq!(key_opens(&key, &code), Ok(()));
        assert_eq!(key_opens(&key.to_lowercase(), &code.to_lowercase()), Ok(()));
        let wrong = key_opens(&other, &code).unwrap_err();
        assert!(
            wrong.contains(&format!("does not open class {code}")),
            "{wrong}"
        );
        assert!(key_opens("ABC", &code)
            .unwrap_err()
            .contains("letters and digits"));
        assert!(key_opens(&key, "R12").is_err(), "a plain code has no key");
    }

    #[test]
    fn codes_are_keyed_plain_or_mistyped() {
        let code = class_code(&new_teacher_key(&[1; KEY_RANDOM_BYTES])).unwrap();
        assert_eq!(read_class_code(""), ClassCode::None);
        assert_eq!(read_class_code("  R12 "), ClassCode::Plain("R12".into()));
        assert_eq!(
            read_class_code("Room 12"),
            ClassCode::Plain("Room 12".into())
        );
        // Old codes of other shapes stay plain, whatever their letters.
        assert!(matches!(read_class_code("CS10A2B9"), ClassCode::Plain(_)));
        // One symbol changed: the check symbol no longer matches.
        let last = code.chars().last().unwrap();
        let other = if last == '0' { '1' } else { '0' };
        let typo = format!("{}{other}", &code[..8]);
        assert_eq!(read_class_code(&typo), ClassCode::Mistyped(typo.clone()));
        assert_eq!(read_class_code(&typo).text(), typo);
    }

    #[test]
    fn a_code_that_gives_a_keyed_codes_numbers_is_that_code_and_locked() {
        // Keys until the code has a K in it (1 code in 5 or so).
        let (key, code) = (0u8..=255)
            .map(|b| {
                let key = new_teacher_key(&[b; KEY_RANDOM_BYTES]);
                let code = class_code(&key).unwrap();
                (key, code)
            })
            .find(|(_, code)| code.contains('K'))
            .unwrap();
        // The Kelvin sign lowers to an ASCII k: the same seeds, the same
        // numbers, so the same code, which needs its key.
        let kelvin = code.replace('K', "\u{212a}");
        assert_eq!(seed_text(&kelvin), seed_text(&code));
        assert_eq!(read_class_code(&kelvin), ClassCode::Keyed(code.clone()));
        assert_eq!(key_access(&kelvin, None), KeyAccess::AskKey(code.clone()));
        assert!(key_opens(&key, &kelvin).is_ok());
        // A look-alike that lowers to something else has other numbers and
        // stays a plain code (the fullwidth K).
        let wide = code.replace('K', "\u{ff2b}");
        assert_ne!(seed_text(&wide), seed_text(&code));
        assert!(matches!(read_class_code(&wide), ClassCode::Plain(_)));
    }

    #[test]
    fn a_code_without_its_hyphen_is_suggested_with_it() {
        let code = class_code(&new_teacher_key(&[9; KEY_RANDOM_BYTES])).unwrap();
        let bare = code.replace('-', "").to_lowercase();
        assert_eq!(suggested_code(&bare), Some(code.clone()));
        assert_eq!(suggested_code(&code.replace('-', " ")), Some(code.clone()));
        assert_eq!(suggested_code(&code), None, "already right");
        assert_eq!(suggested_code("R12"), None);
        let shaped = match read_class_code("ABCD-EFGH") {
            ClassCode::Keyed(c) => Some(c),
            _ => None,
        };
        assert_eq!(
            suggested_code("ABCDEFGH"),
            shaped,
            "suggested only when well formed"
        );
    }

    #[test]
    fn an_answer_key_lists_each_student_once_and_says_who_was_left_out() {
        let (names, left) = key_students("Ana  Souza\n\n ana souza \nBo\n");
        assert_eq!(
            (names, left),
            (vec!["Ana Souza".to_owned(), "Bo".to_owned()], 0)
        );
        let many: String = (0..205).map(|i| format!("Student {i}\n")).collect();
        let (names, left) = key_students(&many);
        assert_eq!((names.len(), left), (KEY_MAX_STUDENTS, 5));
        assert_eq!(names[199], "Student 199");
    }

    #[test]
    fn any_code_a_student_types_is_read_without_a_panic() {
        // Eight bytes with byte 4 inside a letter: cutting there panicked,
        // and the lessons page stopped answering.
        for typed in [
            "Année24",
            "中文12",
            "Ünïcødé",
            "ab€defg",
            "€€€€€€€€",
            "-",
            " ",
            "é",
        ] {
            assert_eq!(suggested_code(typed), None, "{typed}");
            let _ = class_code_note(typed);
            assert_eq!(read_class_code(typed).text(), typed.trim(), "{typed}");
        }
    }

    #[test]
    fn the_class_code_typed_for_the_teacher_key_is_named() {
        let code = class_code(&new_teacher_key(&[7; KEY_RANDOM_BYTES])).unwrap();
        let e = read_teacher_key(&code).unwrap_err();
        assert!(
            e.starts_with(&format!("{code} is the class code, the one students type;")),
            "{e}"
        );
    }

    #[test]
    fn students_hear_about_a_code_that_looks_wrong() {
        let code = class_code(&new_teacher_key(&[5; KEY_RANDOM_BYTES])).unwrap();
        assert_eq!(class_code_note(&code), None);
        assert_eq!(class_code_note("R12"), None);
        assert_eq!(class_code_note(""), None);
        let bare = class_code_note(&code.replace('-', "")).unwrap();
        assert!(bare.starts_with(&format!("Did you mean {code}?")), "{bare}");
        // Typed in full width (a Japanese or Chinese keyboard), hyphen too.
        let wide: String = code
            .chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
            .collect();
        let note = class_code_note(&wide).unwrap();
        assert!(note.starts_with(&format!("Did you mean {code}?")), "{note}");
        let long_vowel = wide.replace('\u{FF0D}', "\u{30FC}");
        let note = class_code_note(&long_vowel).unwrap();
        assert!(note.starts_with(&format!("Did you mean {code}?")), "{note}");
        let last = if code.ends_with('0') { '1' } else { '0' };
        let typo = format!("{}{last}", &code[..8]);
        assert!(class_code_note(&typo).unwrap().contains("may be mistyped"));
        // A teacher's page says it in a teacher's words.
        let teacher = teacher_code_note(&typo).unwrap();
        assert!(
            teacher.ends_with("mistyped. A code you chose by hand is fine."),
            "{teacher}"
        );
        assert!(teacher_code_note(&code.replace('-', ""))
            .unwrap()
            .starts_with(&format!("Did you mean {code}?")));
        assert_eq!(teacher_code_note(&code), None);
        // A symbol missing or one too many (no note before: the student
        // worked all term on numbers no answer key matched).
        let short = class_code_note(&code[..8]).unwrap();
        assert!(
            short.starts_with(&format!(
                "{} has 7 letters and digits; a code made in Tellers has 8",
                &code[..8]
            )) && short.contains("one may be missing"),
            "{short}"
        );
        assert!(class_code_note(&format!("{code}7"))
            .unwrap()
            .contains("has 9 letters and digits"));
        assert!(class_code_note(&format!("7{code}"))
            .unwrap()
            .contains("one may be extra"));
        // Cut off after the hyphen, as a chat app may break a link (no note
        // before: a class worked on numbers no answer key matched).
        for (cut, missing) in [(7, "2 may be missing"), (5, "4 may be missing")] {
            let note = class_code_note(&code[..cut]).unwrap();
            assert!(note.contains(missing), "{note}");
        }
        // Hand-chosen codes of other shapes get no note.
        for plain in ["SD-101", "ECON-2026-A", "sale-day", "R12"] {
            assert_eq!(class_code_note(plain), None, "{plain}");
        }
    }

    #[test]
    fn the_key_page_opens_for_the_right_key_or_an_old_plain_code() {
        let code = class_code(&new_teacher_key(&[6; KEY_RANDOM_BYTES])).unwrap();
        assert_eq!(key_access(" ", None), KeyAccess::AskCode);
        assert_eq!(key_access(&code, None), KeyAccess::AskKey(code.clone()));
        assert_eq!(
            key_access(&code, Some("ABCD-EFGH")),
            KeyAccess::AskKey(code.clone())
        );
        assert_eq!(
            key_access(&code.to_lowercase(), Some(&code)),
            KeyAccess::Open {
                code: code.clone(),
                notice: None
            }
        );
        let KeyAccess::Open {
            code: plain,
            notice,
        } = key_access("R12", None)
        else {
            panic!("a plain code opens");
        };
        assert_eq!(plain, "R12");
        let notice = notice.unwrap();
        assert!(
            notice.starts_with("R12 is not a code made in Tellers")
                && notice.contains("anyone who knows it can open this key"),
            "{notice}"
        );
        // A Tellers code with a symbol too few: the key says to check it
        // (it said the class "was made with a plain class code").
        let short = &code[..8];
        let KeyAccess::Open { notice, .. } = key_access(short, None) else {
            panic!("a plain code opens");
        };
        assert!(
            notice
                .unwrap()
                .ends_with("It has 7 letters and digits, where a code made in Tellers has 8: check it against the code you gave your class."),
        );
    }

    #[test]
    fn text_is_read_whatever_its_spacing_and_case() {
        assert_eq!(tidy("  Ana \t  Souza "), "Ana Souza");
        assert_eq!(seed_text("Ana  SOUZA"), "ana souza");
        assert_eq!(tidy(""), "");
    }

    #[test]
    fn a_name_typed_with_a_combining_accent_is_the_same_name() {
        // "Zoë" as one letter (U+00EB) and as e + U+0308.
        assert_eq!(seed_text("Zo\u{eb}"), seed_text("Zoe\u{308}"));
        assert_eq!(seed_text("ZOE\u{308}"), "zo\u{eb}");
        assert_eq!(
            student_seed_for_test("R12", "Zoe\u{308}"),
            student_seed_for_test("R12", "Zo\u{eb}")
        );
        // Compatibility forms stay apart (NFC, not NFKC): a full-width
        // letter is not the letter.
        assert_ne!(seed_text("\u{ff21}na"), seed_text("Ana"));
    }

    /// The class and name a student's seed joins, as progress makes it.
    fn student_seed_for_test(class: &str, name: &str) -> String {
        crate::progress::student_seed(class, name)
    }

    #[test]
    fn names_sort_by_their_letters_then_by_their_accents() {
        let mut names = vec![
            "Zoë",
            "eric",
            "Élodie",
            "Ana",
            "Eric",
            "Éric",
            "Zoe\u{308}",
            "Zoe",
            "Ørjan",
        ];
        names.sort_by_key(|n| name_order_key(n));
        assert_eq!(
            names,
            [
                "Ana",
                "Élodie",
                "eric",
                "Eric",
                "Éric",
                "Zoe",
                "Zoë",
                "Zoe\u{308}",
                "Ørjan"
            ]
        );
        // One key for one student, however the accent was typed.
        assert_eq!(name_order_key("Zo\u{eb}"), name_order_key("ZOE\u{308}"));
        assert_ne!(name_order_key("Eric"), name_order_key("Éric"));
    }

    #[test]
    fn hmac_is_rfc_4231_hmac_sha_256() {
        // RFC 4231, test case 2.
        assert_eq!(
            hmac_hex(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn the_file_check_depends_on_class_and_content() {
        let a = file_check("K7Q2-MX4P", "{\"x\":1}");
        assert_eq!(
            a,
            file_check(" k7q2-mx4p ", "{\"x\":1}"),
            "as seeds read the code"
        );
        assert_ne!(a, file_check("K7Q2-MX4Q", "{\"x\":1}"));
        assert_eq!(
            file_check("Room  12", "x"),
            file_check(" room 12", "x"),
            "spaces as seeds read them"
        );
        assert_ne!(a, file_check("K7Q2-MX4P", "{\"x\":2}"));
        assert_eq!(a.len(), 64);
    }
}
