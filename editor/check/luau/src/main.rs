//! `riffle-luau-check --definitions=FILE [--strict] FILE...`: checks Luau files against a
//! definitions file with Luau's type checker and prints `path:line:col: message` for each
//! diagnostic. Exit 0 when there is none, 1 when there are, 2 when the definitions do not
//! load. `--strict` checks a file with no `--!` directive as strict, as cardsets/.luaurc
//! makes luau-lsp do.

use luau_analyzer_sys::NativeAnalyzer;

/// The names a definitions file declares at its top level.
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("declare "))
        .filter(|l| !l.starts_with("class ") && !l.starts_with("extern "))
        .map(|l| l.strip_prefix("function ").unwrap_or(l))
        .map(|l| {
            l.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .filter(|n: &String| !n.is_empty())
        .collect()
}

fn main() {
    let mut definitions = Vec::new();
    let mut strict = false;
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        if let Some(d) = a.strip_prefix("--definitions=") {
            definitions.push(d.to_string());
        } else if a == "--strict" {
            strict = true;
        } else {
            files.push(a);
        }
    }
    if definitions.is_empty() || files.is_empty() {
        eprintln!("usage: riffle-luau-check --definitions=FILE [--strict] FILE...");
        std::process::exit(2);
    }
    let mut analyzer = NativeAnalyzer::new();
    let mut names = Vec::new();
    for d in &definitions {
        let text = std::fs::read_to_string(d).unwrap_or_else(|e| {
            eprintln!("{d}: {e}");
            std::process::exit(2)
        });
        names.extend(declared(&text));
        analyzer.add_definitions(&text);
    }
    // Luau drops a definitions file whole when it has any error, and the binding does not
    // say why: a module that reads every declared name finds out whether it loaded.
    let probe: String = names.iter().map(|n| format!("local _ = {n}\n")).collect();
    let unknown: Vec<String> = analyzer
        .check("=probe", |m| (m == "=probe").then(|| probe.clone()), |_, _| None)
        .into_iter()
        .filter(|d| d.message.contains("Unknown global"))
        .map(|d| d.message)
        .collect();
    if let Some(first) = unknown.first() {
        eprintln!(
            "{}: did not load (a syntax or type error in it): {first}",
            definitions.join(", ")
        );
        std::process::exit(2);
    }
    let mut problems = 0;
    for f in &files {
        let Ok(mut text) = std::fs::read_to_string(f) else {
            eprintln!("{f}: cannot read it");
            std::process::exit(2);
        };
        let shift = if strict && !text.trim_start().starts_with("--!") {
            text.insert_str(0, "--!strict\n");
            1
        } else {
            0
        };
        for d in analyzer.check(f, |m| (m == f.as_str()).then(|| text.clone()), |_, _| None) {
            problems += 1;
            println!("{f}:{}:{}: {}", (d.line + 1).saturating_sub(shift), d.col + 1, d.message);
        }
    }
    std::process::exit(if problems > 0 { 1 } else { 0 });
}
