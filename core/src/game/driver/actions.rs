//! Action kinds the kernel lists itself (`game.yaml` `actions`): at each decision of an open
//! phase that names them, the options for the common actions (play a card paying a cost,
//! attach, attack a target) are found in Rust, reading the state directly; Lua is asked
//! only for what data cannot say (`allowed` once, `condition` per card). The option tables
//! a script sees are built only for the option chosen.

use super::*;
use crate::content::{OptionField, Whose};
use crate::db::{ActionDoes, ActionKind, CardSel, LabelPart};
use crate::state::State;

/// One option of a kernel-listed action kind.
#[derive(Clone, Debug)]
pub struct KindOption {
    /// Index into `Hooks::actions`.
    pub(crate) kind: usize,
    /// The card it uses.
    pub(crate) card: Option<ObjId>,
    /// Its target.
    pub(crate) target: Option<ObjId>,
    /// Its label.
    pub(crate) label: String,
    /// For an action listing abilities: the ability's key (`card#n`).
    pub(crate) ability: Option<String>,
}

impl KindOption {
    /// The request's option.
    pub(crate) fn choice(&self, db: &crate::db::Db) -> Choice {
        Choice {
            label: self.label.clone(),
            kind: Some(db.hooks.actions[self.kind].kind.clone()),
            card: self.card,
            target: self.target,
            data: vec![],
        }
    }
}

/// A request's options: the kernel-listed ones first, then those a Lua list gives, within
/// the limit on options per request.
pub(crate) fn listed_choices(
    db: &crate::db::Db,
    kinds: &[KindOption],
    options: &Table,
    objects: usize,
) -> R<Vec<Choice>> {
    let limit = limits::options_for(objects);
    let mut choices: Vec<Choice> = kinds.iter().map(|o| o.choice(db)).collect();
    choices.extend(choices_of(options, limit)?);
    if choices.len() > limit {
        return Err(mlua::Error::runtime(format!(
            "{} options in one request; the limit is {limit} (16 per card object of the game, 1000 at least)",
            choices.len(),
        )));
    }
    Ok(choices)
}

/// The players whose cards a selector takes, in turn order from `p` (the game's direction,
/// players still in the game). Opponents are the players of other sides (teams).
fn whose(st: &State, of: Whose, p: PlayerId) -> Vec<PlayerId> {
    let from_p = st.players_from(p).into_iter();
    match of {
        Whose::Own => vec![p],
        Whose::Opponents => from_p.filter(|q| st.team_of(*q) != st.team_of(p)).collect(),
        Whose::Any => from_p.collect(),
    }
}

