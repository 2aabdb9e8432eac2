//! Rule processing: checks repeated until nothing is left to do.

use super::*;

impl Game {
    /// Whether check `c` has something to do now: its Lua test, or the kernel's own tests
    /// of players and cards.
    ///
    /// `ctx` is the ctx the tests of one pass share (made by the first Lua test): nothing
    /// changes between them.
    ///
    /// A check that declared what it reads (`reads`) is tested only if one of those changed
    /// since its test last found nothing to do (`State::checks_stale`).
    fn check_due(
        &self,
        db: &crate::db::Db,
        i: usize,
        c: &crate::db::CheckFns,
        ctx: &mut Option<Value>,
    ) -> R<bool> {
        let bit = if i < 64 { 1u64 << i } else { 0 };
        let declared = db.hooks.check_marks.declared & bit != 0;
        if declared && self.state.borrow().checks_stale & bit == 0 {
            // A debug build makes sure: a declaration that misses something shows at once.
            if cfg!(debug_assertions) && self.test_check(db, c, ctx)? {
                return Err(mlua::Error::runtime(format!(
                    "check '{}' was not tested again, as nothing its `reads` names changed, \
                     but its test holds: it reads something its `reads` does not name",
                    c.name
                )));
            }
            return Ok(false);
        }
        let due = self.test_check(db, c, ctx)?;
        if declared && !due {
            self.state.borrow_mut().checks_stale &= !bit;
        }
        Ok(due)
    }

    /// Check `c`'s test itself.
    fn test_check(
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
        for (i, c) in db.hooks.checks.iter().enumerate() {
            if each_op && !c.each_op {
                continue;
            }
            if self.check_due(&db, i, c, &mut ctx)? {
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
            let i = c.next;
            let check = &checks[i];
            c.next += 1;
            if c.each_op && !check.each_op {
                continue;
            }
            if self.check_due(&db, i, check, &mut None)? {
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
