//! The README's architecture invariants that name what is absent, checked
//! here rather than remembered: the simulator pulls in no web crate, no
//! module imports one that imports it back, and components branch on no
//! domain value; and that typed numbers have one reader.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_simulator_pulls_in_no_web_crate() {
    // What the wasm build really links: normal dependencies for the wasm32
    // target (not dev-dependencies, not native-only ones), as the app's
    // build resolves them. (`cargo tree -p tellers-sim` alone resolves only
    // the features tellers-sim asks for itself: an optional web dependency
    // that the app switches on would not show there.)
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            "tellers",
            "-e",
            "normal",
            "--target",
            "wasm32-unknown-unknown",
            "--prefix",
            "depth",
            "--no-dedupe",
            "--format",
            "{p}",
        ])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    // Lessons are compiled at build time: the course crate's Markdown and
    // TOML readers stay out of what a learner downloads. (Leptos's own
    // config reader brings a toml crate that the app never calls.)
    let course = crates_under(&tree, "tellers-course");
    assert!(
        course.contains("serde"),
        "the app's tree lists the course crate: {course:?}"
    );
    for reader in ["pulldown-cmark", "toml"] {
        assert!(
            !course.contains(reader),
            "the course crate brings {reader} into the app's wasm build"
        );
    }
    let under_sim = crates_under(&tree, "tellers-sim");
    assert!(
        under_sim.contains("libm"),
        "the app's tree lists tellers-sim and what it pulls in: {under_sim:?}"
    );
    for web in [
        "leptos",
        "web-sys",
        "js-sys",
        "wasm-bindgen",
        "plotters-canvas",
        "clap",
    ] {
        assert!(
            !under_sim.contains(web),
            "in the app's wasm build, tellers-sim pulls in {web}"
        );
    }
}

/// Every crate named below any `name` line in a `cargo tree --prefix depth`
/// listing (lines such as `2serde v1.0.0`).
fn crates_under(tree: &str, name: &str) -> BTreeSet<String> {
    let parse = |line: &str| -> Option<(usize, String)> {
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        let depth = line[..digits].parse().ok()?;
        Some((depth, line[digits..].split(' ').next()?.to_string()))
    };
    let mut found = BTreeSet::new();
    let mut inside: Option<usize> = None;
    for (depth, krate) in tree.lines().filter_map(parse) {
        match inside {
            Some(d) if depth > d => {
                found.insert(krate);
            }
            _ => inside = (krate == name).then_some(depth),
        }
    }
    found
}

#[test]
fn crates_under_reads_a_depth_listing() {
    let tree = "0app v1\n1web-sys v0.3\n1tellers-sim v0.1\n2libm v0.2\n2leptos v0.8\n3tachys v0.2\n1serde v1\n";
    let under: Vec<String> = crates_under(tree, "tellers-sim").into_iter().collect();
    assert_eq!(under, ["leptos", "libm", "tachys"]);
}

// The import graph. One node per module: each `.rs` file (`engine/cores.rs`
// is `crate::engine::cores`, `engine/mod.rs` is `crate::engine`, `lib.rs` is
// `crate`) and each inline `mod x { … }`. A parent declaring a child is an
// edge parent → child. Every path a module writes, in a `use` (groups and
// all) or in code, that lands in another module is an edge to it: so a
// child naming an item of its parent (`super::Event`) closes a circle.
// Names are followed through `use` and `pub use` to the module that
// defines them (`crate::Simulation` is `crate::engine`). The whole file is
// read, less comments, strings and `#[cfg(test)] mod … { … }` blocks
// (test modules may reach anywhere; other `#[cfg(test)]` items count).
// The same graph drawn between the crate's top-level modules (all of
// `engine/` as `crate::engine`) must have no circle either.

/// A token of Rust source; comments, strings and chars are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

