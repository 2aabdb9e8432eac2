//! Action kinds the kernel lists itself (`game.yaml` `actions`): at each decision of an open
//! phase that names them, the options for the common actions (play a card paying a cost,
//! attach, attack a target) are found in Rust, reading the state directly; Lua is asked
//! only for what data cannot say (`allowed` once, `condition` per card). The option tables
//! a script sees are built only for the option chosen.

use super::*;
use crate::content::{OptionField, Whose};
use crate::db::{ActionDoes, ActionKind, CardSel, LabelPart, PlayerSel};
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
    /// The player it targets (a player target: then `target` is None).
    pub(crate) target_player: Option<PlayerId>,
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
        Whose::Allies => from_p.filter(|q| st.team_of(*q) == st.team_of(p)).collect(),
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

/// Whether card `id` has an ability with `timing`, its own or one an effect gave it (the
/// abilities `ctx:abilities{card = id, timing = timing}` may list, before their zones and
/// suppression are asked).
fn has_ability_of(db: &crate::db::Db, st: &State, id: ObjId, timing: crate::names::Sym) -> bool {
    let of = |ab: &crate::db::AbilityOutline| ab.timings.contains(&timing);
    db.cards[st.obj(id).definition as usize]
        .outline
        .iter()
        .any(of)
        || st
            .grants
            .iter()
            .any(|g| g.host == Some(id) && of(db.outline(g.ability)))
}

/// A target: a card, or a player (with the name a Lua list gave it).
#[derive(Clone, Debug, PartialEq)]
enum Tgt {
    Card(ObjId),
    Player(PlayerId, Option<String>),
}

/// The cards a selector takes for acting player `p`: zone by zone, player by player, each
/// zone from bottom to top. In a shared zone, the cards those players control. With
/// `any_orientation`, its orientation is not tested (the caller tests it per acting card).
fn select(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    sel: &CardSel,
    p: PlayerId,
) -> R<Vec<ObjId>> {
    select_in(lua, db, st, sel, p, false)
}

