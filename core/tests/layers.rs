//! The kernel's modules form layers: no top-level module of `core/src` reaches, through the
//! `crate::` paths its files name, back to itself. A module that needs something from a
//! module above it is a sign that a plain data type lives beside logic it does not need;
//! move the type down (`state/` holds the plain data) rather than adding the import.
//!
//! The unit is a top-level module: a file of `core/src` or a folder with its files. What a
//! folder's own files do among themselves is that folder's business.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("core/src is readable") {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules each `crate::` path in `text` names: `crate::a::b`, and each
/// member of `crate::{a, b::c}`. Comments are skipped.
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}').unwrap_or(inner.len());
                for part in inner[..end].split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((n + 1, name));
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, name));
            }
        }
    }
    out
}

#[test]
fn the_kernel_modules_import_each_other_in_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let top = |p: &Path| -> String {
        let rel = p.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a path");
        first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string()
    };
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| top(f))
        .filter(|m| m != "lib")
        .collect();
    // lib.rs re-exports some modules of `state` at the root (`pub use state::{values, ...}`):
    // a path through such a name is a path into `state`.
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut alias: BTreeMap<String, String> = BTreeMap::new();
    for line in lib.lines() {
        if let Some(rest) = line.strip_prefix("pub use ")
            && let Some((owner, list)) = rest.split_once("::{")
            && modules.contains(owner)
        {
            for name in list.trim_end_matches("};").split(',') {
                alias.insert(name.trim().to_string(), owner.to_string());
            }
        }
    }
    // edges[a][b] = the places where a names b
    let mut edges: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for f in &files {
        let from = top(f);
        if from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("a source file");
        for (line, name) in named_modules(&text) {
            let to = alias.get(&name).cloned().unwrap_or(name);
            if to != from && modules.contains(&to) {
                let at = format!("{}:{line}", f.strip_prefix(&src).unwrap().display());
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .push(at);
            }
        }
    }
    // A circle exists iff some module reaches itself; report each module's shortest way back.
    let mut circles = Vec::new();
    for start in &modules {
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        let mut found = None;
        while let Some(m) = queue.pop_front() {
            for next in edges.get(&m).map(|e| e.keys()).into_iter().flatten() {
                if next == start {
                    found = Some(m.clone());
                    break;
                }
                if !prev.contains_key(next) {
                    prev.insert(next.clone(), m.clone());
                    queue.push_back(next.clone());
                }
            }
            if found.is_some() {
                break;
            }
        }
        if let Some(last) = found {
            let mut path = vec![last.clone()];
            while let Some(p) = prev.get(path.last().unwrap()) {
                path.push(p.clone());
            }
            path.reverse();
            path.push(start.clone());
            let mut steps = Vec::new();
            let mut from = start.clone();
            for to in &path[1..] {
                let at = &edges[&from][to];
                steps.push(format!("{from} -> {to} ({})", at.join(", ")));
                from = to.clone();
            }
            circles.push(steps.join("; "));
        }
    }
    assert!(
        circles.is_empty(),
        "modules of core/src import each other in a circle:\n{}",
        circles.join("\n")
    );
}
