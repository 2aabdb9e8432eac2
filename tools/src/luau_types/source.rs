//! What the Lua sources say that the running kernel cannot: each function's parameter
//! names and the `---` doc comment above it, read with the Luau parser the kernel uses for
//! its own source checks. The prelude gives `ctx`'s methods and read-only fields; a
//! ruleset's files give its globals' signatures and the fields it adds to a `ctx`
//! (`ctx:with({battle = b})`, `ctx.left = c`).

use std::collections::{BTreeMap, BTreeSet};

use full_moon::ast::{self, Expression, Field, FunctionArgs, Parameter, Prefix, Stmt, Suffix, Var};
use full_moon::tokenizer::{TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};

/// A function as its source declares it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    /// Parameter names, in order (`...` for a vararg).
    pub params: Vec<String>,
    /// The `---` comment lines right above it, without the dashes.
    pub doc: Vec<String>,
}

/// What a set of files declares at their top level.
#[derive(Debug, Default)]
pub struct Declared {
    /// `function name(...)` / `name = function(...)`, by name.
    pub functions: BTreeMap<String, Signature>,
    /// `function T.f(...)` / `T.f = function(...)`, by `T.f`.
    pub fields: BTreeMap<String, Signature>,
    /// The doc comment above `name = ...` (a table or a value), by name.
    pub values: BTreeMap<String, Vec<String>>,
    /// Fields that code adds to a ctx: keys of `x:with({...})` and `ctx.k = ...`.
    pub ctx_fields: BTreeSet<String>,
}

/// The prelude's `ctx`: its methods (`function Ctx:m(...)`), its read-only fields
/// (`Getters.f = ...`) and the fields every ctx is made with (`make_ctx`).
#[derive(Debug, Default)]
pub struct CtxApi {
    /// Methods by name (parameters without `self`).
    pub methods: BTreeMap<String, Signature>,
    /// Read-only fields computed from the game.
    pub getters: BTreeSet<String>,
    /// Fields of the table `make_ctx` returns.
    pub fields: BTreeSet<String>,
}

fn parse(name: &str, text: &str) -> Result<ast::Ast, String> {
    full_moon::parse_fallible(text, full_moon::LuaVersion::luau())
        .into_result()
        .map_err(|errors| {
            let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
            format!("{name}: cannot read it as Luau: {first}")
        })
}

/// The `---` lines right above a token (a blank line or another comment breaks the run).
fn doc_above(t: &TokenReference) -> Vec<String> {
    let mut lines = Vec::new();
    for trivia in t.leading_trivia() {
        match trivia.token_type() {
            TokenType::SingleLineComment { comment } => match comment.strip_prefix('-') {
                Some(doc) => lines.push(doc.strip_prefix(' ').unwrap_or(doc).trim_end().into()),
                None => lines.clear(),
            },
            TokenType::Whitespace { characters } => {
                if characters.matches('\n').count() > 1 {
                    lines.clear();
                }
            }
            _ => lines.clear(),
        }
    }
    lines
}

fn params(body: &ast::FunctionBody) -> Vec<String> {
    body.parameters()
        .iter()
        .map(|p| match p {
            Parameter::Name(t) => t.token().to_string(),
            _ => "...".into(),
        })
        .collect()
}

fn text(t: &TokenReference) -> String {
    t.token().to_string()
}

/// `a` or `a.b` (a name, or one field of a name), as a path.
fn var_path(v: &Var) -> Option<String> {
    match v {
        Var::Name(t) => Some(text(t)),
        Var::Expression(e) => {
            let Prefix::Name(base) = e.prefix() else {
                return None;
            };
            let mut suffixes = e.suffixes();
            let Some(Suffix::Index(ast::Index::Dot { name, .. })) = suffixes.next() else {
                return None;
            };
            suffixes
                .next()
                .is_none()
                .then(|| format!("{}.{}", text(base), text(name)))
        }
        _ => None,
    }
}

