//! What a script's source says before it runs, read with a Luau parser in one walk of its
//! scopes (Lua's: blocks, function parameters, loop variables, `repeat ... until`).
//!
//! - **State kept between calls.** A script may not keep a value in a `local` of its top
//!   level that its functions reassign. Such a local lives as long as the engine, so a card
//!   counting its plays in one would carry the count into every later game in the process.
//!   Tables cannot do it (everything a script shares is frozen), but a plain value can, so an
//!   assignment, inside a function, to a local declared outside every function is refused
//!   when the script loads.
//! - **Globals read.** Every name used that no `local`, parameter or loop variable in scope
//!   declares. Reading a global nobody defined fails only when the line runs, so a misspelt
//!   name inside a function body would wait for the one game that reaches it; `engine.rs`
//!   checks each one at load against what the globals, the set's shared Lua and the script
//!   define. One simplification can only miss a name, never report a defined one: a `local`
//!   counts as declared from its own statement on (`local f = function() return f end`).

use full_moon::ast::{self, Parameter, Prefix, Var};
use full_moon::tokenizer::{TokenReference, TokenType};
use full_moon::visitors::Visitor;

/// A top-level local that a function reassigns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastingAssignment {
    /// The local's name.
    pub name: String,
    /// The line it is declared on.
    pub declared: u32,
    /// The line of the assignment.
    pub line: u32,
}

