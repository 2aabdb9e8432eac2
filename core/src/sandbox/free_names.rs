//! The globals a script reads: every name it uses that no `local`, parameter or loop
//! variable in scope declares. Reading a global nobody defined fails only when the line runs,
//! so a misspelt name inside a function body would wait for the one game that reaches it;
//! read from the source, it is an error when the script loads (`engine.rs` checks each name
//! against what the globals, the set's shared Lua and the script itself define).
//!
//! The scopes are Lua's, with one simplification that can only miss a name, never report a
//! defined one: a `local` counts as declared from its own statement on, so in
//! `local f = function() return f end` the inner `f` is taken for the local.

use full_moon::ast::{self, Parameter, Prefix, Var};
use full_moon::tokenizer::TokenReference;
use full_moon::visitors::Visitor;

/// A global read: its name and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalRead {
    pub name: String,
    pub line: u32,
    pub col: u32,
}

/// Every global a parsed script reads (`lasting_state::parse`), in source order.
pub fn global_reads(tree: &ast::Ast) -> Vec<GlobalRead> {
    let mut walk = Walk::default();
    walk.visit_ast(tree);
    walk.reads
}

#[derive(Default)]
struct Walk {
    /// The locals of each open block.
    scopes: Vec<Vec<String>>,
    /// Names the block about to open declares (parameters, loop variables).
    pending: Vec<String>,
    /// `scopes.len()` of each open `repeat` body: its locals stay visible in `until`.
    repeats: Vec<usize>,
    /// Positions of names being assigned (`x = 1` defines a global, it does not read one).
    assigned: Vec<(usize, usize)>,
    reads: Vec<GlobalRead>,
}

fn text(t: &TokenReference) -> String {
    t.token().to_string()
}

impl Walk {
    fn declare(&mut self, name: String) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(name);
        }
    }

    fn read(&mut self, t: &TokenReference) {
        let name = text(t);
        let pos = t.start_position();
        if self.assigned.contains(&(pos.line(), pos.character())) {
            return;
        }
        if self.scopes.iter().any(|s| s.contains(&name)) {
            return;
        }
        self.reads.push(GlobalRead {
            name,
            line: pos.line() as u32,
            col: pos.character() as u32,
        });
    }
}

impl Visitor for Walk {
    fn visit_block(&mut self, _: &ast::Block) {
        let names = std::mem::take(&mut self.pending);
        self.scopes.push(names);
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
        self.pending = body
            .parameters()
            .iter()
            .filter_map(|p| match p {
                Parameter::Name(t) => Some(text(t)),
                _ => None,
            })
            .collect();
    }

    fn visit_numeric_for(&mut self, f: &ast::NumericFor) {
        self.pending = vec![text(f.index_variable())];
    }

    fn visit_generic_for(&mut self, f: &ast::GenericFor) {
        self.pending = f.names().iter().map(text).collect();
    }

    fn visit_local_assignment(&mut self, l: &ast::LocalAssignment) {
        for t in l.names() {
            self.declare(text(t));
        }
    }

    fn visit_local_function(&mut self, l: &ast::LocalFunction) {
        self.declare(text(l.name()));
    }

    fn visit_assignment(&mut self, a: &ast::Assignment) {
        for v in a.variables() {
            if let Var::Name(t) = v {
                let pos = t.start_position();
                self.assigned.push((pos.line(), pos.character()));
            }
        }
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

    fn visit_prefix(&mut self, p: &Prefix) {
        if let Prefix::Name(t) = p {
            self.read(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::lasting_state::parse;

    fn reads(src: &str) -> Vec<(String, u32)> {
        global_reads(&parse(src).unwrap())
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
        let r = &global_reads(&parse(src).unwrap())[2];
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
    fn fields_and_method_names_are_not_names() {
        assert_eq!(
            names("local x = F.type('a'):lower()\nlocal y = x.draw"),
            ["F"]
        );
    }
}