/// The first token of a statement, where its doc comment hangs.
fn first_token(v: &Var) -> Option<&TokenReference> {
    match v {
        Var::Name(t) => Some(t),
        Var::Expression(e) => match e.prefix() {
            Prefix::Name(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Reads the top-level declarations of `files` (name, text), in order: a later file's
/// declaration of a name replaces an earlier one, as at run time.
pub fn declared(files: &[(&str, &str)]) -> Result<Declared, String> {
    let mut out = Declared::default();
    for (name, text) in files {
        let tree = parse(name, text)?;
        for stmt in tree.nodes().stmts() {
            match stmt {
                Stmt::FunctionDeclaration(f) => {
                    let sig = Signature {
                        params: params(f.body()),
                        doc: doc_above(f.function_token()),
                    };
                    let names: Vec<String> = f.name().names().iter().map(text_of).collect();
                    match (names.as_slice(), f.name().method_name()) {
                        ([one], None) => {
                            out.functions.insert(one.clone(), sig);
                        }
                        ([table, field], None) => {
                            out.fields.insert(format!("{table}.{field}"), sig);
                        }
                        _ => {}
                    }
                }
                Stmt::Assignment(a) => {
                    let vars: Vec<&Var> = a.variables().iter().collect();
                    let exprs: Vec<&Expression> = a.expressions().iter().collect();
                    for (i, v) in vars.iter().enumerate() {
                        let Some(path) = var_path(v) else { continue };
                        let doc = if i == 0 {
                            first_token(v).map(doc_above).unwrap_or_default()
                        } else {
                            Vec::new()
                        };
                        match exprs.get(i) {
                            Some(Expression::Function(f)) => {
                                let sig = Signature {
                                    params: params(f.body()),
                                    doc,
                                };
                                if path.contains('.') {
                                    out.fields.insert(path, sig);
                                } else {
                                    out.functions.insert(path, sig);
                                }
                            }
                            _ if !path.contains('.') => {
                                out.functions.remove(&path);
                                out.values.insert(path, doc);
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        let mut walk = CtxFields::default();
        walk.visit_ast(&tree);
        out.ctx_fields.extend(walk.fields);
    }
    Ok(out)
}

fn text_of(t: &TokenReference) -> String {
    text(t)
}

/// Fields code puts on a ctx: `x:with({ k = ... })` and `ctx.k = ...`.
#[derive(Default)]
struct CtxFields {
    fields: BTreeSet<String>,
}

impl Visitor for CtxFields {
    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        for s in call.suffixes() {
            let Suffix::Call(ast::Call::MethodCall(m)) = s else {
                continue;
            };
            if text(m.name()) != "with" {
                continue;
            }
            let table = match m.args() {
                FunctionArgs::TableConstructor(t) => Some(t),
                FunctionArgs::Parentheses { arguments, .. } => match arguments.iter().next() {
                    Some(Expression::TableConstructor(t)) => Some(t),
                    _ => None,
                },
                _ => None,
            };
            for field in table.into_iter().flat_map(|t| t.fields().iter()) {
                if let Field::NameKey { key, .. } = field {
                    self.fields.insert(text(key));
                }
            }
        }
    }

    fn visit_assignment(&mut self, a: &ast::Assignment) {
        for v in a.variables() {
            if let Some((base, field)) = var_path(v).as_deref().and_then(|p| p.split_once('.'))
                && base == "ctx"
            {
                self.fields.insert(field.to_string());
            }
        }
    }
}

/// The prelude's `ctx` API (`core/src/script/prelude.lua`).
pub fn ctx_api(prelude: &str) -> Result<CtxApi, String> {
    let tree = parse("prelude.lua", prelude)?;
    let mut out = CtxApi::default();
    for stmt in tree.nodes().stmts() {
        match stmt {
            Stmt::FunctionDeclaration(f) => {
                let names: Vec<String> = f.name().names().iter().map(text_of).collect();
                if let ([ctx], Some(m)) = (names.as_slice(), f.name().method_name())
                    && ctx == "Ctx"
                {
                    out.methods.insert(
                        text(m),
                        Signature {
                            params: params(f.body()),
                            doc: doc_above(f.function_token()),
                        },
                    );
                }
            }
            Stmt::Assignment(a) => {
                for v in a.variables() {
                    if let Some(("Getters", g)) =
                        var_path(v).as_deref().and_then(|p| p.split_once('.'))
                    {
                        out.getters.insert(g.to_string());
                    }
                }
            }
            Stmt::LocalFunction(f) if text(f.name()) == "make_ctx" => {
                let mut walk = ReturnedFields::default();
                f.body().visit(&mut walk);
                out.fields = walk.fields;
            }
            _ => {}
        }
    }
    if out.methods.is_empty() {
        return Err("prelude.lua: no `function Ctx:...` found".into());
    }
    if out.fields.is_empty() {
        return Err("prelude.lua: `make_ctx` and the fields it gives a ctx not found".into());
    }
    Ok(out)
}

/// The keys of the table constructors inside `make_ctx` (its ctx's fields).
#[derive(Default)]
struct ReturnedFields {
    fields: BTreeSet<String>,
}

impl Visitor for ReturnedFields {
    fn visit_table_constructor(&mut self, t: &ast::TableConstructor) {
        for field in t.fields() {
            if let Field::NameKey { key, .. } = field {
                self.fields.insert(text(key));
            }
        }
    }
}
