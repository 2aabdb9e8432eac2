//! Operations: one yielded operation, card by card, through replacement effects.

use super::*;
use crate::characteristics::Indexed;

impl Game {
    pub(super) fn step_ops(&mut self, o: &mut OpsFrame, input: Input) -> R<Next> {
        let lua = self.engine.lua.clone();
        let db = self.engine.db.clone();
        if o.replacing {
            o.replacing = false;
            match input {
                Input::Value(Value::Table(t)) => {
                    let new_ops = {
                        let st = self.state.borrow();
                        operations::parse(&lua, &db, &st, &t)?
                    };
                    // The acting card stays the operation's unless the replacement changed it.
                    let source = operations::source_of(&t)?;
                    let n = new_ops.len();
                    o.ops.splice(o.next..o.next + 1, new_ops);
                    o.sources
                        .splice(o.next..o.next + 1, std::iter::repeat_n(source, n));
                }
                _ => {
                    // Replaced by something else entirely.
                    o.results.push(Outcome::Nothing);
                    o.next += 1;
                    o.used.clear();
                }
            }
            return Ok(Next::Again);
        }
        if let Some(cands) = o.asking.take() {
            let Input::Answer(Response::Choose { indices }) = input else {
                // The player asked left the game: the candidates are found again.
                return Ok(Next::Again);
            };
            let i = indices[0] as usize;
            if i >= cands.len() {
                // Declined: every optional candidate of this player is spent for this step.
                for (r, s, _) in cands {
                    o.used.push((r, s));
                }
                return Ok(Next::Again);
            }
            let (r, s, p) = cands[i];
            return self.run_replacement(o, r, s, p);
        }
        if o.next >= o.ops.len() {
            let batch = std::mem::take(&mut o.batch);
            self.push_batch(batch);
            return Ok(Next::Return(outcomes_to_lua(
                &lua, &o.results, o.list, o.each,
            )?));
        }
        // Borrowed, not copied: the frame keeps it until the step is done (a replacement
        // splices over it).
        let op = &o.ops[o.next];
        // Replacement effects (8-1-3-4 style): candidates that apply and were not used yet.
        if !db.replacements.is_empty() {
            let cands = self.replacement_candidates(o, op)?;
            if !cands.is_empty() {
                // Cards' replacements come before the rules' own (a rule replacement, such as
                // a game's "instead of taking it, you may ...", sees the operation as the
                // cards' effects left it), so only when no card's applies is a rule's offered.
                let cands: Vec<_> = if cands.iter().any(|c| c.1.is_some()) {
                    cands.into_iter().filter(|c| c.1.is_some()).collect()
                } else {
                    cands
                };
                let (p, mine) = self.replacements_offered(op, cands);
                let lua = &self.engine.lua;
                let mut optional = Vec::with_capacity(mine.len());
                for (r, _, _) in &mine {
                    optional.push(db.ability(lua, *r)?.optional);
                }
                let any_optional = optional.iter().any(|o| *o);
                if mine.len() == 1 && !any_optional {
                    let (r, s, p) = mine[0];
                    return self.run_replacement(o, r, s, p);
                }
                let st = self.state.borrow();
                let mut options: Vec<Choice> = mine
                    .iter()
                    .map(|(r, s, _)| Choice {
                        label: match s {
                            Some(s) => {
                                format!("apply {}", db.cards[st.obj(*s).definition as usize].def.id)
                            }
                            None => format!("apply rule {}", r.1 + 1),
                        },
                        kind: Some("replacement".into()),
                        card: *s,
                        target: None,
                        data: vec![],
                    })
                    .collect();
                if optional.iter().all(|o| *o) {
                    options.push(Choice {
                        label: "decline".into(),
                        kind: Some("decline".into()),
                        card: None,
                        target: None,
                        data: vec![],
                    });
                }
                drop(st);
                o.asking = Some(mine);
                return Ok(Next::Ask(Request::Choose {
                    player: p,
                    prompt: "replacement".into(),
                    options,
                    min: 1,
                    max: 1,
                }));
            }
        }
        if let Op::Group(open) = *op {
            // The coroutine that asked (the frame below) owns the group, so that its failure
            // can close it.
            if let Some(Frame::Lua(owner)) = self.frames.last_mut() {
                if open {
                    owner.groups += 1;
                    owner.together += 1;
                } else {
                    owner.groups = owner.groups.saturating_sub(1);
                    owner.together = owner.together.saturating_sub(1);
                }
            }
            o.results.push(Outcome::Done);
            o.next += 1;
            if open {
                self.group_depth += 1;
                self.together_depth += 1;
                return Ok(Next::Again);
            }
            if self.group_depth > 0 {
                self.group_depth -= 1;
                if self.group_depth == 0 {
                    let batch = std::mem::take(&mut self.group_batch);
                    self.push_batch(batch);
                }
            }
            self.together_depth = self.together_depth.saturating_sub(1);
            // The group is one simultaneous step: its rule processing runs now, once
            // ("each player draws 1": both players' empty decks are seen together).
            return self.checks_after_step();
        }
        // Apply.
        let lk = self.last_known_for(op)?;
        let source = o.source();
        let (outcome, mut events) = {
            let mut st = self.state.borrow_mut();
            let applied = operations::apply(&db, &mut st, op, lk);
            // The turn side left the game: the turn ends at once.
            if matches!(op, Op::Eliminate { .. }) && st.phase.is_some() && st.turn_side().is_empty()
            {
                self.end_turn = true;
            }
            applied
        };
        if source.is_some() {
            for e in events.iter_mut().filter(|e| e.source.is_none()) {
                e.source = source;
            }
        }
        // Rule processing looks again only if the operation changed what a check can read:
        // an event, a random number, or an operation that did nothing changes no state.
        let unchanged = matches!(outcome, Outcome::Nothing)
            || matches!(op, Op::Emit(_) | Op::Random(_))
            || matches!(op, Op::Value { .. }) && events.is_empty();
        self.unchecked |= !unchanged;
        let found = self.record(events)?;
        o.batch.extend(found);
        o.results.push(outcome);
        o.next += 1;
        o.used.clear();
        // A simultaneous step's checks wait for its last card, and a `ctx:together` group's
        // for the group's end.
        if o.each && o.next < o.ops.len() {
            return Ok(Next::Again);
        }
        self.checks_after_step()
    }

