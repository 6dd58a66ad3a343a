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
    // What the wasm build of tellers-sim really links: normal dependencies
    // for the wasm32 target (not dev-dependencies, not native-only ones).
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            "tellers-sim",
            "-e",
            "normal",
            "--target",
            "wasm32-unknown-unknown",
            "--prefix",
            "none",
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
    let crates: BTreeSet<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(
        crates.contains("libm"),
        "the tree lists the simulator's dependencies"
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
            !crates.contains(web),
            "tellers-sim pulls {web} into the wasm build"
        );
    }
}

/// `crate::a::b` → `a` for the modules of one crate's `src/`.
fn module_of(path: &Path, src: &Path) -> String {
    let rel = path.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// Top-level modules of a crate and which others each names as `crate::X`.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in rust_files(src) {
        let m = module_of(&f, src);
        if m == "lib" || m == "main" || m == "bin" {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap();
        // Test modules may reach anywhere; only the code itself counts.
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let entry = g.entry(m.clone()).or_default();
        for part in code.split("crate::").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let is_module = src.join(format!("{name}.rs")).exists() || src.join(&name).is_dir();
            if is_module && name != m {
                entry.insert(name);
            }
        }
    }
    g
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

#[test]
fn no_module_imports_one_that_imports_it_back() {
    for src in ["src", "sim/src", "lessons/src"] {
        let g = import_graph(&root().join(src));
        assert!(g.len() > 3, "{src}: the scan found the modules");
        if let Some(cycle) = find_cycle(&g) {
            panic!("{src}: an import circle: {}", cycle.join(" → "));
        }
    }
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

#[test]
fn components_branch_on_no_domain_value() {
    // Matching on a model, an arrival process or a limit is domain logic:
    // it belongs in a plain function with a native test, not in a view.
    let banned = ["Model::", "Arrivals::", "Limit::", "Accept::", "Dist::"];
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

#[test]
fn numbers_people_type_are_read_by_one_function() {
    // `tellers_sim::text::number` reads every typed number; std's float
    // parser would bring its 10 KB table back into the app's wasm (and a
    // second grammar). Test modules may compare with it.
    let mut found = Vec::new();
    for dir in ["src", "sim/src", "lessons/src"] {
        for f in rust_files(&root().join(dir)) {
            let text = fs::read_to_string(&f).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (i, line) in code.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                let typed_f64 = line.contains(": f64 =") && line.contains(".parse()");
                if line.contains("parse::<f64>") || line.contains("parse::<f32>") || typed_f64 {
                    found.push(format!("{}:{}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "read numbers with tellers_sim::text::number: {found:?}"
    );
}