fn select_in(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    sel: &CardSel,
    p: PlayerId,
    any_orientation: bool,
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
                if !any_orientation && sel.orientation.is_some_and(|w| o.orientation != w) {
                    continue;
                }
                if sel.without_attachments && !o.attachments.is_empty() {
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

/// Whether two selectors take the same cards (what `select` tests; the targets' fields are
/// not compared). `a` is taken apart field by field so that a field added to `CardSel`
/// fails to compile here until it is either compared or named as not selecting.
fn same_cards(a: &CardSel, b: &CardSel) -> bool {
    let CardSel {
        zones,
        of,
        categories,
        orientation,
        without,
        entered_before_this_turn,
        unless_it_has,
        without_attachments,
        if_card_has: _,
        players: _,
        any_orientation_if_card_has: _,
        label: _,
        label_several: _,
    } = a;
    *zones == b.zones
        && *of == b.of
        && *categories == b.categories
        && *orientation == b.orientation
        && *without == b.without
        && *entered_before_this_turn == b.entered_before_this_turn
        && *unless_it_has == b.unless_it_has
        && *without_attachments == b.without_attachments
}

/// The number of cards `sel` takes for `p`, counted once per listing: several actions often
/// count the same cards (what pays their costs, what meets their requirements), and a
/// listing changes nothing.
fn count<'a>(
    memo: &mut Vec<(&'a CardSel, i64)>,
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    sel: &'a CardSel,
    p: PlayerId,
) -> R<i64> {
    if let Some((_, n)) = memo.iter().find(|(s, _)| same_cards(s, sel)) {
        return Ok(*n);
    }
    let n = select(lua, db, st, sel, p)?.len() as i64;
    memo.push((sel, n));
    Ok(n)
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
        let mut counted = Vec::new();
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
                Some((_, payable)) => count(&mut counted, &lua, &db, &st.borrow(), payable, p)?,
                None => 0,
            };
            // `requires`: the number of cards that meet it, counted once (None: not yet).
            let mut required: Option<i64> = None;
            // Each selector's targets do not depend on the card (but a card is not its own
            // target, an `if_card_has` selector counts only for a card holding one of its
            // names, and `any_orientation_if_card_has` lifts the orientation for such a
            // card): listed once, put together per card.
            let mut by_selector: Option<Vec<Vec<Tgt>>> = None;
            // `target_condition_while`: whether any such static ability is about, looked up
            // once (None: not yet).
            let mut condition_about: Option<bool> = None;
            // With several opponents a selector may name whose card it is.
            let several = a.targets.iter().any(|t| t.label_several.is_some())
                && whose(&st.borrow(), Whose::Opponents, p).len() > 1;
            for card in cards {
                let mut value = None;
                if let (Some((ci, _)), Some(c)) = (&a.cost, card) {
                    let v = characteristics::int_value(&lua, &db, &st.borrow(), c, *ci)?;
                    if v > budget {
                        continue;
                    }
                    value = Some(v);
                }
                if let (Some((ci, meeting)), Some(c)) = (&a.requires, card) {
                    let met = match required {
                        Some(n) => n,
                        None => *required.insert(count(
                            &mut counted,
                            &lua,
                            &db,
                            &st.borrow(),
                            meeting,
                            p,
                        )?),
                    };
                    if characteristics::int_value(&lua, &db, &st.borrow(), c, *ci)? > met {
                        continue;
                    }
                }
                if let (Some(t), Some(c)) = (a.with_ability, card)
                    && !has_ability_of(&db, &st.borrow(), c, t)
                {
                    continue;
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
                    && !self.engine.run(|| match a.with_ability {
                        // The ability `with_ability` asked for, as the condition would list
                        // it: no second lookup in Lua.
                        Some(t) => {
                            let ab = self.first_ability_of(c, t)?;
                            f.call::<bool>((ctx.clone(), Handle(c), ab, data.clone()))
                        }
                        None => f.call::<bool>((ctx.clone(), Handle(c), data.clone())),
                    })?
                {
                    continue;
                }
                // Each target with the index of its selector (for its label).
                let targets: Vec<(Option<Tgt>, Option<usize>)> = if a.targets.is_empty() {
                    vec![(None, None)]
                } else {
                    if by_selector.is_none() {
                        let mut all = Vec::with_capacity(a.targets.len());
                        for t in &a.targets {
                            all.push(self.select_targets(t, p, ctx)?);
                        }
                        by_selector = Some(all);
                    }
                    let mut out: Vec<(Option<Tgt>, Option<usize>)> = Vec::new();
                    for (si, (sel, cards_of)) in a
                        .targets
                        .iter()
                        .zip(by_selector.iter().flatten())
                        .enumerate()
                    {
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
                        let lifted = match (card, sel.any_orientation_if_card_has.is_empty()) {
                            (Some(c), false) => holds_any(
                                &lua,
                                &db,
                                &st.borrow(),
                                c,
                                &sel.any_orientation_if_card_has,
                            )?,
                            _ => true,
                        };
                        for t in cards_of {
                            if let Tgt::Card(id) = t {
                                if Some(*id) == card {
                                    continue;
                                }
                                if !lifted
                                    && sel
                                        .orientation
                                        .is_some_and(|w| st.borrow().obj(*id).orientation != w)
                                {
                                    continue;
                                }
                            }
                            if !(gated && out.iter().any(|(o, _)| o.as_ref() == Some(t))) {
                                out.push((Some(t.clone()), Some(si)));
                            }
                        }
                    }
                    out
                };
                for (target, si) in targets {
                    if let (Some(f), Some(c), Some(t)) = (&a.target_condition, card, &target)
                        && match condition_about {
                            Some(about) => about,
                            None => {
                                let about = match a.target_condition_while {
                                    Some(timing) => self.statics_about(timing)?,
                                    None => true,
                                };
                                condition_about = Some(about);
                                about
                            }
                        }
                    {
                        let tv = match t {
                            Tgt::Card(id) => Handle(*id).into_lua(&lua)?,
                            Tgt::Player(q, _) => Value::Integer(*q as i64 + 1),
                        };
                        if !self
                            .engine
                            .run(|| f.call::<bool>((ctx.clone(), Handle(c), tv, data.clone())))?
                        {
                            continue;
                        }
                    }
                    let template = match si.map(|i| &a.targets[i]) {
                        Some(sel) => match (&sel.label_several, &sel.label) {
                            (Some(l), _) if several => l,
                            (_, Some(l)) => l,
                            _ => &a.label,
                        },
                        None => &a.label,
                    };
                    let label = fill(
                        &lua,
                        &db,
                        &st.borrow(),
                        template,
                        card,
                        target.as_ref(),
                        value,
                    )?;
                    let (target, target_player) = match target {
                        Some(Tgt::Card(id)) => (Some(id), None),
                        Some(Tgt::Player(q, _)) => (None, Some(q)),
                        None => (None, None),
                    };
                    out.push(KindOption {
                        kind: k,
                        card,
                        target,
                        target_player,
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
                &a.label,
                card,
                None,
                None,
            )?;
            out.push(KindOption {
                kind: k,
                card,
                target: None,
                target_player: None,
                label,
                ability: Some(l.key(&self.engine.db)),
            });
        }
        Ok(())
    }

    /// The targets a selector gives acting player `p`: cards (an orientation an acting card
    /// may lift not tested yet), or players (a Lua list asked here).
    fn select_targets(&mut self, sel: &CardSel, p: PlayerId, ctx: &Value) -> R<Vec<Tgt>> {
        let db = self.engine.db.clone();
        let lua = self.engine.lua.clone();
        let f = match &sel.players {
            None => {
                let lift = !sel.any_orientation_if_card_has.is_empty();
                let st = self.state.borrow();
                return Ok(select_in(&lua, &db, &st, sel, p, lift)?
                    .into_iter()
                    .map(Tgt::Card)
                    .collect());
            }
            Some(PlayerSel::Whose(w)) => return Ok(self.related(*w, p)),
            Some(PlayerSel::OpposingTeams) => return Ok(self.opposing_teams(p)),
            // Without teams, the relation the ruleset gives for it: no Lua call.
            Some(PlayerSel::Lua(_, Some(w))) if !self.state.borrow().seats.has_teams() => {
                return Ok(self.related(*w, p));
            }
            Some(PlayerSel::Lua(f, _)) => f.clone(),
        };
        let list: Table = self.engine.run(|| f.call((ctx.clone(), p as i64 + 1)))?;
        let mut out = Vec::new();
        for v in list.sequence_values::<Value>() {
            let (seat, label) = match v? {
                Value::Table(t) => (t.get::<Value>("seat")?, limits::opt_text(&t, "label")?),
                v => (v, None),
            };
            let st = self.state.borrow();
            let q = match seat {
                Value::Integer(n) => player_arg(&st, n)?,
                Value::Number(n) if n.fract() == 0.0 => player_arg(&st, n as i64)?,
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "a `players` target list gives seats (1..{}) or {{seat = n, label = \"...\"}}, not {}",
                        st.nplayers,
                        other.type_name()
                    )));
                }
            };
            out.push(Tgt::Player(q, label));
        }
        Ok(out)
    }

    /// The players in relation `w` to acting player `p`, as targets.
    fn related(&self, w: Whose, p: PlayerId) -> Vec<Tgt> {
        let st = self.state.borrow();
        whose(&st, w, p)
            .into_iter()
            .map(|q| Tgt::Player(q, None))
            .collect()
    }

    /// One target per team opposing acting player `p`: the team's first player still in the
    /// game in turn order from `p`, named as the team (`team P2+P4`, its seats in their
    /// declared order) when it has several seats, else as the player (`P2`).
    fn opposing_teams(&self, p: PlayerId) -> Vec<Tgt> {
        let st = self.state.borrow();
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for q in whose(&st, Whose::Opponents, p) {
            let t = st.team_of(q);
            if seen.contains(&t) {
                continue;
            }
            seen.push(t);
            let members = &st.seats.teams[t as usize];
            let label = (members.len() > 1).then(|| {
                let seats: Vec<String> = members.iter().map(|m| format!("P{}", m + 1)).collect();
                format!("team {}", seats.join("+"))
            });
            out.push(Tgt::Player(q, label));
        }
        out
    }

    /// Whether some static ability of `timing` is about: on the field, given by an effect,
    /// or armed without a host (as `ctx:abilities{kind = "static", timing, delayed = true}`).
    fn statics_about(&self, timing: crate::names::Sym) -> R<bool> {
        let q = crate::script::api::AbilityQuery {
            kind: Some(crate::db::AbilityKind::Static),
            timing: Some(timing),
            player: None,
            only: None,
            delayed: true,
        };
        let st = self.state.borrow();
        let found =
            crate::script::api::find_abilities(&self.engine.lua, &self.engine.db, &st, &q, None)?;
        Ok(!found.is_empty())
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

    /// The first ability `ctx:abilities{card = c, timing = timing}` lists (one that can be
    /// used where the card is: not failed, dormant or suppressed), as its handle; nil if none.
    /// Made as that kernel callback makes it: without the script's memory limit.
    fn first_ability_of(&self, c: ObjId, timing: crate::names::Sym) -> mlua::Result<Value> {
        let q = crate::script::api::AbilityQuery {
            timing: Some(timing),
            only: Some(c),
            ..Default::default()
        };
        let (lua, db) = (&self.engine.lua, &self.engine.db);
        let _host = db.memory.host(lua);
        let st = self.state.borrow();
        match crate::script::api::find_abilities(lua, db, &st, &q, None)?.first() {
            Some(l) => Ok(Value::Table(l.table(lua, db)?)),
            None => Ok(Value::Nil),
        }
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
        let field = |f: OptionField| -> R<Option<Value>> {
            Ok(match f {
                OptionField::Card => o.card.map(|c| Handle(c).into_lua(lua)).transpose()?,
                OptionField::Target => o.target.map(|c| Handle(c).into_lua(lua)).transpose()?,
                OptionField::TargetPlayer => {
                    let q = match (o.target_player, o.target) {
                        (Some(q), _) => Some(q),
                        (None, Some(c)) => Some(self.state.borrow().obj(c).controller),
                        _ => None,
                    };
                    q.map(|q| Value::Integer(q as i64 + 1))
                }
            })
        };
        match &a.does {
            ActionDoes::EndsPhase => unreachable!("the phase ends without a frame"),
            ActionDoes::Procedure { name, data } => {
                let t = lua.create_table()?;
                for (k, f) in data {
                    if let Some(v) = field(*f)? {
                        t.raw_set(k.as_str(), v)?;
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
                if let Some(q) = o.target_player {
                    t.raw_set("target_player", q as i64 + 1)?;
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

/// The label: its template with the cards' (or the player's) names and values filled in.
fn fill(
    lua: &mlua::Lua,
    db: &crate::db::Db,
    st: &State,
    template: &[LabelPart],
    card: Option<ObjId>,
    target: Option<&Tgt>,
    value: Option<i64>,
) -> R<String> {
    use std::fmt::Write;
    let name = |c: Option<ObjId>| {
        c.map(|c| db.cards[st.obj(c).definition as usize].label.as_str())
            .unwrap_or("")
    };
    // One allocation for most labels: the template's text and room for what fills it in.
    let room: usize = template
        .iter()
        .map(|part| match part {
            LabelPart::Text(t) => t.len(),
            _ => 16,
        })
        .sum();
    let mut out = String::with_capacity(room);
    for part in template {
        match part {
            LabelPart::Text(t) => out.push_str(t),
            LabelPart::Card => out.push_str(name(card)),
            LabelPart::Target => match target {
                Some(Tgt::Card(c)) => out.push_str(name(Some(*c))),
                Some(Tgt::Player(_, Some(l))) => out.push_str(l),
                Some(Tgt::Player(q, None)) => {
                    let _ = write!(out, "P{}", q + 1);
                }
                None => {}
            },
            LabelPart::TargetController => {
                let q = match target {
                    Some(Tgt::Card(c)) => Some(st.obj(*c).controller),
                    Some(Tgt::Player(q, _)) => Some(*q),
                    None => None,
                };
                if let Some(q) = q {
                    let _ = write!(out, "P{}", q + 1);
                }
            }
            LabelPart::Value => {
                if let Some(v) = value {
                    let _ = write!(out, "{v}");
                }
            }
            LabelPart::Char(ci) => {
                if let Some(c) = card {
                    let _ = write!(out, "{}", characteristics::int_value(lua, db, st, c, *ci)?);
                }
            }
        }
    }
    Ok(out)
}
