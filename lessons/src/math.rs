//! `$…$` in lesson text → MathML, so formulas render as real mathematics
//! with no JavaScript. The subset: numbers, names (a Greek letter is a
//! name of its own: `κN` is κ times N), operators, `_` and `^` (one token
//! or a `{group}`, on a token or a whole `(…)`), `\frac{a}{b}`,
//! `\sqrt{a}` and `\ ` for a space between words.

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

struct P {
    cs: Vec<char>,
    i: usize,
}

impl P {
    fn group(&mut self) -> String {
        // `{…}` or one token.
        if self.cs.get(self.i) == Some(&'{') {
            self.i += 1;
            let inner = self.seq(Some('}'));
            self.i += 1;
            format!("<mrow>{inner}</mrow>")
        } else {
            self.token().unwrap_or_default()
        }
    }

    fn token(&mut self) -> Option<String> {
        let c = *self.cs.get(self.i)?;
        if c.is_ascii_digit() {
            let start = self.i;
            while self.i < self.cs.len()
                && (self.cs[self.i].is_ascii_digit()
                    || ((self.cs[self.i] == '.' || self.cs[self.i] == ',')
                        && self.cs.get(self.i + 1).is_some_and(|d| d.is_ascii_digit())))
            {
                self.i += 1;
            }
            let n: String = self.cs[start..self.i].iter().collect();
            return Some(format!("<mn>{}</mn>", esc(&n)));
        }
        if c == '\\' && self.cs.get(self.i + 1) == Some(&' ') {
            // `\ `: a space between the words of a name ("time held").
            self.i += 2;
            return Some(r#"<mspace width="0.3em"></mspace>"#.into());
        }
        if c == '\\' {
            let start = self.i + 1;
            self.i += 1;
            while self.i < self.cs.len() && self.cs[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            let cmd: String = self.cs[start..self.i].iter().collect();
            return Some(match cmd.as_str() {
                "frac" => {
                    let a = self.group();
                    let b = self.group();
                    format!("<mfrac>{a}{b}</mfrac>")
                }
                "sqrt" => format!("<msqrt>{}</msqrt>", self.group()),
                "times" => "<mo>×</mo>".into(),
                "div" => "<mo>÷</mo>".into(),
                "approx" => "<mo>≈</mo>".into(),
                "cdot" => "<mo>·</mo>".into(),
                other => format!("<mi>{}</mi>", esc(other)),
            });
        }
        if greek(c) {
            self.i += 1;
            return Some(format!("<mi>{c}</mi>"));
        }
        if c.is_alphabetic() {
            let start = self.i;
            while self.i < self.cs.len()
                && self.cs[self.i].is_alphabetic()
                && !greek(self.cs[self.i])
            {
                self.i += 1;
            }
            let w: String = self.cs[start..self.i].iter().collect();
            return Some(format!("<mi>{}</mi>", esc(&w)));
        }
        self.i += 1;
        Some(match c {
            '-' => "<mo>−</mo>".into(),
            '*' => "<mo>×</mo>".into(),
            '%' => "<mo>%</mo>".into(),
            c => format!("<mo>{}</mo>", esc(&c.to_string())),
        })
    }

    fn seq(&mut self, stop: Option<char>) -> String {
        let mut parts: Vec<String> = Vec::new();
        while self.i < self.cs.len() && Some(self.cs[self.i]) != stop {
            let c = self.cs[self.i];
            if c.is_whitespace() {
                self.i += 1;
            } else if c == '_' || c == '^' {
                self.i += 1;
                let base = base(&mut parts);
                let script = self.group();
                let tag = if c == '_' { "msub" } else { "msup" };
                parts.push(format!("<{tag}>{base}{script}</{tag}>"));
            } else if let Some(t) = self.token() {
                parts.push(t);
            }
        }
        parts.concat()
    }
}

/// True for a Greek letter, a name of its own however it is followed.
fn greek(c: char) -> bool {
    ('\u{391}'..='\u{3c9}').contains(&c)
}

/// The base a script attaches to, taken off the end of `parts`: the last
/// token, or a whole `(…)` that ends there, so that `(1 − x)^N` raises the
/// bracket, not its closing half.
fn base(parts: &mut Vec<String>) -> String {
    let (open, close) = ("<mo>(</mo>", "<mo>)</mo>");
    if parts.last().map(String::as_str) == Some(close) {
        let mut depth = 0;
        for at in (0..parts.len()).rev() {
            if parts[at] == close {
                depth += 1;
            } else if parts[at] == open {
                depth -= 1;
                if depth == 0 {
                    return format!("<mrow>{}</mrow>", parts.split_off(at).concat());
                }
            }
        }
    }
    parts.pop().unwrap_or_else(|| "<mrow></mrow>".into())
}

/// One formula (without the dollars) as a MathML element.
pub fn formula(src: &str) -> String {
    let mut p = P {
        cs: src.chars().collect(),
        i: 0,
    };
    let body = p.seq(None);
    format!("<math><mrow>{body}</mrow></math>")
}

/// Replace every `$…$` in Markdown with MathML; text outside stays as it is.
/// Code spans and fences are left alone.
pub fn math_to_mathml(md: &str) -> String {
    let mut out = String::new();
    let mut in_fence = false;
    for line in md.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.contains('$') {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        let mut in_code = false;
        while !rest.is_empty() {
            let next = rest.find(['$', '`']);
            let Some(k) = next else {
                out.push_str(rest);
                break;
            };
            out.push_str(&rest[..k]);
            let c = rest.as_bytes()[k];
            if c == b'`' {
                in_code = !in_code;
                out.push('`');
                rest = &rest[k + 1..];
            } else if in_code {
                out.push('$');
                rest = &rest[k + 1..];
            } else if let Some(end) = rest[k + 1..].find('$') {
                out.push_str(&formula(&rest[k + 1..k + 1 + end]));
                rest = &rest[k + 2 + end..];
            } else {
                out.push_str(&rest[k..]);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_mathml() {
        assert_eq!(
            formula("L = λ × W"),
            "<math><mrow><mi>L</mi><mo>=</mo><mi>λ</mi><mo>×</mo><mi>W</mi></mrow></math>"
        );
        assert_eq!(
            formula("W_q"),
            "<math><mrow><msub><mi>W</mi><mi>q</mi></msub></mrow></math>"
        );
        let f = formula(r"R = \frac{S}{1 - ρ}");
        assert!(
            f.contains(
                "<mfrac><mrow><mi>S</mi></mrow><mrow><mn>1</mn><mo>−</mo><mi>ρ</mi></mrow></mfrac>"
            ),
            "{f}"
        );
        assert!(formula("1,000 < 2").contains("<mn>1,000</mn><mo>&lt;</mo>"));
        assert!(formula(r"\sqrt{a}").contains("<msqrt><mrow><mi>a</mi></mrow></msqrt>"));
    }

    /// What a screenshot review found: `time\ held` lost its space to an
    /// empty name, `κN` read as one name, and in `(1 − x)^N` the power sat
    /// on the closing bracket alone.
    #[test]
    fn spaces_greek_names_and_powers_of_brackets() {
        assert_eq!(
            formula(r"time\ held"),
            r#"<math><mrow><mi>time</mi><mspace width="0.3em"></mspace><mi>held</mi></mrow></math>"#
        );
        assert!(formula("κN").contains("<mi>κ</mi><mi>N</mi>"));
        assert!(formula("σ(N - 1)").contains("<mi>σ</mi><mo>(</mo><mi>N</mi>"));
        assert!(formula("λ").contains("<mi>λ</mi>"));
        assert!(formula("limit").contains("<mi>limit</mi>"));
        assert_eq!(
            formula("(1 - (a))^N"),
            "<math><mrow><msup><mrow><mo>(</mo><mn>1</mn><mo>−</mo><mo>(</mo><mi>a</mi><mo>)</mo><mo>)</mo></mrow><mi>N</mi></msup></mrow></math>"
        );
        // A lone closing bracket still takes its script.
        assert!(formula(")^2").contains("<msup><mo>)</mo><mn>2</mn></msup>"));
    }

    #[test]
    fn only_dollar_spans_change() {
        assert_eq!(math_to_mathml("no math here\n"), "no math here\n");
        let s = math_to_mathml("cost `$5` and $x$ end\n");
        assert!(
            s.starts_with("cost `$5` and <math>") && s.ends_with("</math> end\n"),
            "{s}"
        );
        assert_eq!(math_to_mathml("```\n$a$\n```\n"), "```\n$a$\n```\n");
    }
}