/// Whether card `id` holds one of `names` in any of the listed set characteristics.
fn holds_any(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    id: ObjId,
    lists: &[(usize, Vec<crate::names::Sym>)],
) -> R<bool> {
    for (ci, names) in lists {
        let v = characteristics::set_value(lua, db, st, id, *ci)?;
        if names.iter().any(|n| v.contains(n)) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The cards a selector takes for acting player `p`: zone by zone, player by player, each
/// zone from bottom to top. In a shared zone, the cards those players control.
fn select(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    sel: &CardSel,
    p: PlayerId,
) -> R<Vec<ObjId>> {
    let players = whose(st, sel.of, p);
    let mut out = Vec::new();
    for &decl in &sel.zones {
        let shared = st.zone_ids[decl].len() == 1 && st.nplayers > 1;
        let zones: Vec<(ZoneId, Option<PlayerId>)> = if shared {
            vec![(st.zone_ids[decl][0], None)]
        } else {
            players
                .iter()
                .map(|q| (st.zone_id(decl, *q), Some(*q)))
                .collect()
        };
        for (z, _) in zones {
            for &id in &st.zone(z).cards {
                let o = st.obj(id);
                if shared && !players.contains(&o.controller) {
                    continue;
                }
                if !sel.categories.is_empty()
                    && !sel
                        .categories
                        .contains(&db.cards[o.definition as usize].category)
                {
                    continue;
                }
                if sel.orientation.is_some_and(|w| o.orientation != w) {
                    continue;
                }
                if sel.entered_before_this_turn
                    && o.entered_turn >= st.turn
                    && !holds_any(lua, db, st, id, &sel.unless_it_has)?
                {
                    continue;
                }
                if !sel.without.is_empty() && holds_any(lua, db, st, id, &sel.without)? {
                    continue;
                }
                out.push(id);
            }
        }
    }
    Ok(out)
}

impl Game {
    /// The options of the action kinds `kinds` for player `p`, in order. In a declared window
    /// `data` is the procedure's record: `allowed` and `condition` get it after their usual
    /// arguments.
    pub(crate) fn list_kinds(
        &mut self,
        kinds: &[usize],
        p: PlayerId,
        ctx: &Value,
        data: Option<&Table>,
    ) -> R<Vec<KindOption>> {
        let data = data.cloned().map_or(Value::Nil, Value::Table);
        let db = self.engine.db.clone();
        let lua = self.engine.lua.clone();
        let mut out = Vec::new();
        for &k in kinds {
            let a = &db.hooks.actions[k];
            let st = self.state.clone();
            if let Some(n) = &a.needs
                && select(&lua, &db, &st.borrow(), n, p)?.is_empty()
            {
                continue;
            }
            // The data tests first: they need no Lua.
            if a.from_own_turn > 1 && st.borrow().players[p as usize].turns_taken < a.from_own_turn
            {
                continue;
            }
            let mut barred = false;
            for &g in &a.unless_player_has {
                barred = barred || characteristics::player_has(&lua, &db, &st.borrow(), p, g)?;
            }
            if barred {
                continue;
            }
            if let Some(f) = &a.allowed
                && !self
                    .engine
                    .run(|| f.call::<bool>((ctx.clone(), p as i64 + 1, data.clone())))?
            {
                continue;
            }
            if let Some(timing) = a.abilities {
                self.list_ability_options(k, a, timing, p, ctx, &mut out)?;
                continue;
            }
            let cards: Vec<Option<ObjId>> = match &a.cards {
                Some(sel) => select(&lua, &db, &st.borrow(), sel, p)?
                    .into_iter()
                    .map(Some)
                    .collect(),
                None => vec![None],
            };
            let budget = match &a.cost {
                Some((_, payable)) => select(&lua, &db, &st.borrow(), payable, p)?.len() as i64,
                None => 0,
            };
            // Each selector's targets do not depend on the card (but a card is not its own
            // target, and an `if_card_has` selector counts only for a card holding one of
            // its names): listed once, put together per card.
            let mut by_selector: Option<Vec<Vec<ObjId>>> = None;
            for card in cards {
                let mut value = None;
                if let (Some((ci, _)), Some(c)) = (&a.cost, card) {
                    let v = characteristics::int_value(&lua, &db, &st.borrow(), c, *ci)?;
                    if v > budget {
                        continue;
                    }
                    value = Some(v);
                }
                if let Some(c) = card {
                    let mut short = false;
                    for (ci, min) in &a.at_least {
                        if characteristics::int_value(&lua, &db, &st.borrow(), c, *ci)? < *min {
                            short = true;
                        }
                    }
                    if short {
                        continue;
                    }
                }
                if let (Some(f), Some(c)) = (&a.condition, card)
                    && !self
                        .engine
                        .run(|| f.call::<bool>((ctx.clone(), Handle(c), data.clone())))?
                {
                    continue;
                }
                let targets: Vec<Option<ObjId>> = if a.targets.is_empty() {
                    vec![None]
                } else {
                    if by_selector.is_none() {
                        let st = st.borrow();
                        let mut all = Vec::with_capacity(a.targets.len());
                        for t in &a.targets {
                            all.push(select(&lua, &db, &st, t, p)?);
                        }
                        by_selector = Some(all);
                    }
                    let mut out: Vec<Option<ObjId>> = Vec::new();
                    for (sel, cards_of) in a.targets.iter().zip(by_selector.iter().flatten()) {
                        let gated = !sel.if_card_has.is_empty();
                        if gated {
                            let holds = match card {
                                Some(c) => holds_any(&lua, &db, &st.borrow(), c, &sel.if_card_has)?,
                                None => false,
                            };
                            if !holds {
                                continue;
                            }
                        }
                        for t in cards_of {
                            if Some(*t) != card && !(gated && out.contains(&Some(*t))) {
                                out.push(Some(*t));
                            }
                        }
                    }
                    out
                };
                for target in targets {
                    if let (Some(f), Some(c), Some(t)) = (&a.target_condition, card, target)
                        && !self.engine.run(|| {
                            f.call::<bool>((ctx.clone(), Handle(c), Handle(t), data.clone()))
                        })?
                    {
                        continue;
                    }
                    let label = fill(&lua, &db, &st.borrow(), a, card, target, value)?;
                    out.push(KindOption {
                        kind: k,
                        card,
                        target,
                        label,
                        ability: None,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The options of an action that lists activated abilities of `timing` (as
    /// `ctx:abilities{kind = "activated", timing, player}` gives them), each passing
    /// `condition(ctx, ability)`.
    fn list_ability_options(
        &mut self,
        k: usize,
        a: &ActionKind,
        timing: crate::names::Sym,
        p: PlayerId,
        ctx: &Value,
        out: &mut Vec<KindOption>,
    ) -> R<()> {
        for l in self.ability_handles(a, timing, p, None)? {
            if let Some(f) = &a.condition {
                let h = l.table(&self.engine.lua, &self.engine.db)?;
                if !self.engine.run(|| f.call::<bool>((ctx.clone(), h)))? {
                    continue;
                }
            }
            let card = l.source;
            let label = fill(
                &self.engine.lua,
                &self.engine.db,
                &self.state.borrow(),
                a,
                card,
                None,
                None,
            )?;
            out.push(KindOption {
                kind: k,
                card,
                target: None,
                label,
                ability: Some(l.key(&self.engine.db)),
            });
        }
        Ok(())
    }

    /// The activated abilities of `timing` that player `p` controls (of card `only`, if
    /// given), as `ctx:abilities` lists them.
    fn ability_handles(
        &self,
        a: &ActionKind,
        timing: crate::names::Sym,
        p: PlayerId,
        only: Option<ObjId>,
    ) -> R<Vec<crate::script::api::Listed>> {
        let q = crate::script::api::AbilityQuery {
            kind: Some(crate::db::AbilityKind::Activated),
            timing: Some(timing),
            player: Some(p as i64 + 1),
            only,
            delayed: false,
        };
        let st = self.state.borrow();
        let zones = (!a.abilities_in.is_empty()).then_some(a.abilities_in.as_slice());
        crate::script::api::find_abilities(&self.engine.lua, &self.engine.db, &st, &q, zones)
    }

    /// The frame that carries out a chosen kernel-listed option for player `p` (in a
    /// declared window, `data` is the procedure's record, handed to `run` after the option).
    pub(crate) fn kind_frame(
        &self,
        o: &KindOption,
        p: PlayerId,
        ctx: Value,
        data: Option<Table>,
    ) -> R<Frame> {
        let db = self.engine.db.clone();
        let lua = &self.engine.lua;
        let a: &ActionKind = &db.hooks.actions[o.kind];
        let field = |f: OptionField| match f {
            OptionField::Card => o.card,
            OptionField::Target => o.target,
        };
        match &a.does {
            ActionDoes::EndsPhase => unreachable!("the phase ends without a frame"),
            ActionDoes::Procedure { name, data } => {
                let t = lua.create_table()?;
                for (k, f) in data {
                    if let Some(c) = field(*f) {
                        t.raw_set(k.as_str(), Handle(c))?;
                    }
                }
                self.procedure_frame(name, Some(&t), Some(p))
            }
            ActionDoes::Run(run) => {
                let t = lua.create_table()?;
                t.raw_set("label", o.label.as_str())?;
                t.raw_set("kind", a.kind.as_str())?;
                if let Some(c) = o.card {
                    t.raw_set("card", Handle(c))?;
                }
                let mut ability = None;
                if let (Some(key), Some(timing)) = (&o.ability, a.abilities) {
                    for l in self.ability_handles(a, timing, p, o.card)? {
                        if l.key(&db) == *key {
                            t.raw_set("ability", l.table(lua, &db)?)?;
                            ability = Some(l.ability);
                        }
                    }
                }
                if let Some(c) = o.target {
                    t.raw_set("target", Handle(c))?;
                }
                let mut args = vec![ctx, Value::Table(t)];
                args.extend(data.map(Value::Table));
                // The option's card acts: a failure names it, and running out of memory is
                // its owner's loss (limits.memory_exhausted).
                let mut frame =
                    self.card_frame(run, args, format!("action '{}'", o.label), o.card)?;
                if let Frame::Lua(l) = &mut frame {
                    l.ability = ability;
                }
                Ok(frame)
            }
        }
    }
}

/// The label: its template with the cards' names and values filled in.
fn fill(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    a: &ActionKind,
    card: Option<ObjId>,
    target: Option<ObjId>,
    value: Option<i64>,
) -> R<String> {
    let name = |c: Option<ObjId>| {
        c.map(|c| db.cards[st.obj(c).definition as usize].label.as_str())
            .unwrap_or("")
    };
    let mut out = String::new();
    for part in &a.label {
        match part {
            LabelPart::Text(t) => out.push_str(t),
            LabelPart::Card => out.push_str(name(card)),
            LabelPart::Target => out.push_str(name(target)),
            LabelPart::Value => {
                if let Some(v) = value {
                    out.push_str(&v.to_string());
                }
            }
            LabelPart::Char(ci) => {
                if let Some(c) = card {
                    out.push_str(&characteristics::int_value(lua, db, st, c, *ci)?.to_string());
                }
            }
        }
    }
    Ok(out)
}
