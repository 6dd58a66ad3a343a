//! `$…$` in lesson text → MathML, so formulas render as real mathematics
//! with no JavaScript. The subset: numbers, names, operators, `_` and `^`
//! (one token or a `{group}`), `\frac{a}{b}` and `\sqrt{a}`.

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
        if c.is_alphabetic() {
            let start = self.i;
            while self.i < self.cs.len() && self.cs[self.i].is_alphabetic() {
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
                let base = parts.pop().unwrap_or_else(|| "<mrow></mrow>".into());
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