    /// The after-each-operation checks, when a step is done: unless a `ctx:together` group
    /// is open or rule processing is already running, and only if the game changed since
    /// they last looked.
    fn checks_after_step(&mut self) -> R<Next> {
        if self.in_checks == 0
            && self.together_depth == 0
            && std::mem::take(&mut self.unchecked)
            && self.any_check_due(true)?
        {
            return Ok(Next::Push(Frame::Checks(ChecksFrame {
                each_op: true,
                next: 0,
                changed: false,
                rounds: 0,
            })));
        }
        Ok(Next::Again)
    }

    pub(super) fn run_replacement(
        &mut self,
        o: &mut OpsFrame,
        r: AbilityRef,
        s: Option<ObjId>,
        p: PlayerId,
    ) -> R<Next> {
        let db = self.engine.db.clone();
        o.used.push((r, s));
        o.replacing = true;
        {
            let mut st = self.state.borrow_mut();
            st.replacements_applied += 1;
            // A replacement armed once ("the next time ...") is spent.
            if let Some(i) = st.grants.iter().position(|g| {
                g.once
                    && g.ability == r
                    && g.controller == p
                    && match g.host {
                        Some(h) => Some(h) == s,
                        None => g.source == s,
                    }
            }) {
                std::sync::Arc::make_mut(&mut st.grants).remove(i);
                let effects = db.hooks.char_marks.part(crate::content::StatePart::Effects);
                st.chars.invalidate(effects);
            }
        }
        let ab = db.ability(&self.engine.lua, r)?;
        let ctx = self.ctx(Some(p), s, Some(&ab.table))?;
        let t = self.op_table(&o.ops[o.next], o.source())?;
        let label = match s {
            Some(s) => card_label(&db, self.state.borrow().obj(s).definition, "replacement"),
            None => "rule replacement".into(),
        };
        Ok(Next::Push(self.card_frame(
            ab.replace.as_ref().expect("checked"),
            vec![ctx, Value::Table(t)],
            label,
            s,
        )?))
    }

