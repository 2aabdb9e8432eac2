//! Rule processing: checks repeated until nothing is left to do.

use super::*;

impl Game {
    /// Whether check `c` has something to do now: its Lua test, or the kernel's own tests
    /// of players and cards.
    ///
    /// `ctx` is the ctx the tests of one pass share (made by the first Lua test): nothing
    /// changes between them.
    fn check_due(
        &self,
        db: &crate::db::Db,
        c: &crate::db::CheckFns,
        ctx: &mut Option<Value>,
    ) -> R<bool> {
        let st = self.state.clone();
        c.when.holds(
            &st.borrow(),
            |f| {
                let ctx = match ctx {
                    Some(ctx) => ctx.clone(),
                    None => ctx.insert(self.ctx(None, None, None)?).clone(),
                };
                self.engine.run(|| f.call::<bool>(ctx))
            },
            |id, ci| characteristics::int_value(&self.engine.lua, db, &st.borrow(), id, ci),
        )
    }

    pub(super) fn any_check_due(&mut self, each_op: bool) -> R<bool> {
        let db = self.engine.db.clone();
        let mut ctx = None;
        for c in &db.hooks.checks {
            if each_op && !c.each_op {
                continue;
            }
            if self.check_due(&db, c, &mut ctx)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    pub(super) fn step_checks(&mut self, c: &mut ChecksFrame, input: Input) -> R<Next> {
        if let Input::Value(_) = input {
            self.in_checks -= 1;
        }
        let db = self.engine.db.clone();
        let checks = &db.hooks.checks;
        while c.next < checks.len() {
            let check = &checks[c.next];
            c.next += 1;
            if c.each_op && !check.each_op {
                continue;
            }
            if self.check_due(&db, check, &mut None)? {
                let ctx = self.ctx(None, None, None)?;
                c.changed = true;
                self.in_checks += 1;
                return Ok(Next::Push(self.lua_frame(
                    &check.run,
                    vec![ctx],
                    format!("check {}", check.name),
                )?));
            }
        }
        if c.changed && c.rounds < 100 {
            c.changed = false;
            c.next = 0;
            c.rounds += 1;
            return Ok(Next::Again);
        }
        Ok(Next::Return(Value::Nil))
    }
}