impl std::fmt::Display for LastingAssignment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` (the local of line {}) is assigned inside a function: its value would last \
             from one call to the next, and into the next game. Keep state in the game \
             (ctx:set_value, a counter) or declare the local inside the function",
            self.name, self.declared
        )
    }
}

/// A global read: its name and where (1-based line and column). A field read through a
/// global (`Cost.rest`) is the name `Cost.rest`, at the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalRead {
    pub name: String,
    pub line: u32,
    pub col: u32,
}

/// A string literal given to a call (`grant(ctx, c, "rush")`, `F.keyword "blocker"`): its
/// text and where its opening quote is (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringArg {
    pub text: String,
    pub line: u32,
    pub col: u32,
}

/// What the walk finds.
#[derive(Default)]
pub struct SourceFacts {
    /// Top-level locals a function reassigns (refused).
    pub lasting: Vec<LastingAssignment>,
    /// Globals read, in source order.
    pub reads: Vec<GlobalRead>,
    /// String literals given to calls, in source order.
    pub strings: Vec<StringArg>,
}

/// Parses a script: the parser's first complaint when it cannot (then either Luau cannot
/// either, and reports the syntax error, or the source uses syntax these checks do not know,
/// and must not slip past them).
pub fn parse(source: &str) -> Result<ast::Ast, String> {
    full_moon::parse_fallible(source, full_moon::LuaVersion::luau())
        .into_result()
        .map_err(|errors| {
            errors
                .first()
                .map(|e| e.to_string())
                .unwrap_or_else(|| "unreadable".into())
        })
}

/// Walks a parsed script once for both checks.
pub fn read_source(tree: &ast::Ast) -> SourceFacts {
    let mut walk = Walk::default();
    walk.visit_ast(tree);
    walk.facts
}

/// One open block: the function depth it belongs to and its locals (with their lines).
type Scope = (u32, Vec<(String, u32)>);

#[derive(Default)]
struct Walk {
    depth: u32,
    scopes: Vec<Scope>,
    /// Names the block about to open declares (parameters, loop variables).
    pending: Vec<(String, u32)>,
    /// `scopes.len()` of each open `repeat` body: its locals stay visible in `until`.
    repeats: Vec<usize>,
    /// Positions of names being assigned (`x = 1` defines a global, it does not read one).
    assigned: Vec<(usize, usize)>,
    facts: SourceFacts,
}

fn name(t: &TokenReference) -> (String, u32) {
    (t.token().to_string(), t.start_position().line() as u32)
}

impl Walk {
    fn declare(&mut self, n: (String, u32)) {
        if let Some(s) = self.scopes.last_mut() {
            s.1.push(n);
        }
    }

    /// The depth and line of the innermost local `n` in scope.
    fn local(&self, n: &str) -> Option<(u32, u32)> {
        self.scopes.iter().rev().find_map(|(depth, names)| {
            names
                .iter()
                .rev()
                .find(|(m, _)| m == n)
                .map(|(_, l)| (*depth, *l))
        })
    }

    fn assign(&mut self, var: &Var) {
        let Var::Name(t) = var else { return };
        let (n, line) = name(t);
        if let Some((0, declared)) = self.local(&n)
            && self.depth > 0
        {
            self.facts.lasting.push(LastingAssignment {
                name: n,
                declared,
                line,
            });
        }
    }

    /// `Global.field...`: the first field read through a global (not a local) name.
    fn field_read<'a>(
        &mut self,
        prefix: &Prefix,
        mut suffixes: impl Iterator<Item = &'a ast::Suffix>,
    ) {
        let Prefix::Name(t) = prefix else { return };
        let (n, _) = name(t);
        if self.local(&n).is_some() {
            return;
        }
        if let Some(ast::Suffix::Index(ast::Index::Dot { name: field, .. })) = suffixes.next() {
            let pos = field.start_position();
            self.facts.reads.push(GlobalRead {
                name: format!("{n}.{}", field.token()),
                line: pos.line() as u32,
                col: pos.character() as u32,
            });
        }
    }

    fn string_arg(&mut self, t: &TokenReference) {
        if let TokenType::StringLiteral { literal, .. } = t.token().token_type() {
            let pos = t.start_position();
            self.facts.strings.push(StringArg {
                text: literal.to_string(),
                line: pos.line() as u32,
                col: pos.character() as u32,
            });
        }
    }

    fn read(&mut self, t: &TokenReference) {
        let pos = t.start_position();
        if self.assigned.contains(&(pos.line(), pos.character())) {
            return;
        }
        let (n, line) = name(t);
        if self.local(&n).is_none() {
            self.facts.reads.push(GlobalRead {
                name: n,
                line,
                col: pos.character() as u32,
            });
        }
    }
}

impl Visitor for Walk {
    fn visit_block(&mut self, _: &ast::Block) {
        let names = std::mem::take(&mut self.pending);
        self.scopes.push((self.depth, names));
    }

    fn visit_block_end(&mut self, _: &ast::Block) {
        // A repeat body's scope closes after its `until` condition (visit_repeat_end).
        if self.repeats.last() != Some(&self.scopes.len()) {
            self.scopes.pop();
        }
    }

    fn visit_repeat(&mut self, _: &ast::Repeat) {
        self.repeats.push(self.scopes.len() + 1);
    }

    fn visit_repeat_end(&mut self, _: &ast::Repeat) {
        self.repeats.pop();
        self.scopes.pop();
    }

    fn visit_function_body(&mut self, body: &ast::FunctionBody) {
        self.depth += 1;
        self.pending = body
            .parameters()
            .iter()
            .filter_map(|p| match p {
                Parameter::Name(t) => Some(name(t)),
                _ => None,
            })
            .collect();
    }

    fn visit_function_body_end(&mut self, _: &ast::FunctionBody) {
        self.depth -= 1;
    }

    fn visit_numeric_for(&mut self, f: &ast::NumericFor) {
        self.pending = vec![name(f.index_variable())];
    }

    fn visit_generic_for(&mut self, f: &ast::GenericFor) {
        self.pending = f.names().iter().map(name).collect();
    }

    fn visit_local_assignment(&mut self, l: &ast::LocalAssignment) {
        for t in l.names() {
            self.declare(name(t));
        }
    }

    fn visit_local_function(&mut self, l: &ast::LocalFunction) {
        self.declare(name(l.name()));
    }

    fn visit_assignment(&mut self, a: &ast::Assignment) {
        for v in a.variables() {
            self.assign(v);
            if let Var::Name(t) = v {
                let pos = t.start_position();
                self.assigned.push((pos.line(), pos.character()));
            }
        }
    }

    fn visit_compound_assignment(&mut self, a: &ast::CompoundAssignment) {
        self.assign(a.lhs());
    }

    fn visit_function_declaration(&mut self, f: &ast::FunctionDeclaration) {
        // `function M.f()` reads M; `function f()` defines the global f.
        let mut names = f.name().names().iter();
        if let Some(first) = names.next()
            && (names.next().is_some() || f.name().method_name().is_some())
        {
            self.read(first);
        }
    }

    fn visit_var(&mut self, v: &Var) {
        if let Var::Name(t) = v {
            self.read(t);
        }
    }

    fn visit_var_expression(&mut self, v: &ast::VarExpression) {
        self.field_read(v.prefix(), v.suffixes());
    }

    fn visit_function_call(&mut self, c: &ast::FunctionCall) {
        self.field_read(c.prefix(), c.suffixes());
    }

    fn visit_function_args(&mut self, a: &ast::FunctionArgs) {
        match a {
            ast::FunctionArgs::Parentheses { arguments, .. } => {
                for e in arguments.iter() {
                    if let ast::Expression::String(t) = e {
                        self.string_arg(t);
                    }
                }
            }
            ast::FunctionArgs::String(t) => self.string_arg(t),
            _ => {}
        }
    }

    fn visit_prefix(&mut self, p: &Prefix) {
        if let Prefix::Name(t) = p {
            self.read(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lasting(src: &str) -> Vec<(String, u32)> {
        read_source(&parse(src).unwrap())
            .lasting
            .into_iter()
            .map(|a| (a.name, a.line))
            .collect()
    }

    #[test]
    fn a_top_level_local_reassigned_in_a_function_is_found() {
        let src = "local plays = 0\nreturn { function()\n  plays = plays + 1\nend, function() plays += 1 end }\n";
        assert_eq!(lasting(src), [("plays".into(), 3), ("plays".into(), 4)]);
    }

    #[test]
    fn locals_of_the_function_itself_parameters_and_globals_are_fine() {
        let src = r#"
local limit = 3
local function helper(n) n = n + 1 return n end
count = 0
return { function(ctx, plays)
  plays = 1
  local limit = 5
  limit = limit + 1
  for i = 1, 3 do i = i + 1 end
  local function inner() local x = 1 x = 2 end
  count = 2
end }
"#;
        assert_eq!(lasting(src), Vec::<(String, u32)>::new());
    }

    #[test]
    fn a_local_of_an_enclosing_function_may_be_assigned_by_a_nested_one() {
        let src = "return { function()\n  local n = 0\n  local f = function() n = n + 1 end\nend }";
        assert_eq!(lasting(src), Vec::<(String, u32)>::new());
    }

    fn reads(src: &str) -> Vec<(String, u32)> {
        read_source(&parse(src).unwrap())
            .reads
            .into_iter()
            .map(|r| (r.name, r.line))
            .collect()
    }

    fn names(src: &str) -> Vec<String> {
        reads(src).into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn a_misspelt_name_inside_a_function_body_is_a_global_read() {
        let src =
            "return card {\n  on_play { operate = function(ctx)\n    drow(ctx, 1)\n  end },\n}\n";
        assert_eq!(
            reads(src),
            [
                ("card".into(), 1),
                ("on_play".into(), 2),
                ("drow".into(), 3)
            ]
        );
        let r = &read_source(&parse(src).unwrap()).reads[2];
        assert_eq!((r.line, r.col), (3, 5));
    }

    #[test]
    fn locals_parameters_and_loop_variables_are_not_globals() {
        let src = r#"
local limit = 3
local function helper(n) return helper(n - 1) + limit end
return { function(ctx, cards)
  for i = 1, #cards do local c = cards[i] end
  for _, c in ipairs(cards) do c.x = ctx end
  local t = { a = 1 }
  t.b = 2
  repeat local done = true until done
  return if limit > 1 then `{limit}` else nil
end }
"#;
        assert_eq!(names(src), ["ipairs"]);
    }

    #[test]
    fn a_local_is_out_of_scope_after_its_block() {
        let src = "do local x = 1 end\nlocal y = x\nfunction f(a) end\nprint(a)";
        assert_eq!(
            reads(src),
            [("x".into(), 2), ("print".into(), 4), ("a".into(), 4)]
        );
    }

    #[test]
    fn assigning_or_declaring_a_global_is_not_reading_it() {
        let src =
            "count = 1\nfunction helper() end\nfunction M.f() end\nfunction N:g() end\ncount += 1";
        assert_eq!(
            reads(src),
            [("M".into(), 3), ("N".into(), 4), ("count".into(), 5)]
        );
    }

    #[test]
    fn string_literals_given_to_calls_are_found_with_their_positions() {
        let src = "local k = 'not an argument'\nreturn { function(ctx)\n  grant(ctx, c, \"rsuh\", 'turn')\n  F.keyword 'blokcer'\nend }";
        let strings: Vec<(String, u32, u32)> = read_source(&parse(src).unwrap())
            .strings
            .into_iter()
            .map(|s| (s.text, s.line, s.col))
            .collect();
        assert_eq!(
            strings,
            [
                ("rsuh".into(), 3, 17),
                ("turn".into(), 3, 25),
                ("blokcer".into(), 4, 13)
            ]
        );
    }

    #[test]
    fn fields_and_method_names_are_not_names() {
        // The first field read through a global is read as `Global.field` (checked against
        // the shared table); a local's fields, methods and later fields are not.
        assert_eq!(
            names("local x = F.type('a'):lower()\nlocal y = x.draw\nlocal z = G.a.b"),
            ["F.type", "F", "G.a", "G"]
        );
    }
}