    /// Which of the applicable replacement effects are offered now, and who chooses among
    /// them, as the ruleset's `replacements.order` says.
    fn replacements_offered(
        &self,
        op: &Op,
        cands: Vec<(AbilityRef, Option<ObjId>, PlayerId)>,
    ) -> (PlayerId, Vec<(AbilityRef, Option<ObjId>, PlayerId)>) {
        use crate::content::ReplacementOrder;
        let affected = op_card(op);
        let st = self.state.borrow();
        let by_turn_order = |cands: Vec<(AbilityRef, Option<ObjId>, PlayerId)>| {
            let p = st
                .turn_order()
                .into_iter()
                .find(|p| cands.iter().any(|c| c.2 == *p))
                .unwrap_or(cands[0].2);
            (p, cands.into_iter().filter(|c| c.2 == p).collect())
        };
        match self.engine.db.rules.manifest.replacements.order {
            // OP 8-1-3-4-2 style: the affected card's own first, then each player's in turn
            // order from the turn player.
            ReplacementOrder::AffectedCardFirst => {
                let own: Vec<_> = cands
                    .iter()
                    .copied()
                    .filter(|c| c.1.is_some() && c.1 == affected)
                    .collect();
                match own.first() {
                    Some(first) => (first.2, own),
                    None => by_turn_order(cands),
                }
            }
            ReplacementOrder::TurnOrder => by_turn_order(cands),
            ReplacementOrder::AffectedControllerChooses => {
                let p = match op {
                    Op::Value { player, .. } => player.unwrap_or(st.turn_player),
                    _ => affected.map_or(st.turn_player, |c| st.obj(c).controller),
                };
                (p, cands)
            }
        }
    }

    pub(super) fn replacement_candidates(
        &mut self,
        o: &OpsFrame,
        op: &Op,
    ) -> R<Vec<(AbilityRef, Option<ObjId>, PlayerId)>> {
        let db = self.engine.db.clone();
        let kind = op.kind();
        // Who could replace it: the cards' and the rules' own replacement abilities, then
        // those effects gave cards (they work while the grant lasts) and those armed with no
        // card ("the next time ..., instead": `once`).
        let mut cands: Vec<(AbilityRef, Option<ObjId>, PlayerId)> = Vec::new();
        {
            let st = self.state.borrow();
            let lua = &self.engine.lua;
            // No object of the card in this game: no source, and no need to load it.
            let held = db.held_abilities(&st, &db.replacements, Indexed::Replacement);
            for r in held {
                let ab = db.ability(lua, r)?;
                if ab.replaces.as_deref() != Some(kind) {
                    continue;
                }
                // An operation no source's `match` can pass skips the ability at once; one
                // whose `match` names the operation's card as its own has at most that card
                // for a source.
                let only = match &ab.matches {
                    Some(m) if !op_may_match(m, &st, op) => continue,
                    Some(m) if m.pins_card() => match op_card(op) {
                        Some(x) => Some(x),
                        None => continue,
                    },
                    _ => None,
                };
                match r.0 {
                    None => cands.push((r, None, st.turn_player)),
                    Some(c) => {
                        let listed = match only {
                            Some(x) if db.is_source(&st, c, ab, x) => vec![x],
                            Some(_) => Vec::new(),
                            None => db.sources(&st, c, ab),
                        };
                        for s in listed {
                            // A suppressed card replaces nothing.
                            if crate::characteristics::ability_works(lua, &db, &st, s, 0, ab)? {
                                cands.push((r, Some(s), st.obj(s).controller));
                            }
                        }
                    }
                }
            }
            for g in st.grants.iter() {
                let ab = db.ability(lua, g.ability)?;
                if ab.replaces.as_deref() != Some(kind) {
                    continue;
                }
                let (s, gained) = match g.host {
                    Some(h) if !st.obj(h).alive => continue,
                    Some(h) => (Some(h), g.timestamp),
                    None => (g.source, crate::characteristics::NEVER_SUPPRESSED),
                };
                // A suppressed host (or one whose effects are paused) replaces nothing.
                if let Some(h) = s
                    && !crate::characteristics::ability_works(lua, &db, &st, h, gained, ab)?
                {
                    continue;
                }
                cands.push((g.ability, s, g.controller));
            }
        }
        let mut out: Vec<(AbilityRef, Option<ObjId>, PlayerId)> = Vec::new();
        let mut table = None;
        for (r, s, p) in cands {
            // A player who left the game replaces nothing; nor does one already applied.
            if o.used.contains(&(r, s))
                || out.iter().any(|c| c.0 == r && c.1 == s)
                || !self.state.borrow().in_game(p)
            {
                continue;
            }
            let ab = db.ability(&self.engine.lua, r)?;
            // The kernel's own tests on the operation first: most operations stop here.
            if let Some(m) = &ab.matches
                && !op_matches(m, &self.state.borrow(), op, o.source(), s, p)
            {
                continue;
            }
            if table.is_none() {
                table = Some(self.op_table(op, o.source())?);
            }
            let ctx = self.ctx(Some(p), s, Some(&ab.table))?;
            let applies = ab.applies.as_ref().expect("checked");
            if self
                .engine
                .run(|| applies.call::<bool>((ctx, table.clone())))?
            {
                out.push((r, s, p));
            }
        }
        Ok(out)
    }

