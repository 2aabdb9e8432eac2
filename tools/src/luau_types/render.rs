//! Writes a game's definitions file (luau-lsp's `declare` syntax). Types follow the
//! ruleset's conventions, since its Lua has none: a parameter named `ctx` is a [`Ctx`], a
//! global function whose one parameter is `a` is an ability constructor (it takes and
//! returns an `Ability`), and one whose one parameter is `abilities` takes a list of them
//! (`card { ... }`). Everything else is `any`, but every name is declared, so that an
//! editor completes them and flags the names that do not exist.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use riffle_core::RulesetManifest;

use super::kernel::{
    ABILITY_CALLBACKS, CARD_FIELDS, CARD_METHODS, CTX_FIELDS, CTX_RETURNS, KERNEL_GLOBALS,
    LUAU_STANDARD,
};
use super::probe::Kind;
use super::source::{CtxApi, Declared, Signature};

/// Luau's reserved words: a table key that is one must be quoted in a type.
const RESERVED: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local",
    "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&s)
}

/// A property name in a table type or a class.
fn key(s: &str) -> String {
    if is_name(s) {
        s.to_string()
    } else {
        format!("[{s:?}]")
    }
}

fn doc_lines(o: &mut String, indent: &str, doc: &[String]) {
    for line in doc {
        if line.is_empty() {
            let _ = writeln!(o, "{indent}---");
        } else {
            let _ = writeln!(o, "{indent}--- {line}");
        }
    }
}

fn param_type(name: &str) -> &'static str {
    if name == "ctx" { "Ctx" } else { "any" }
}

/// `(a: T, b: U): R` for a declared function; `global` says whether the constructor
/// conventions apply (they do not to a table's fields).
fn signature(sig: &Signature, global: bool) -> String {
    match sig.params.as_slice() {
        // What a constructor returns is the kernel's to read: `any`, so that a card may
        // call a kept ability's `operate` (`main.operate(ctx)`) without a nil check.
        [a] if global && a == "a" => return "(a: Ability): any".into(),
        [a] if global && a == "abilities" => return "(abilities: {Ability}): any".into(),
        _ => {}
    }
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| {
            if p == "..." {
                "...: any".to_string()
            } else {
                format!("{p}: {}", param_type(p))
            }
        })
        .collect();
    format!("({}): ...any", params.join(", "))
}

/// The same as a function type (`(a: T) -> ...any`), for a table's field.
fn function_type(sig: Option<&Signature>) -> String {
    match sig {
        None => "(...any) -> ...any".into(),
        Some(sig) => {
            let s = signature(sig, false);
            let (params, _) = s.rsplit_once(": ...any").unwrap_or((&s, ""));
            // A function type writes its vararg `...any`, not `...: any`.
            format!("{} -> ...any", params.replace("...: any", "...any"))
        }
    }
}

/// The type of a value the probe saw, at `path` (for the signatures of its functions).
fn value_type(kind: &Kind, path: &str, declared: &Declared, indent: usize) -> String {
    match kind {
        Kind::Function => function_type(declared.fields.get(path)),
        Kind::Plain(t) => t.to_string(),
        Kind::Other => "any".into(),
        // A table with a metatable answers more than its keys (filters that combine with
        // `*`...): no type could say what it does.
        Kind::Table { dynamic: true, .. } => "any".into(),
        Kind::Table { fields, .. } if fields.is_empty() => "{ [any]: any }".into(),
        Kind::Table { fields, .. } => {
            let pad = "    ".repeat(indent + 1);
            let mut o = String::from("{\n");
            for (k, v) in fields {
                let t = value_type(v, &format!("{path}.{k}"), declared, indent + 1);
                let _ = writeln!(o, "{pad}{}: {t},", key(k));
            }
            let _ = write!(o, "{}}}", "    ".repeat(indent));
            o
        }
    }
}

/// Everything one game's definitions file needs.
pub struct Inputs<'a> {
    /// The game's name (its folder).
    pub game: &'a str,
    /// game.yaml.
    pub manifest: &'a RulesetManifest,
    /// The ruleset's files as read (see [`super::source::declared`]).
    pub declared: &'a Declared,
    /// The prelude's ctx.
    pub ctx: &'a CtxApi,
    /// The globals a card sees (see [`super::probe::globals`]).
    pub globals: &'a BTreeMap<String, Kind>,
}

/// The definitions file of a game.
pub fn render(i: &Inputs) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "-- Luau type definitions of what a {game} card script sees, for luau-lsp\n\
         -- (`luau-lsp.types.definitionFiles`; docs/editors.md). Generated by\n\
         -- `cargo run -p riffle -- editor --write` from the kernel (core/src/script/) and\n\
         -- scripts/{game}/ (game.yaml and its Lua files): do not edit by hand.\n\n",
        game = i.game
    );
    card_class(&mut o, i.manifest);
    ctx_class(&mut o, i.ctx, &i.declared.ctx_fields);
    ability_type(&mut o);
    globals(&mut o, i);
    o
}