fn lex(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let at = |j: usize| c.get(j).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == 'b' && matches!(at(i + 1), '"' | '\'' | 'r') && {
            // b"…", b'…', br"…": the prefix goes, the literal follows.
            at(i + 1) != 'r' || matches!(at(i + 2), '"' | '#')
        } {
            i += 1;
        } else if ch == 'r'
            && (at(i + 1) == '"' || (at(i + 1) == '#' && matches!(at(i + 2), '"' | '#')))
        {
            // A raw string: r"…", r#"…"#.
            let mut k = i + 1;
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1;
            while k < c.len() && !(c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#')) {
                k += 1;
            }
            i = k + 1 + hashes;
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped char: '\n', '\'', '\u{7FFF}'.
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or a label: its name lexes as a word.
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = if ch == 'r' && at(i + 1) == '#' {
                i + 2
            } else {
                i
            };
            i = start;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ch.is_ascii_digit() {
            while i < c.len()
                && (c[i].is_alphanumeric()
                    || c[i] == '_'
                    || (c[i] == '.' && at(i + 1).is_ascii_digit()))
            {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

fn is_word(t: Option<&Tok>, w: &str) -> bool {
    matches!(t, Some(Tok::Ident(s)) if s == w)
}

/// The index of the bracket that closes the one at `open`.
fn closing(t: &[Tok], open: usize) -> usize {
    let (o, c) = match t[open] {
        Tok::Punct('[') => ('[', ']'),
        _ => ('{', '}'),
    };
    let mut depth = 0;
    for (j, tok) in t.iter().enumerate().skip(open) {
        if *tok == Tok::Punct(o) {
            depth += 1;
        } else if *tok == Tok::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    t.len()
}

/// One path of a use tree (or a path in code), from `t[*i]`: `a::b::{c,
/// d::e as f, self, *}` gives `a::b::c`, `a::b::d::e` (named `f`), `a::b`
/// (named `b`) and `a::b` (a glob: no name). Each with the name it brings
/// into scope.
fn paths_at(
    t: &[Tok],
    i: &mut usize,
    mut segs: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    loop {
        match t.get(*i) {
            Some(Tok::Sep) => *i += 1,
            Some(Tok::Ident(s)) => {
                segs.push(s.clone());
                *i += 1;
                if t.get(*i) == Some(&Tok::Sep)
                    && matches!(t.get(*i + 1), Some(Tok::Ident(_) | Tok::Punct('{' | '*')))
                {
                    *i += 1;
                    continue;
                }
                let mut alias = None;
                if is_word(t.get(*i), "as") {
                    if let Some(Tok::Ident(a)) = t.get(*i + 1) {
                        alias = Some(a.clone());
                    }
                    *i += 2;
                }
                if segs.last().is_some_and(|s| s == "self") && segs.len() > 1 {
                    segs.pop();
                }
                let name = alias.or_else(|| segs.last().cloned());
                out.push((segs, name));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match t.get(*i) {
                        None => return,
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        Some(_) => {
                            let before = *i;
                            paths_at(t, i, segs.clone(), out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push((segs, None));
                return;
            }
            _ => {
                if !segs.is_empty() {
                    out.push((segs, None));
                }
                return;
            }
        }
    }
}

/// What one module says.
#[derive(Debug, Default)]
struct ModInfo {
    /// The file it is written in.
    file: String,
    parent: Option<String>,
    /// Its child modules, by name.
    children: BTreeSet<String>,
    /// Names its `use`s bring in → the path as written.
    imports: BTreeMap<String, Vec<String>>,
    /// Every path it writes (in a `use` or in code).
    paths: Vec<Vec<String>>,
}

/// A file module to read: its module path, its file's directory and name
/// (`engine`, `cores`: `engine/cores.rs` or `engine/cores/mod.rs`).
struct Pending {
    module: String,
    dir: String,
    name: String,
}

fn join_dir(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// Reads `text`, the file of `module`, whose child files live in `dir`;
/// returns the child files it declares.
fn scan_file(
    mods: &mut BTreeMap<String, ModInfo>,
    module: &str,
    file: &str,
    dir: &str,
    text: &str,
) -> Vec<Pending> {
    let t = lex(text);
    let mut found = Vec::new();
    // Open inline modules: (module, brace depth that closes it, its dir).
    let mut scopes = vec![(module.to_owned(), 0usize, dir.to_owned())];
    let mut depth = 0usize;
    // A `#[cfg(test)]` or `#[macro_export]` waits for its item.
    let mut cfg_test = false;
    let mut exported = false;
    let mut i = 0;
    while i < t.len() {
        let (cur, _, cur_dir) = scopes.last().unwrap().clone();
        let keeps_cfg = matches!(&t[i], Tok::Punct('#' | '(' | ')'))
            || ["pub", "crate", "super", "in", "mod"]
                .iter()
                .any(|w| is_word(Some(&t[i]), w));
        let export_waits = exported;
        if !keeps_cfg {
            cfg_test = false;
            exported = false;
        }
        match &t[i] {
            Tok::Punct('#') => {
                let mut j = i + 1;
                if t.get(j) == Some(&Tok::Punct('!')) {
                    j += 1;
                }
                if t.get(j) != Some(&Tok::Punct('[')) {
                    i += 1;
                    continue;
                }
                let end = closing(&t, j);
                let cfg = [
                    Tok::Ident("cfg".into()),
                    Tok::Punct('('),
                    Tok::Ident("test".into()),
                    Tok::Punct(')'),
                ];
                if t.get(j + 1..end) == Some(&cfg[..]) {
                    cfg_test = true;
                }
                exported |= is_word(t.get(j + 1), "macro_export");
                i = end + 1;
            }
            Tok::Ident(w) if w == "mod" => {
                let (Some(Tok::Ident(name)), Some(Tok::Punct(next))) = (t.get(i + 1), t.get(i + 2))
                else {
                    i += 1;
                    continue;
                };
                let child = format!("{cur}::{name}");
                match (*next, cfg_test) {
                    // A test module, inline or in its own file: skipped.
                    ('{', true) => i = closing(&t, i + 2) + 1,
                    (';', true) => i += 3,
                    (';', false) => {
                        mods.entry(cur.clone())
                            .or_default()
                            .children
                            .insert(name.clone());
                        found.push(Pending {
                            module: child,
                            dir: cur_dir.clone(),
                            name: name.clone(),
                        });
                        i += 3;
                    }
                    ('{', false) => {
                        mods.entry(cur.clone())
                            .or_default()
                            .children
                            .insert(name.clone());
                        mods.insert(
                            child.clone(),
                            ModInfo {
                                file: file.to_owned(),
                                parent: Some(cur.clone()),
                                ..ModInfo::default()
                            },
                        );
                        depth += 1;
                        scopes.push((child, depth, join_dir(&cur_dir, name)));
                        i += 3;
                    }
                    _ => i += 1,
                }
                cfg_test = false;
            }
            // A `#[macro_export]` macro is named at the crate root
            // (`crate::m!`), but its code is this module's.
            Tok::Ident(w) if w == "macro_rules" && export_waits => {
                if let (Some(Tok::Punct('!')), Some(Tok::Ident(name))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    let mut path: Vec<String> = cur.split("::").map(str::to_owned).collect();
                    path.push(name.clone());
                    let root = mods.entry("crate".to_owned()).or_default();
                    root.imports.insert(name.clone(), path);
                }
                i += 1;
            }
            Tok::Ident(w) if w == "use" => {
                i += 1;
                let mut out = Vec::new();
                paths_at(&t, &mut i, Vec::new(), &mut out);
                let m = mods.entry(cur).or_default();
                for (path, name) in out {
                    if let Some(n) = name.filter(|n| n != "_") {
                        m.imports.insert(n, path.clone());
                    }
                    m.paths.push(path);
                }
            }
            // A path in code: `crate::a::f()`, `super::X`, `cores::Cores`.
            Tok::Ident(_)
                if t.get(i + 1) == Some(&Tok::Sep)
                    && !matches!(
                        i.checked_sub(1).map(|j| &t[j]),
                        Some(Tok::Sep | Tok::Punct('.'))
                    ) =>
            {
                let mut out = Vec::new();
                paths_at(&t, &mut i, Vec::new(), &mut out);
                let m = mods.entry(cur).or_default();
                m.paths.extend(out.into_iter().map(|(p, _)| p));
            }
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if scopes.len() > 1 && scopes.last().unwrap().1 == depth {
                    scopes.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// The modules of the crate whose root file is `root`, from `files`
/// (path below `src/` → text); and the files it declares but `files` lacks.
fn crate_modules(
    files: &BTreeMap<String, String>,
    root: &str,
) -> (BTreeMap<String, ModInfo>, Vec<String>) {
    let mut mods = BTreeMap::new();
    let mut missing = Vec::new();
    let root_dir = root.rsplit_once('/').map_or("", |(d, _)| d);
    let mut todo = vec![(
        "crate".to_owned(),
        root.to_owned(),
        root_dir.to_owned(),
        None,
    )];
    while let Some((module, file, dir, parent)) = todo.pop() {
        mods.insert(
            module.clone(),
            ModInfo {
                file: file.clone(),
                parent,
                ..ModInfo::default()
            },
        );
        let text = &files[&file];
        for p in scan_file(&mut mods, &module, &file, &dir, text) {
            let own_dir = join_dir(&p.dir, &p.name);
            let flat = join_dir(&p.dir, &format!("{}.rs", p.name));
            let nested = format!("{own_dir}/mod.rs");
            let Some(f) = [flat.clone(), nested]
                .into_iter()
                .find(|f| files.contains_key(f))
            else {
                missing.push(flat);
                continue;
            };
            todo.push((p.module, f, own_dir, Some(module.clone())));
        }
    }
    (mods, missing)
}

/// The module a path written in `from` lands in: the deepest module it
/// walks through, names followed through `use`s to where they are
/// defined. None for other crates' paths (and local items).
fn resolve(
    mods: &BTreeMap<String, ModInfo>,
    from: &str,
    path: &[String],
    hops: u32,
) -> Option<String> {
    if hops > 32 || path.is_empty() {
        return None;
    }
    let follow = |m: &str, imp: &Vec<String>, rest: &[String]| {
        let mut full = imp.clone();
        full.extend_from_slice(rest);
        resolve(mods, m, &full, hops + 1)
    };
    let (mut cur, mut rest) = match path[0].as_str() {
        "crate" => ("crate".to_owned(), &path[1..]),
        "self" => (from.to_owned(), &path[1..]),
        "super" => {
            let mut cur = from.to_owned();
            let mut k = 0;
            while path.get(k).is_some_and(|s| s == "super") {
                cur = mods.get(&cur)?.parent.clone()?;
                k += 1;
            }
            (cur, &path[k..])
        }
        first => {
            let m = mods.get(from)?;
            if m.children.contains(first) {
                (format!("{from}::{first}"), &path[1..])
            } else {
                let imp = m.imports.get(first)?;
                return follow(from, imp, &path[1..]);
            }
        }
    };
    while let Some(seg) = rest.first() {
        let Some(m) = mods.get(&cur) else { break };
        if m.children.contains(seg) {
            cur = format!("{cur}::{seg}");
            rest = &rest[1..];
        } else if let Some(imp) = m.imports.get(seg) {
            return follow(&cur, imp, &rest[1..]);
        } else {
            break;
        }
    }
    Some(cur)
}

/// Module → the modules it imports, each with what shows it.
type Edges = BTreeMap<String, BTreeMap<String, String>>;

fn import_edges(mods: &BTreeMap<String, ModInfo>) -> Edges {
    let mut g = Edges::new();
    for (name, m) in mods {
        let e = g.entry(name.clone()).or_default();
        for c in &m.children {
            e.insert(format!("{name}::{c}"), format!("`mod {c}` in {}", m.file));
        }
        for p in &m.paths {
            if let Some(to) = resolve(mods, name, p, 0).filter(|to| to != name) {
                e.entry(to)
                    .or_insert_with(|| format!("`{}` in {}", p.join("::"), m.file));
            }
        }
    }
    g
}

fn plain(g: &Edges) -> BTreeMap<String, BTreeSet<String>> {
    g.iter()
        .map(|(k, v)| (k.clone(), v.keys().cloned().collect()))
        .collect()
}

/// The same graph between the crate's top-level modules (`crate::a::b` is
/// `crate::a`): a circle through two top-level modules' children.
fn top_level(g: &Edges) -> Edges {
    let top = |m: &str| m.splitn(3, "::").take(2).collect::<Vec<_>>().join("::");
    let mut out = Edges::new();
    for (from, tos) in g {
        let e = out.entry(top(from)).or_default();
        for (to, why) in tos {
            if top(to) != top(from) {
                e.entry(top(to)).or_insert_with(|| why.clone());
            }
        }
    }
    out
}

/// An import circle, written out with what shows each step.
fn circle(g: &Edges) -> Option<String> {
    let cycle = find_cycle(&plain(g))?;
    let steps: Vec<String> = cycle
        .windows(2)
        .map(|w| format!("{} → {} ({})", w[0], w[1], g[&w[0]][&w[1]]))
        .collect();
    Some(steps.join("; "))
}

fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut cycle = path[i..].to_vec();
            cycle.push(n.to_owned());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_owned());
        for next in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    g.keys()
        .find_map(|n| visit(n, g, &mut Vec::new(), &mut done))
}

/// The crate roots in a `src/`: the library, the binaries.
fn crate_roots(files: &BTreeMap<String, String>) -> Vec<String> {
    files
        .keys()
        .filter(|f| {
            matches!(f.as_str(), "lib.rs" | "main.rs")
                || (f.starts_with("bin/")
                    && (f.matches('/').count() == 1 || f.ends_with("/main.rs")))
        })
        .cloned()
        .collect()
}

/// Every import on a circle (whose module imports, at some remove, the
/// importer back), with what shows it.
fn imports_on_circles(g: &Edges) -> Vec<String> {
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(n) = todo.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) {
                todo.extend(g.get(&n).into_iter().flat_map(|e| e.keys().cloned()));
            }
        }
        false
    };
    let mut out = Vec::new();
    for (a, tos) in g {
        for (b, why) in tos {
            if reaches(b, a) {
                out.push(format!("{a} → {b} ({why})"));
            }
        }
    }
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut circles = Vec::new();
    for src in ["src", "sim/src", "lessons/src"] {
        let dir = root().join(src);
        let files: BTreeMap<String, String> = rust_files(&dir)
            .into_iter()
            .map(|f| {
                let rel = f
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                (rel, fs::read_to_string(&f).unwrap())
            })
            .collect();
        let mut read = BTreeSet::new();
        for krate in crate_roots(&files) {
            let (mods, missing) = crate_modules(&files, &krate);
            assert!(missing.is_empty(), "{src}/{krate}: no file for {missing:?}");
            read.extend(mods.values().map(|m| m.file.clone()));
            if krate == "lib.rs" {
                assert!(mods.len() > 3, "{src}: the scan found the modules");
            }
            let g = import_edges(&mods);
            for step in imports_on_circles(&g) {
                circles.push(format!("{src}/{krate}: {step}"));
            }
            for step in imports_on_circles(&top_level(&g)) {
                circles.push(format!("{src}/{krate}, top-level modules: {step}"));
            }
        }
        let unread: Vec<&String> = files.keys().filter(|f| !read.contains(*f)).collect();
        assert!(
            unread.is_empty(),
            "{src}: files no crate declares: {unread:?}"
        );
    }
    assert!(
        circles.is_empty(),
        "imports on a circle:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("a".into());
    assert!(find_cycle(&g).is_some());
    g.get_mut("b").unwrap().clear();
    assert!(find_cycle(&g).is_none());
}

/// The import graph of a crate made of `files` (path, text), `lib.rs` its root.
fn graph_of(files: &[(&str, &str)]) -> Edges {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let (mods, missing) = crate_modules(&files, "lib.rs");
    assert!(missing.is_empty(), "{missing:?}");
    import_edges(&mods)
}

fn imports(g: &Edges, from: &str, to: &str) -> bool {
    g.get(from).is_some_and(|e| e.contains_key(to))
}

#[test]
fn the_graph_sees_a_child_importing_its_parent() {
    // The engine's old shape: mod.rs declares `cores`, cores names `super::Event`.
    let g = graph_of(&[
        ("lib.rs", "pub mod engine;"),
        ("engine/mod.rs", "pub mod cores;\npub enum Event { Tick }"),
        (
            "engine/cores.rs",
            "use super::Event;\nfn f() -> Event { Event::Tick }",
        ),
    ]);
    assert!(imports(&g, "crate::engine", "crate::engine::cores"));
    assert!(imports(&g, "crate::engine::cores", "crate::engine"));
    let c = circle(&g).expect("a circle");
    assert!(c.contains("`super::Event` in engine/cores.rs"), "{c}");
    // Its new shape: the event in a file of its own, the parent re-exports it.
    let g = graph_of(&[
        ("lib.rs", "pub mod engine;"),
        (
            "engine/mod.rs",
            "pub mod cores;\nmod event;\npub use event::Event;",
        ),
        ("engine/event.rs", "pub enum Event { Tick }"),
        ("engine/cores.rs", "use super::event::Event;"),
    ]);
    assert!(imports(&g, "crate::engine::cores", "crate::engine::event"));
    assert_eq!(circle(&g), None);
    // A child naming the re-export (`super::Event`) lands in `event` too.
    let g = graph_of(&[
        ("lib.rs", "pub mod engine;"),
        (
            "engine/mod.rs",
            "pub mod cores;\nmod event;\npub use event::Event;",
        ),
        ("engine/event.rs", "pub enum Event { Tick }"),
        ("engine/cores.rs", "fn f() { let _ = super::Event::Tick; }"),
    ]);
    assert!(imports(&g, "crate::engine::cores", "crate::engine::event"));
    assert_eq!(circle(&g), None);
}

#[test]
fn the_graph_reads_use_groups_and_super_paths() {
    // `use crate::{a, b::c}`: both names after `crate::` count.
    let g = graph_of(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;"),
        ("a.rs", "use crate::{\n    c,\n    b::{self, X as Y},\n};"),
        ("b.rs", "pub struct X;\nfn f() { crate::a::g(); }"),
        ("c.rs", ""),
    ]);
    assert!(imports(&g, "crate::a", "crate::b"));
    assert!(imports(&g, "crate::a", "crate::c"));
    assert!(circle(&g).is_some_and(|c| c.contains("crate::a") && c.contains("crate::b")));
    // `super::` is read from the file's own module: siblings in a circle.
    let g = graph_of(&[
        ("lib.rs", "mod m;"),
        ("m/mod.rs", "mod a;\nmod b;"),
        ("m/a.rs", "use super::b::T;\npub fn g() {}"),
        ("m/b.rs", "pub struct T;\nfn f() { super::a::g() }"),
    ]);
    assert!(imports(&g, "crate::m::a", "crate::m::b"));
    assert!(imports(&g, "crate::m::b", "crate::m::a"));
    assert!(circle(&g).is_some());
    // A name re-exported by the root is its defining module's.
    let g = graph_of(&[
        (
            "lib.rs",
            "mod engine;\nmod bench;\npub use engine::Simulation;",
        ),
        (
            "engine/mod.rs",
            "pub struct Simulation;\nuse crate::bench::Budget;",
        ),
        ("bench.rs", "pub struct Budget;\nuse crate::Simulation;"),
    ]);
    assert!(imports(&g, "crate::bench", "crate::engine"));
    assert!(!imports(&g, "crate::bench", "crate"));
    assert!(circle(&g).is_some());
}

#[test]
fn the_graph_reads_past_test_code_and_skips_test_modules() {
    // Code after a `#[cfg(test)]` function is code.
    let g = graph_of(&[
        ("lib.rs", "mod a;\nmod b;"),
        (
            "a.rs",
            "#[cfg(test)]\nfn helper() -> u8 { 1 }\n\npub use crate::b::X;",
        ),
        ("b.rs", "pub struct X;\nuse crate::a::helper;"),
    ]);
    assert!(imports(&g, "crate::a", "crate::b"));
    assert!(circle(&g).is_some());
    // A test module may reach anywhere; the code after it counts again.
    let g = graph_of(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;"),
        (
            "a.rs",
            "#[cfg(test)]\n#[allow(dead_code)]\nmod tests {\n    use crate::b::*;\n    \
             fn f() { let _ = ('}', \"}\", '{'); }\n}\nfn g() { crate::c::h() }",
        ),
        ("b.rs", "use crate::a;"),
        ("c.rs", "pub fn h() {}"),
    ]);
    assert!(!imports(&g, "crate::a", "crate::b"));
    assert!(imports(&g, "crate::a", "crate::c"));
    assert_eq!(circle(&g), None);
    // Comments and strings name no module.
    let g = graph_of(&[
        ("lib.rs", "mod a;\nmod b;"),
        (
            "a.rs",
            "// use crate::b;\n/* crate::b::X */\nconst S: &str = \"crate::b::X\";\nconst R: &str = r#\"super::b\"#;",
        ),
        ("b.rs", "use crate::a;"),
    ]);
    assert!(!imports(&g, "crate::a", "crate::b"));
    assert_eq!(circle(&g), None);
}

#[test]
fn the_graph_places_an_exported_macro_in_its_module() {
    // `crate::fields!` is named at the root but written in `macros`.
    let g = graph_of(&[
        ("lib.rs", "mod macros;\nmod user;"),
        (
            "macros.rs",
            "#[macro_export]\nmacro_rules! fields { () => {} }",
        ),
        ("user.rs", "crate::fields!();"),
    ]);
    assert!(imports(&g, "crate::user", "crate::macros"));
    assert!(!imports(&g, "crate::user", "crate"));
    assert_eq!(circle(&g), None);
}

#[test]
fn the_graph_sees_inline_modules() {
    // An inline module naming its parent closes a circle, as a file would.
    let g = graph_of(&[
        ("lib.rs", "mod charts;"),
        (
            "charts.rs",
            "pub const W: f64 = 1.0;\npub mod palette {\n    pub const X: f64 = super::W;\n}\nfn f() -> f64 { palette::X }",
        ),
    ]);
    assert!(imports(&g, "crate::charts", "crate::charts::palette"));
    assert!(imports(&g, "crate::charts::palette", "crate::charts"));
    assert!(circle(&g).is_some());
    // Child files of an inline module live in its directory.
    let g = graph_of(&[
        ("lib.rs", "mod a {\n    pub mod b;\n}\nmod c;"),
        ("a/b.rs", "use crate::c::X;"),
        ("c.rs", "pub struct X;"),
    ]);
    assert!(imports(&g, "crate::a::b", "crate::c"));
    assert_eq!(circle(&g), None);
}

#[test]
fn the_graph_sees_a_circle_between_top_level_modules() {
    // No file imports one that imports it back, but `a` (through its child)
    // and `b` (through its child) import each other.
    let g = graph_of(&[
        ("lib.rs", "mod a;\nmod b;"),
        ("a/mod.rs", "mod x;\nmod w;"),
        ("a/x.rs", "use crate::b::y::Y;"),
        ("a/w.rs", "pub struct W;"),
        ("b/mod.rs", "pub mod y;\nmod z;"),
        ("b/y.rs", "pub struct Y;"),
        ("b/z.rs", "use crate::a::w::W;"),
    ]);
    assert_eq!(circle(&g), None);
    assert!(circle(&top_level(&g)).is_some());
}
#[test]
fn components_branch_on_no_domain_value() {
    // Matching on a model, an arrival process or a limit is domain logic:
    // it belongs in a plain function with a native test, not in a view.
    let banned = [
        "Model::",
        "Arrivals::",
        "Limit::",
        "Accept::",
        "Dist::",
        "Discipline::",
        "Bound::",
        "SignKind::",
        "StoppedBy::",
    ];
    for f in rust_files(&root().join("src/components")) {
        let text = fs::read_to_string(&f).unwrap();
        for b in banned {
            assert!(
                !text.contains(b),
                "{} names {b}: move that branch into a plain function",
                f.display()
            );
        }
    }
}

/// `src`'s tokens less its `#[cfg(test)] mod … { … }` blocks (test
/// modules may do what the code may not); other `#[cfg(test)]` items stay.
fn code_tokens(src: &str) -> Vec<Tok> {
    let t = lex(src);
    let cfg = [
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
    ];
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        if t[i] == Tok::Punct('#') && t.get(i + 1) == Some(&Tok::Punct('[')) {
            let end = closing(&t, i + 1);
            if t.get(i + 2..end) == Some(&cfg[..]) {
                // Past any further attributes, to the item.
                let mut j = end + 1;
                while t.get(j) == Some(&Tok::Punct('#')) && t.get(j + 1) == Some(&Tok::Punct('[')) {
                    j = closing(&t, j + 1) + 1;
                }
                if is_word(t.get(j), "pub") {
                    j += 1;
                }
                if is_word(t.get(j), "mod") && t.get(j + 2) == Some(&Tok::Punct('{')) {
                    i = closing(&t, j + 2) + 1;
                    continue;
                }
            }
        }
        out.push(t[i].clone());
        i += 1;
    }
    out
}

/// Whether `t` reads a float with std's parser: `parse::<f64>()`,
/// `f64::from_str`, or `let x: f64 = ….parse()…;`.
fn reads_floats_with_std(t: &[Tok]) -> bool {
    let float = |k: Option<&Tok>| is_word(k, "f64") || is_word(k, "f32");
    (0..t.len()).any(|i| {
        let turbofish = is_word(t.get(i), "parse")
            && t.get(i + 1) == Some(&Tok::Sep)
            && t.get(i + 2) == Some(&Tok::Punct('<'))
            && float(t.get(i + 3));
        let from_str =
            float(t.get(i)) && t.get(i + 1) == Some(&Tok::Sep) && is_word(t.get(i + 2), "from_str");
        let typed = t.get(i) == Some(&Tok::Punct(':'))
            && float(t.get(i + 1))
            && t.get(i + 2) == Some(&Tok::Punct('='))
            && t[i + 3..]
                .iter()
                .take_while(|k| **k != Tok::Punct(';'))
                .any(|k| is_word(Some(k), "parse"));
        turbofish || from_str || typed
    })
}

#[test]
fn numbers_people_type_are_read_by_one_function() {
    // `tellers_sim::text::number` reads every typed number; std's float
    // parser would bring its 10 KB table back into the app's wasm (and a
    // second grammar). Test modules may compare with it.
    assert!(reads_floats_with_std(&code_tokens(
        "fn f(s: &str) { s.parse::<f64>(); }"
    )));
    assert!(reads_floats_with_std(&code_tokens(
        "fn f(s: &str) { let x: f64 = s.trim().parse().unwrap(); }"
    )));
    assert!(reads_floats_with_std(&code_tokens(
        "use std::str::FromStr; fn f(s: &str) { f64::from_str(s); }"
    )));
    // Past a test function, and in a file whose test module comes first.
    assert!(reads_floats_with_std(&code_tokens(
        "#[cfg(test)]\nfn t() {}\nfn f(s: &str) { s.parse::<f32>(); }"
    )));
    assert!(reads_floats_with_std(&code_tokens(
        "#[cfg(test)]\nmod tests { fn t() {} }\nfn f(s: &str) { s.parse::<f64>(); }"
    )));
    assert!(!reads_floats_with_std(&code_tokens(
        "fn f() {}\n#[cfg(test)]\nmod tests { fn t(s: &str) { s.parse::<f64>(); } }"
    )));
    assert!(!reads_floats_with_std(&code_tokens(
        "// s.parse::<f64>()\nfn f() { \"parse::<f64>\"; }"
    )));
    let mut found = Vec::new();
    for dir in ["src", "sim/src", "lessons/src"] {
        for f in rust_files(&root().join(dir)) {
            if reads_floats_with_std(&code_tokens(&fs::read_to_string(&f).unwrap())) {
                found.push(f.display().to_string());
            }
        }
    }
    assert!(
        found.is_empty(),
        "read numbers with tellers_sim::text::number: {found:?}"
    );
}

/// Where `src` reads the page's hash: a `.hash()` call or the `hashchange`
/// event, outside comments (and the event named in a string, as
/// `add_event_listener_with_callback("hashchange", …)` would).
fn reads_the_hash(src: &str) -> bool {
    if src.contains("\"hashchange\"") {
        return true;
    }
    let toks = lex(src);
    toks.windows(3).any(|w| {
        matches!(&w[0], Tok::Punct('.'))
            && matches!(&w[1], Tok::Ident(n) if n == "hash")
            && matches!(&w[2], Tok::Punct('('))
    }) || toks
        .iter()
        .any(|t| matches!(t, Tok::Ident(n) if n == "hashchange"))
}

#[test]
fn the_hash_is_read_only_in_route_rs() {
    // README: "The hash is read in one place (`route.rs`)". Pages get the
    // hash, or what it means, from there.
    assert!(reads_the_hash("let h = window().location().hash();"));
    assert!(reads_the_hash("window_event_listener(ev::hashchange, f)"));
    assert!(reads_the_hash(
        "w.add_event_listener_with_callback(\"hashchange\", f)"
    ));
    assert!(!reads_the_hash(
        "// a `hashchange` would reload\nlet s = \"x.hash()\";"
    ));
    let route = root().join("src").join("route.rs");
    assert!(reads_the_hash(&fs::read_to_string(&route).unwrap()));
    let readers: Vec<String> = rust_files(&root().join("src"))
        .into_iter()
        .filter(|p| *p != route)
        .filter(|p| reads_the_hash(&fs::read_to_string(p).unwrap()))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        readers.is_empty(),
        "the hash is read outside route.rs in {readers:?}"
    );
}

/// Every place the app sets HTML from text (`inner_html=`), by file and
/// expression, with what makes it safe. Text from people (names, file contents, class codes) must be
/// escaped where it becomes HTML; these builders do it and have tests that
/// feed them markup. A new `inner_html=` fails the test below until it is
/// added here with its reason.
const HTML_FROM_TEXT: &[(&str, &str, &str)] = &[
    (
        "playground_page.rs",
        "keys_legend_html(letters.get())",
        "fixed text (playground::KEYS, and the letter keys' box)",
    ),
    (
        "predict_box.rs",
        "html",
        "lesson HTML compiled at build time from our own Markdown",
    ),
    (
        "lesson_view.rs",
        "html.clone()",
        "lesson HTML compiled at build time from our own Markdown",
    ),
    (
        "teacher_page.rs",
        "steps",
        "fixed text and a class code Tellers made, query-escaped",
    ),
    (
        "teacher_page.rs",
        "IN_CLASS_HTML",
        "a constant of fixed text",
    ),
    (
        "class_results.rs",
        "page.notes.clone()",
        "results.rs escapes names and file names (tests)",
    ),
    (
        "class_results.rs",
        "table.rows_html(part)",
        "results.rs escapes names (tests)",
    ),
    (
        "class_results.rs",
        "table.legend_html()",
        "results.rs: fixed text and exercise ids",
    ),
    (
        "class_results.rs",
        "table.head_html()",
        "results.rs: lesson titles and exercise ids from the course",
    ),
    (
        "class_results.rs",
        "table.foot_html()",
        "results.rs: counts",
    ),
    (
        "worksheet_page.rs",
        "own_sheet_html(lesson, &class, &name)",
        "worksheet.rs escapes class and name, in HTML and in CSS (tests)",
    ),
    (
        "class_worksheets.rs",
        "sheet(i)",
        "worksheet.rs escapes each name (class_sheets tests)",
    ),
    (
        "answer_key.rs",
        "student_key_html(&course, &code, &student.1, &slug, questions)",
        "answer.rs escapes the student's name and the class (tests)",
    ),
];

#[test]
fn every_html_from_text_is_one_the_list_says_is_safe() {
    let mut found = BTreeSet::new();
    for file in rust_files(&root().join("src")) {
        let src = fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        // Other ways to set HTML from text would pass by the list unseen.
        for other in ["set_inner_html", "innerHTML", "insert_adjacent_html"] {
            assert!(
                !src.contains(other),
                "{name} sets HTML by {other}: use inner_html= and list it in HTML_FROM_TEXT"
            );
        }
        for (i, _) in src.match_indices("inner_html") {
            // `inner_html=`, with or without spaces around the `=`.
            let rest = src[i + "inner_html".len()..].trim_start();
            let Some(rest) = rest.strip_prefix('=') else {
                continue;
            };
            let rest = rest.trim_start();
            // The expression runs to the end of the attribute: `>` or
            // whitespace outside parentheses.
            let mut depth = 0i32;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth == 0 && (c == '>' || c.is_whitespace())
                })
                .map_or(rest.len(), |(j, _)| j);
            found.insert((name.clone(), rest[..end].trim_end_matches('/').to_string()));
        }
    }
    let listed: BTreeSet<(String, String)> = HTML_FROM_TEXT
        .iter()
        .map(|(f, e, _)| (f.to_string(), e.to_string()))
        .collect();
    let new: Vec<_> = found.difference(&listed).collect();
    assert!(
        new.is_empty(),
        "HTML set from text with no reason on the list (HTML_FROM_TEXT): {new:?}"
    );
    let gone: Vec<_> = listed.difference(&found).collect();
    assert!(gone.is_empty(), "listed but no longer in src/: {gone:?}");
}

/// Words a float's doc comment may name as its unit (whole words), and
/// marks it may contain; a name ending in one of the suffixes says it
/// itself.
const UNIT_WORDS: &[&str] = &[
    "ms",
    "s",
    "µs",
    "ns",
    "rps",
    "KB",
    "MB",
    "GB",
    "px",
    "share",
    "shares",
    "ratio",
    "times",
    "requests",
    "threads",
    "cores",
    "connections",
    "calls",
    "tokens",
    "count",
    "percent",
    "seconds",
    "fraction",
];
const UNIT_MARKS: &[&str] = &["%", "0–1", "per second", "a second", "whatever unit"];
const UNIT_SUFFIXES: &[&str] = &[
    "_ms", "_s", "_us", "_ns", "_rps", "_kb", "_mb", "_px", "_share", "_bytes", "_per_s",
];

/// Public fields and constants holding a float (`f64`, `Option<f64>`, an
/// array of them) whose name and doc comment say no unit, as
/// `name: first doc line`.
fn floats_without_unit(src: &str) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("pub ") else {
            continue;
        };
        let rest = rest.strip_prefix("const ").unwrap_or(rest);
        let Some((name, ty)) = rest.split_once(": ") else {
            continue;
        };
        if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let ty = ty.trim_start_matches("Option<").trim_start_matches('[');
        if !(ty.starts_with("f64") || ty.starts_with("f32")) {
            continue;
        }
        let lower = name.to_lowercase();
        if UNIT_SUFFIXES.iter().any(|s| lower.ends_with(s)) {
            continue;
        }
        let doc: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| l.starts_with("///") || l.starts_with("#["))
            .filter_map(|l| l.strip_prefix("///"))
            .collect();
        let doc = doc.into_iter().rev().collect::<Vec<_>>().join(" ");
        let words: BTreeSet<&str> = doc
            .split(|c: char| !(c.is_alphanumeric() || c == 'µ'))
            .collect();
        let says = UNIT_WORDS.iter().any(|u| words.contains(u))
            || UNIT_MARKS.iter().any(|m| doc.contains(m));
        if !says {
            out.push(format!("{name}: {}", doc.trim()));
        }
    }
    out
}