    /// The Lua table describing a single operation and its acting card, for replacement
    /// abilities.
    pub(super) fn op_table(&self, op: &Op, source: Option<ObjId>) -> R<Table> {
        let lua = &self.engine.lua;
        let db = &self.engine.db;
        let st = self.state.borrow();
        let t = lua.create_table()?;
        t.set("kind", op.kind())?;
        if let Some(s) = source {
            t.set("source", Handle(s))?;
        }
        match op {
            Op::Move {
                card,
                zone,
                player,
                position,
                face,
                orientation,
                reason,
                by,
                host,
            } => {
                t.set("card", Handle(*card))?;
                let o = st.obj(*card);
                t.set("from", crate::script::api::zone_name(db, &st, o.zone))?;
                if let Some(z) = zone {
                    t.set("zone", db.rules.zones[*z].1.name.as_str())?;
                }
                t.set("player", player.map(|p| p as i64 + 1))?;
                t.set(
                    "position",
                    match position {
                        operations::Position::Top => Value::String(lua.create_string("top")?),
                        operations::Position::Bottom => Value::String(lua.create_string("bottom")?),
                        operations::Position::At(n) => Value::Integer(*n as i64),
                    },
                )?;
                t.set("face", face.map(|f| if f { "up" } else { "down" }))?;
                t.set(
                    "orientation",
                    orientation.map(|s| db.names.name(s).to_string()),
                )?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
                if let Some(h) = host {
                    t.set("host", Handle(*h))?;
                }
            }
            Op::Orientation {
                card,
                value,
                reason,
                by,
            } => {
                t.set("card", Handle(*card))?;
                t.set("value", db.names.name(*value))?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
            }
            Op::Counter {
                card,
                counter,
                amount,
                reason,
                by,
            } => {
                t.set("card", Handle(*card))?;
                t.set("counter", db.names.name(db.rules.counters.syms[*counter]))?;
                t.set("amount", *amount)?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
            }
            Op::Face { card, up } => {
                t.set("card", Handle(*card))?;
                t.set("up", *up)?;
            }
            Op::Emit(e) => {
                t.set("name", e.name.as_str())?;
                t.set("data", event_table(lua, db, &st, e)?)?;
            }
            Op::EndGame(r) => {
                // Who would win (with teams: every member) and who would lose (everyone else
                // still in the game): a replacement of the game's end reads whether it is
                // its controller who would lose ("if you would lose the game").
                let winners = st.winning_sides(r.winners.clone());
                let losers = (0..st.nplayers)
                    .filter(|p| !st.players[*p as usize].out && !winners.contains(p));
                let list = |ps: &mut dyn Iterator<Item = PlayerId>| -> R<Table> {
                    let l = lua.create_table()?;
                    for (i, p) in ps.enumerate() {
                        l.raw_set(i + 1, p as i64 + 1)?;
                    }
                    Ok(l)
                };
                t.set("winners", list(&mut winners.iter().copied())?)?;
                t.set("losers", list(&mut losers.into_iter())?)?;
                t.set("reason", r.reason.as_str())?;
            }
            _ => {}
        }
        Ok(t)
    }

