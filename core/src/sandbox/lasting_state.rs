//! Lua holds no game state between calls: a script may not keep a value in a `local` of
//! its top level that its functions reassign. Such a local lives as long as the engine, so
//! a card counting its plays in one would carry the count into every later game in the
//! process. Tables cannot do it (everything a script shares is frozen), but a plain value
//! can, so this check reads the source: an assignment, inside a function, to a local
//! declared outside every function is refused when the script loads.

use full_moon::ast::{self, Parameter, Var};
use full_moon::tokenizer::TokenReference;
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

/// Parses a script for the source checks (this one and `free_names.rs`), once: the
/// parser's first complaint when it cannot (then either Luau cannot either, and reports the
/// syntax error, or the source uses syntax these checks do not know, and must not slip past
/// them).
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

/// Every such assignment in a parsed script.
pub fn lasting_assignments(tree: &ast::Ast) -> Vec<LastingAssignment> {
    let mut walk = Walk::default();
    walk.visit_ast(tree);
    walk.found
}

/// Scopes as the visitor enters and leaves blocks: each with the function depth it belongs
/// to and the locals declared in it so far (with their lines).
#[derive(Default)]
struct Walk {
    depth: u32,
    scopes: Vec<(u32, Vec<(String, u32)>)>,
    /// Names a block about to open declares (parameters, loop variables).
    pending: Vec<(String, u32)>,
    found: Vec<LastingAssignment>,
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

    fn assign(&mut self, var: &Var) {
        let Var::Name(t) = var else { return };
        let (n, line) = name(t);
        let declared = self.scopes.iter().rev().find_map(|(depth, names)| {
            names
                .iter()
                .rev()
                .find(|(m, _)| *m == n)
                .map(|(_, l)| (*depth, *l))
        });
        if let Some((0, declared)) = declared
            && self.depth > 0
        {
            self.found.push(LastingAssignment {
                name: n,
                declared,
                line,
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
        }
    }

    fn visit_compound_assignment(&mut self, a: &ast::CompoundAssignment) {
        self.assign(a.lhs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<(String, u32)> {
        lasting_assignments(&parse(src).unwrap())
            .into_iter()
            .map(|a| (a.name, a.line))
            .collect()
    }

    #[test]
    fn a_top_level_local_reassigned_in_a_function_is_found() {
        let src = "local plays = 0\nreturn { function()\n  plays = plays + 1\nend, function() plays += 1 end }\n";
        assert_eq!(names(src), [("plays".into(), 3), ("plays".into(), 4)]);
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
        assert_eq!(names(src), Vec::<(String, u32)>::new());
    }

    #[test]
    fn a_local_of_an_enclosing_function_may_be_assigned_by_a_nested_one() {
        let src = "return { function()\n  local n = 0\n  local f = function() n = n + 1 end\nend }";
        assert_eq!(names(src), Vec::<(String, u32)>::new());
    }
}