#[test]
fn the_unit_finder_reads_names_and_docs() {
    let src = "/// Mean service time, ms.\npub service: f64,\n\
               /// How long.\npub wait: Option<f64>,\n\
               pub cpu_ms: f64,\n\
               /// Sessions in all.\npub const PER: [f64; 2] = [1.0, 2.0];\n\
               /// Busy, 0–1.\n#[serde(default)]\npub busy: f64,\n\
               /// A name.\npub label: String,\n";
    assert_eq!(
        floats_without_unit(src),
        vec![
            "wait: How long.".to_string(),
            "PER: Sessions in all.".to_string()
        ]
    );
}

/// The README's "every public item is documented, with units":
/// `missing_docs` checks the documentation; this checks that every public
/// float says what it is measured in, by its name (`cpu_ms`) or its doc.
#[test]
fn every_public_float_says_its_unit() {
    let mut missing = Vec::new();
    for dir in ["src", "sim/src", "lessons/src"] {
        for file in rust_files(&root().join(dir)) {
            let src = fs::read_to_string(&file).unwrap();
            for item in floats_without_unit(&src) {
                let rel = file.strip_prefix(root()).unwrap().display().to_string();
                missing.push(format!("{rel}: {item}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "public floats whose name and doc comment give no unit (say it in the doc, \
         such as 'ms', 'CSS px', 'a share, 0–1' or 'a ratio'):\n{}",
        missing.join("\n")
    );
}