    pub(super) fn last_known_for(&mut self, op: &Op) -> R<Option<Vec<LastKnown>>> {
        let Op::Move { card, .. } = op else {
            return Ok(None);
        };
        let db = self.engine.db.clone();
        let st = self.state.borrow();
        let o = st.obj(*card);
        if !o.alive || o.attached_to.is_some() {
            return Ok(None);
        }
        let decl = st.zone(o.zone).decl as usize;
        if !db.rules.zones[decl].1.in_play {
            return Ok(None);
        }
        self.engine.db.budget.reset();
        // A card that stays the same object (or does not move) leaves no last-known values:
        // `apply` would drop them (a move within an identity group, an attachment that keeps
        // identity: every value worked out for nothing).
        if !crate::operations::leaves_object(&db, &st, op) {
            return Ok(None);
        }
        let lua = &self.engine.lua;
        let mut out = Vec::new();
        for ci in 0..db.rules.chars.len() {
            out.push(if db.rules.is_int(ci) {
                LastKnown::Int(crate::characteristics::int_raw(lua, &db, &st, *card, ci)?)
            } else {
                LastKnown::Set(crate::characteristics::set_value(lua, &db, &st, *card, ci)?)
            });
        }
        Ok(Some(out))
    }
}

/// What a replacement's `match` reads of operation `op`: a move's destination (none when it
/// attaches), the reason and who does it.
fn op_fields(op: &Op) -> (Option<usize>, Option<&str>, Option<PlayerId>) {
    match op {
        Op::Move {
            zone,
            reason,
            by,
            host,
            ..
        } => (
            if host.is_some() { None } else { *zone },
            reason.as_deref(),
            *by,
        ),
        Op::Orientation { reason, by, .. } => (None, reason.as_deref(), *by),
        _ => (None, None, None),
    }
}

/// The tests of a replacement ability's `match` on operation `op` that do not depend on its
/// source or controller (`to`, `from`, `reason`): when they fail, no source passes.
fn op_may_match(m: &crate::db::EventMatch, st: &crate::state::State, op: &Op) -> bool {
    let (to, reason, _) = op_fields(op);
    if !m.to.is_empty() && !to.is_some_and(|z| m.to.contains(&z)) {
        return false;
    }
    if !m.from.is_empty() {
        let from = op_card(op).map(|c| st.zone(st.obj(c).zone).decl as usize);
        if !from.is_some_and(|z| m.from.contains(&z)) {
            return false;
        }
    }
    m.reason.is_empty() || reason.is_some_and(|r| m.reason.iter().any(|x| x == r))
}

/// Whether operation `op`, done by card `acting`, passes a replacement ability's `match`, for
/// the ability of `source` controlled by `controller`: `card = "self"` (the operation's card
/// is the source), `to` and `from` (a move's destination and the card's zone now), `reason`,
/// `player` (who does it), `turn` and `source` (the acting card).
fn op_matches(
    m: &crate::db::EventMatch,
    st: &crate::state::State,
    op: &Op,
    acting: Option<ObjId>,
    source: Option<ObjId>,
    controller: PlayerId,
) -> bool {
    if !m.passes_source(acting, source) {
        return false;
    }
    let card = op_card(op);
    let bearer = source.map(|s| st.obj(s).attached_to.unwrap_or(s));
    if m.own
        .iter()
        .any(|k| k != "card" || card.is_none() || card != source)
        || m.bearer
            .iter()
            .any(|k| k != "card" || card.is_none() || card != bearer)
    {
        return false;
    }
    let (_, reason, by) = op_fields(op);
    op_may_match(m, st, op) && m.passes_who_and_why(st, reason, by, controller)
}

impl OpsFrame {
    /// The acting card of the current step.
    fn source(&self) -> Option<ObjId> {
        self.sources.get(self.next).copied().flatten()
    }
}
