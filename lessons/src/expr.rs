//! A tiny arithmetic language for exercise answers: numbers, parameters,
//! `+ - * / ^`, parentheses, comparisons (`<`, `<=`, `>`, `>=`, giving 1 or
//! 0), `inf` (a line that grows without limit) and a few functions,
//! including the queueing formulas of `tellers_sim::analytic`.

use std::collections::BTreeMap;
use tellers_sim::analytic;

/// Parameter values by name.
pub type Vars = BTreeMap<String, f64>;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Op(char),
    /// `<`, `<=`, `>` or `>=`.
    Cmp(&'static str),
}

fn tokens(src: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < cs.len() && (cs[i].is_ascii_digit() || cs[i] == '.' || cs[i] == '_') {
                i += 1;
            }
            if i < cs.len() && (cs[i] == 'e' || cs[i] == 'E') {
                i += 1;
                if i < cs.len() && (cs[i] == '-' || cs[i] == '+') {
                    i += 1;
                }
                while i < cs.len() && cs[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text: String = cs[start..i].iter().filter(|&&c| c != '_').collect();
            out.push(Tok::Num(
                tellers_sim::text::number(&text)
                    .ok_or_else(|| format!("'{text}' is not a number"))?,
            ));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Name(cs[start..i].iter().collect()));
        } else if c == '<' || c == '>' {
            let eq = cs.get(i + 1) == Some(&'=');
            out.push(Tok::Cmp(match (c, eq) {
                ('<', false) => "<",
                ('<', true) => "<=",
                ('>', false) => ">",
                _ => ">=",
            }));
            i += if eq { 2 } else { 1 };
        } else if "+-*/^(),".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else {
            return Err(format!("unexpected '{c}'"));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    pos: usize,
    vars: &'a Vars,
}

impl Parser<'_> {
    fn peek_op(&self, op: char) -> bool {
        self.toks.get(self.pos) == Some(&Tok::Op(op))
    }

    fn expect(&mut self, op: char) -> Result<(), String> {
        if self.peek_op(op) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected '{op}'"))
        }
    }

    /// A comparison is the loosest: `a + b < c` compares two sums.
    fn expr(&mut self) -> Result<f64, String> {
        let a = self.sum()?;
        let Some(Tok::Cmp(op)) = self.toks.get(self.pos).cloned() else {
            return Ok(a);
        };
        self.pos += 1;
        let b = self.sum()?;
        let yes = match op {
            "<" => a < b,
            "<=" => a <= b,
            ">" => a > b,
            _ => a >= b,
        };
        Ok(if yes { 1.0 } else { 0.0 })
    }

    fn sum(&mut self) -> Result<f64, String> {
        let mut v = self.term()?;
        loop {
            if self.peek_op('+') {
                self.pos += 1;
                v += self.term()?;
            } else if self.peek_op('-') {
                self.pos += 1;
                v -= self.term()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn term(&mut self) -> Result<f64, String> {
        let mut v = self.unary()?;
        loop {
            if self.peek_op('*') {
                self.pos += 1;
                v *= self.unary()?;
            } else if self.peek_op('/') {
                self.pos += 1;
                v /= self.unary()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn unary(&mut self) -> Result<f64, String> {
        if self.peek_op('-') {
            self.pos += 1;
            return Ok(-self.unary()?);
        }
        let base = self.atom()?;
        if self.peek_op('^') {
            self.pos += 1;
            return Ok(base.powf(self.unary()?));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<f64, String> {
        match self.toks.get(self.pos).cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(n)
            }
            Some(Tok::Op('(')) => {
                self.pos += 1;
                let v = self.expr()?;
                self.expect(')')?;
                Ok(v)
            }
            Some(Tok::Name(name)) => {
                self.pos += 1;
                if self.peek_op('(') {
                    self.pos += 1;
                    let mut args = vec![self.expr()?];
                    while self.peek_op(',') {
                        self.pos += 1;
                        args.push(self.expr()?);
                    }
                    self.expect(')')?;
                    call(&name, &args)
                } else if let Some(v) = self.vars.get(&name) {
                    Ok(*v)
                } else if name == "inf" {
                    Ok(f64::INFINITY)
                } else {
                    Err(format!("unknown name '{name}'"))
                }
            }
            Some(t) => Err(format!("unexpected {t:?}")),
            None => Err("the expression ends too early".into()),
        }
    }
}

fn call(name: &str, a: &[f64]) -> Result<f64, String> {
    let want = |n: usize| {
        if a.len() == n {
            Ok(())
        } else {
            Err(format!("{name} takes {n} argument(s), got {}", a.len()))
        }
    };
    Ok(match name {
        "ceil" => want(1).map(|_| a[0].ceil())?,
        "floor" => want(1).map(|_| a[0].floor())?,
        "round" => want(1).map(|_| a[0].round())?,
        "sqrt" => want(1).map(|_| a[0].sqrt())?,
        "ln" => want(1).map(|_| a[0].ln())?,
        "exp" => want(1).map(|_| a[0].exp())?,
        "abs" => want(1).map(|_| a[0].abs())?,
        "min" => want(2).map(|_| a[0].min(a[1]))?,
        "if" => want(3).map(|_| if a[0] != 0.0 { a[1] } else { a[2] })?,
        "erlang_c" => want(2).map(|_| analytic::erlang_c(a[0] as u32, a[1]))?,
        "max" => want(2).map(|_| a[0].max(a[1]))?,
        "mm1_response" => want(2).map(|_| analytic::mm1_response_ms(a[0], a[1]))?,
        "mm1_p99" => want(2).map(|_| analytic::mm1_response_percentile_ms(a[0], a[1], 0.99))?,
        "md1_response" => want(2).map(|_| analytic::md1_response_ms(a[0], a[1]))?,
        "mmc_response" => want(3).map(|_| analytic::mmc_response_ms(a[0] as u32, a[1], a[2]))?,
        "mmc_p99" => {
            want(3).map(|_| analytic::mmc_response_percentile_ms(a[0] as u32, a[1], a[2], 0.99))?
        }
        _ => return Err(format!("unknown function '{name}'")),
    })
}

/// Evaluate `src` with `vars`. Errors name what is wrong.
pub fn eval(src: &str, vars: &Vars) -> Result<f64, String> {
    let mut p = Parser {
        toks: tokens(src)?,
        pos: 0,
        vars,
    };
    let v = p.expr()?;
    if p.pos != p.toks.len() {
        return Err(format!(
            "unexpected text after position {} in '{src}'",
            p.pos
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, f64)]) -> Vars {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn arithmetic_and_precedence() {
        let v = vars(&[("rps", 400.0), ("cpu", 10.0), ("wait", 90.0)]);
        assert_eq!(eval("rps * (cpu + wait) / 1000", &v), Ok(40.0));
        assert_eq!(eval("2 + 3 * 4 ^ 2", &v), Ok(50.0));
        assert_eq!(eval("-2 ^ 2", &v), Ok(-4.0));
        assert_eq!(eval("ceil(250 * 20 / 1000 / 0.7)", &v), Ok(8.0));
        assert_eq!(eval("max(1, min(5, 3))", &v), Ok(3.0));
        assert_eq!(eval("1_000 * 1e-3", &v), Ok(1.0));
        assert_eq!(eval("rps * 0.1 >= 40", &v), Ok(1.0));
        assert_eq!(eval("rps * 0.1 > 40", &v), Ok(0.0));
        assert_eq!(eval("if(rps < 300, 1, 2)", &v), Ok(2.0));
        assert_eq!(eval("if(cpu <= 10, inf, 0)", &v), Ok(f64::INFINITY));
    }

    #[test]
    fn queueing_functions() {
        let v = Vars::new();
        assert!((eval("mm1_response(10, 0.8)", &v).unwrap() - 50.0).abs() < 1e-9);
        assert!((eval("md1_response(10, 0.8)", &v).unwrap() - 30.0).abs() < 1e-9);
        assert!((eval("mm1_p99(10, 0.8)", &v).unwrap() - 230.2585).abs() < 1e-3);
        assert!((eval("mmc_response(4, 10, 0.9)", &v).unwrap() - 29.6938).abs() < 1e-3);
        assert!((eval("erlang_c(1, 0.8)", &v).unwrap() - 0.8).abs() < 1e-12);
        assert_eq!(eval("erlang_c(40, 40)", &v), Ok(1.0));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let v = Vars::new();
        assert_eq!(eval("x + 1", &v), Err("unknown name 'x'".into()));
        assert!(eval("sqrt(1, 2)", &v).unwrap_err().contains("takes 1"));
        assert!(eval("(1 + 2", &v).unwrap_err().contains("expected ')'"));
        assert!(eval("1 $ 2", &v).unwrap_err().contains("unexpected '$'"));
        assert!(eval("nope(1)", &v)
            .unwrap_err()
            .contains("unknown function"));
    }
}