fn card_class(o: &mut String, m: &RulesetManifest) {
    // A table type, not a class: Luau refuses to compare a class with a value of a type it
    // inferred (`c ~= ctx.source` in a filter), which cards do all the time.
    let _ = writeln!(
        o,
        "--- A card object (a handle: fields read the game live).\nexport type Card = {{"
    );
    for (name, ty, doc) in CARD_FIELDS {
        let _ = writeln!(o, "    --- {doc}\n    {name}: {ty},");
    }
    let fixed: BTreeSet<&str> = CARD_FIELDS.iter().map(|(n, _, _)| *n).collect();
    for c in &m.characteristics {
        if fixed.contains(c.name.as_str()) {
            continue;
        }
        let ty = match c.kind {
            riffle_core::content::CharKind::Int => "number",
            _ => "{string}",
        };
        let _ = writeln!(
            o,
            "    --- Characteristic `{}` (game.yaml), as effects make it now.\n    {}: {ty},",
            c.name,
            key(&c.name)
        );
    }
    for (name, params, ret, doc) in CARD_METHODS {
        let params = if params.is_empty() {
            "self: Card".to_string()
        } else {
            format!("self: Card, {params}")
        };
        let _ = writeln!(o, "    --- {doc}\n    {name}: ({params}) -> {ret},");
    }
    let _ = writeln!(o, "}}\n");
}

fn ctx_class(o: &mut String, ctx: &CtxApi, extra: &BTreeSet<String>) {
    let _ = writeln!(
        o,
        "--- What every procedure, condition and filter receives (core/src/script/prelude.lua).\n\
         declare class Ctx"
    );
    let mut fields: BTreeSet<&str> = BTreeSet::new();
    for (name, ty, doc) in CTX_FIELDS {
        fields.insert(name);
        let _ = writeln!(o, "    --- {doc}\n    {name}: {ty}");
    }
    for name in extra {
        if fields.insert(name) && !ctx.methods.contains_key(name) {
            let _ = writeln!(
                o,
                "    --- Set by the ruleset (`ctx:with({{{name} = ...}})`).\n    {}: any",
                key(name)
            );
        }
    }
    let returns: BTreeMap<&str, &str> = CTX_RETURNS.iter().copied().collect();
    for (name, sig) in &ctx.methods {
        doc_lines(o, "    ", &sig.doc);
        let params: Vec<String> = std::iter::once("self".to_string())
            .chain(sig.params.iter().map(|p| {
                if p == "..." {
                    "...: any".to_string()
                } else {
                    format!("{p}: any")
                }
            }))
            .collect();
        let ret = returns.get(name.as_str()).copied().unwrap_or("any");
        let _ = writeln!(o, "    function {name}({}): {ret}", params.join(", "));
    }
    let _ = writeln!(o, "end\n");
}

fn ability_type(o: &mut String) {
    let _ = writeln!(
        o,
        "--- An ability record, as the constructors take and return it: the functions the\n\
         --- kernel and the ruleset call get a typed `ctx`; the other fields are the game's.\n\
         export type Ability = {{"
    );
    for (name, ty) in ABILITY_CALLBACKS {
        let _ = writeln!(o, "    {name}: ({ty})?,");
    }
    let _ = writeln!(o, "    [string]: any,\n}}\n");
}

fn globals(o: &mut String, i: &Inputs) {
    let kernel: BTreeMap<&str, (&str, &str)> = KERNEL_GLOBALS
        .iter()
        .map(|(n, s, d)| (*n, (*s, *d)))
        .collect();
    for (name, kind) in i.globals {
        if LUAU_STANDARD.contains(&name.as_str()) {
            continue;
        }
        if let Some((sig, doc)) = kernel.get(name.as_str()) {
            let _ = writeln!(o, "--- {doc}\ndeclare function {name}{sig}\n");
            continue;
        }
        match kind {
            Kind::Function => {
                let sig = i.declared.functions.get(name);
                if let Some(sig) = sig {
                    doc_lines(o, "", &sig.doc);
                }
                let text = match sig {
                    Some(sig) => signature(sig, true),
                    None => "(...: any): ...any".into(),
                };
                let _ = writeln!(o, "declare function {name}{text}\n");
            }
            other => {
                if let Some(doc) = i.declared.values.get(name) {
                    doc_lines(o, "", doc);
                }
                let t = value_type(other, name, i.declared, 0);
                let _ = writeln!(o, "declare {name}: {t}\n");
            }
        }
    }
}
