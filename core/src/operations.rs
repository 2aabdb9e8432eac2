//! The primitive operations. Scripts compose them; games never need new Rust primitives.
//!
//! Each operation is parsed from the Lua table a script yields, split into single-card steps,
//! passed through replacement effects (the driver does that), then applied here: apply
//! changes the state and returns the events it caused. Nothing here calls Lua.

use std::sync::Arc;

use mlua::{Lua, Table, Value};

use crate::db::Db;
use crate::effects::{Effect, Expiry, Modify, Target};
use crate::events::Event;
use crate::names::Sym;
use crate::rules::Rules;
use crate::script::api::{limit_key, lua_to_val, player_arg, zone_arg};
use crate::script::card::CardUd;
use crate::state::{GameResult, LastKnown, ObjId, Object, PlayerId, State, ZoneId};
use crate::values::Val;

/// Where in an ordered zone a card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// On top (the end of the list).
    Top,
    /// At the bottom (index 0).
    Bottom,
    /// At a 1-based position from the bottom.
    At(usize),
}

/// One primitive operation on at most one card.
#[derive(Clone, Debug)]
#[expect(missing_docs, reason = "each variant's doc describes its fields")]
pub enum Op {
    /// Move a card to a zone, or under a host.
    Move {
        /// The card.
        card: ObjId,
        /// Destination zone declaration (ignored with a host).
        zone: Option<usize>,
        /// Whose copy of the zone (None: the card's owner).
        player: Option<PlayerId>,
        /// Where in the zone.
        position: Position,
        /// Face up (Some(true)), down, or the zone's default.
        face: Option<bool>,
        /// Orientation on arrival.
        orientation: Option<Sym>,
        /// Why (triggers filter on it).
        reason: Option<String>,
        /// Who did it.
        by: Option<PlayerId>,
        /// Attach under this card instead of entering a zone.
        host: Option<ObjId>,
    },
    /// Shuffle a zone.
    Shuffle(ZoneId),
    /// Change orientation.
    Orientation {
        card: ObjId,
        value: Sym,
        reason: Option<String>,
        by: Option<PlayerId>,
    },
    /// Turn face up or down.
    Face { card: ObjId, up: bool },
    /// Set a flag.
    Flag { card: ObjId, flag: usize, on: bool },
    /// Add to a counter.
    Counter {
        card: ObjId,
        counter: usize,
        amount: i64,
        reason: Option<String>,
        by: Option<PlayerId>,
    },
    /// Reveal to players (bit mask).
    Reveal { cards: Vec<ObjId>, mask: u32 },
    /// End reveals.
    Conceal { cards: Vec<ObjId> },
    /// Make a token.
    Token {
        card: u32,
        zone: ZoneId,
        player: PlayerId,
        orientation: Option<Sym>,
        face: Option<bool>,
    },
    /// Change control.
    Control { card: ObjId, player: PlayerId },
    /// Set or add to a player's (or the game's) value.
    Value {
        player: Option<PlayerId>,
        index: usize,
        set: Option<i64>,
        add: Option<i64>,
    },
    /// Create continuous effects.
    Effect { effects: Vec<Effect> },
    /// End effects at an expiry point.
    Expire {
        point: Sym,
        player: Option<PlayerId>,
    },
    /// A ruleset event.
    Emit(Event),
    /// Count a use of a limited ability.
    Use { card: ObjId, key: u32 },
    /// Draw a random number 1..=n.
    Random(u64),
    /// End the game.
    EndGame(GameResult),
    /// Take a player out.
    Eliminate { player: PlayerId, reason: String },
    /// Say who takes the first turn.
    FirstPlayer(PlayerId),
    /// Give an ability (declared `dormant` on its card) to a card or, without a host, arm
    /// it as a delayed ability of a player.
    Grant(crate::state::Grant),
    /// Begin (true) or end (false) a group of operations whose triggers form one batch.
    Group(bool),
}

impl Op {
    /// The kind name replacement abilities match (`replaces = "move"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Op::Move { .. } => "move",
            Op::Shuffle(_) => "shuffle",
            Op::Orientation { .. } => "orientation",
            Op::Face { .. } => "face",
            Op::Flag { .. } => "flag",
            Op::Counter { .. } => "counter",
            Op::Reveal { .. } => "reveal",
            Op::Conceal { .. } => "conceal",
            Op::Token { .. } => "token",
            Op::Control { .. } => "control",
            Op::Value { .. } => "value",
            Op::Effect { .. } => "effect",
            Op::Expire { .. } => "expire",
            Op::Emit(_) => "emit",
            Op::Use { .. } => "use",
            Op::Random(_) => "random",
            Op::EndGame(_) => "end_game",
            Op::Eliminate { .. } => "eliminate",
            Op::FirstPlayer(_) => "first_player",
            Op::Grant(_) => "grant_ability",
            Op::Group(_) => "group",
        }
    }
}

fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

fn cards_of(t: &Table, key: &str) -> mlua::Result<Vec<ObjId>> {
    let mut out = Vec::new();
    if let Some(list) = t.get::<Option<Table>>(key)? {
        for v in list.sequence_values::<Value>() {
            match v? {
                Value::UserData(ud) => out.push(ud.borrow::<CardUd>()?.0),
                Value::Nil => {}
                other => {
                    return Err(rt(format!(
                        "`{key}` should list cards, found a {}",
                        other.type_name()
                    )));
                }
            }
        }
    }
    Ok(out)
}

fn card_of(t: &Table, key: &str) -> mlua::Result<ObjId> {
    match t.get::<Value>(key)? {
        Value::UserData(ud) => Ok(ud.borrow::<CardUd>()?.0),
        other => Err(rt(format!(
            "`{key}` should be a card, not {}",
            other.type_name()
        ))),
    }
}

fn opt_player(st: &State, t: &Table, key: &str) -> mlua::Result<Option<PlayerId>> {
    match t.get::<Option<i64>>(key)? {
        Some(p) => Ok(Some(player_arg(st, p)?)),
        None => Ok(None),
    }
}

fn name_in(db: &Db, list: &crate::names::Declared, name: &str) -> mlua::Result<Sym> {
    let i = Rules::lookup(&db.names, list, name).map_err(rt)?;
    Ok(list.syms[i])
}

/// Parses an operation table into single-card steps.
pub fn parse(lua: &Lua, db: &Db, st: &State, t: &Table) -> mlua::Result<Vec<Op>> {
    let kind: String = t.get("kind")?;
    let by = opt_player(st, t, "by")?;
    let reason: Option<String> = t.get("reason")?;
    Ok(match kind.as_str() {
        "move" => {
            let cards = match t.get::<Value>("card")? {
                Value::UserData(ud) => vec![ud.borrow::<CardUd>()?.0],
                _ => cards_of(t, "cards")?,
            };
            let host = match t.get::<Value>("host")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            let zone = match t.get::<Option<String>>("zone")? {
                Some(z) => Some(db.rules.zone_index(&db.names, &z).map_err(rt)?),
                None if host.is_some() => None,
                None => return Err(rt("move: say which `zone`")),
            };
            let position = match t.get::<Value>("position")? {
                Value::Nil => Position::Top,
                Value::String(s) if s.to_string_lossy() == "top" => Position::Top,
                Value::String(s) if s.to_string_lossy() == "bottom" => Position::Bottom,
                Value::Integer(n) if n >= 1 => Position::At(n as usize),
                other => {
                    return Err(rt(format!(
                        "move: bad position {other:?} (\"top\", \"bottom\" or n >= 1)"
                    )));
                }
            };
            let face = match t.get::<Option<String>>("face")?.as_deref() {
                None => None,
                Some("up") => Some(true),
                Some("down") => Some(false),
                Some(f) => {
                    return Err(rt(format!(
                        "move: face should be \"up\" or \"down\", not '{f}'"
                    )));
                }
            };
            let orientation = match t.get::<Option<String>>("orientation")? {
                Some(o) => Some(name_in(db, &db.rules.orientations, &o)?),
                None => None,
            };
            let player = opt_player(st, t, "player")?;
            cards
                .into_iter()
                .map(|card| Op::Move {
                    card,
                    zone,
                    player,
                    position,
                    face,
                    orientation,
                    reason: reason.clone(),
                    by,
                    host,
                })
                .collect()
        }
        "shuffle" => {
            let z: String = t.get("zone")?;
            let p: Option<i64> = t.get("player")?;
            vec![Op::Shuffle(zone_arg(db, st, &z, p)?)]
        }
        "orientation" => {
            let v: String = t.get("value")?;
            vec![Op::Orientation {
                card: card_of(t, "card")?,
                value: name_in(db, &db.rules.orientations, &v)?,
                reason,
                by,
            }]
        }
        "face" => vec![Op::Face {
            card: card_of(t, "card")?,
            up: t.get("up")?,
        }],
        "flag" => {
            let f: String = t.get("flag")?;
            let flag = Rules::lookup(&db.names, &db.rules.flags, &f).map_err(rt)?;
            vec![Op::Flag {
                card: card_of(t, "card")?,
                flag,
                on: t.get("on")?,
            }]
        }
        "counter" => {
            let c: String = t.get("counter")?;
            let counter = Rules::lookup(&db.names, &db.rules.counters, &c).map_err(rt)?;
            vec![Op::Counter {
                card: card_of(t, "card")?,
                counter,
                amount: t.get("amount")?,
                reason,
                by,
            }]
        }
        "reveal" => {
            let mask = match t.get::<Option<Table>>("players")? {
                None => u32::MAX,
                Some(list) => {
                    let mut m = 0;
                    for p in list.sequence_values::<i64>() {
                        m |= 1 << player_arg(st, p?)?;
                    }
                    m
                }
            };
            vec![Op::Reveal {
                cards: cards_of(t, "cards")?,
                mask,
            }]
        }
        "conceal" => vec![Op::Conceal {
            cards: cards_of(t, "cards")?,
        }],
        "token" => {
            let id: String = t.get("id")?;
            let card = *db
                .card_index
                .get(&id)
                .ok_or_else(|| rt(format!("create_token: no card '{id}'")))?;
            let z: String = t.get("zone")?;
            let p: i64 = t.get("player")?;
            let orientation = match t.get::<Option<String>>("orientation")? {
                Some(o) => Some(name_in(db, &db.rules.orientations, &o)?),
                None => None,
            };
            let face = t.get::<Option<String>>("face")?.map(|f| f != "down");
            vec![Op::Token {
                card,
                zone: zone_arg(db, st, &z, Some(p))?,
                player: player_arg(st, p)?,
                orientation,
                face,
            }]
        }
        "control" => vec![Op::Control {
            card: card_of(t, "card")?,
            player: player_arg(st, t.get("player")?)?,
        }],
        "value" => {
            let key: String = t.get("key")?;
            let player = opt_player(st, t, "player")?;
            let list = if player.is_some() {
                &db.rules.player_values
            } else {
                &db.rules.game_values
            };
            let index = Rules::lookup(&db.names, list, &key).map_err(rt)?;
            vec![Op::Value {
                player,
                index,
                set: t.get("value")?,
                add: t.get("add")?,
            }]
        }
        "effect" => vec![parse_effect(db, st, t)?],
        "expire" => {
            let p: String = t.get("point")?;
            vec![Op::Expire {
                point: name_in(db, &db.rules.durations, &p)?,
                player: opt_player(st, t, "player")?,
            }]
        }
        "emit" => {
            let name: String = t.get("name")?;
            let sym = db.names.get(&name);
            if name != "log" && !sym.is_some_and(|s| db.rules.events.contains(&s)) {
                return Err(rt(format!(
                    "emit: unknown event '{name}': declare it in game.yaml `events`"
                )));
            }
            let mut e = Event::named(&name);
            e.player = by;
            let data: Table = t.get("data")?;
            let mut keys: Vec<(String, Value)> =
                data.pairs::<String, Value>().collect::<mlua::Result<_>>()?;
            keys.sort_by(|a, b| a.0.cmp(&b.0)); // pairs() order is not stable: sort
            for (k, v) in keys {
                match (k.as_str(), &v) {
                    ("card", Value::UserData(ud)) => e.card = Some(ud.borrow::<CardUd>()?.0),
                    ("player", Value::Integer(p)) => e.player = Some(player_arg(st, *p)?),
                    ("amount", Value::Integer(n)) => e.amount = *n,
                    ("reason", Value::String(s)) => e.reason = Some(s.to_string_lossy()),
                    ("key", Value::String(s)) => e.key = Some(s.to_string_lossy()),
                    _ => {
                        if let Some(val) = lua_to_val(&v) {
                            e.data.push((k, val));
                        }
                    }
                }
            }
            let _ = lua;
            vec![Op::Emit(e)]
        }
        "use" => {
            let key: String = t.get("key")?;
            vec![Op::Use {
                card: card_of(t, "card")?,
                key: limit_key(&key),
            }]
        }
        "random" => {
            let n: i64 = t.get("n")?;
            if n < 1 {
                return Err(rt(format!("random: n must be at least 1, not {n}")));
            }
            vec![Op::Random(n as u64)]
        }
        "end_game" => {
            let mut winners = Vec::new();
            if let Some(list) = t.get::<Option<Table>>("winners")? {
                for p in list.sequence_values::<i64>() {
                    winners.push(player_arg(st, p?)?);
                }
            }
            vec![Op::EndGame(GameResult {
                winners,
                reason: reason.unwrap_or_else(|| "effect".into()),
            })]
        }
        "eliminate" => vec![Op::Eliminate {
            player: player_arg(st, t.get("player")?)?,
            reason: reason.unwrap_or_else(|| "eliminated".into()),
        }],
        "first_player" => vec![Op::FirstPlayer(player_arg(st, t.get("player")?)?)],
        "group" => vec![Op::Group(t.get("open")?)],
        "grant_ability" => {
            let def: Table = t.get("def")?;
            let ability = *db.ability_by_table.get(&(def.to_pointer() as usize)).ok_or_else(|| {
                rt("grant_ability: that ability is not declared by a card: put it in the card's ability list with `dormant = true`")
            })?;
            let host = match t.get::<Value>("target")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            let expiry = match t.get::<Option<String>>("until")? {
                Some(p) => Some(Expiry {
                    point: name_in(db, &db.rules.durations, &p)?,
                    player: opt_player(st, t, "until_player")?,
                    after_turn: t.get::<Option<u32>>("after_turn")?.unwrap_or(0),
                }),
                None => None,
            };
            let controller = opt_player(st, t, "by")?.unwrap_or(st.turn_player);
            let source = match t.get::<Value>("source")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            vec![Op::Grant(crate::state::Grant {
                ability,
                host,
                source,
                controller,
                once: t.get::<Option<bool>>("once")?.unwrap_or(false),
                expiry,
                timestamp: 0,
            })]
        }
        k => return Err(rt(format!("unknown operation '{k}'"))),
    })
}

fn parse_effect(db: &Db, st: &State, t: &Table) -> mlua::Result<Op> {
    let ch: String = t.get("char")?;
    let op: String = t.get("op")?;
    let player_grant = ch == "player";
    let characteristic = if player_grant {
        db.names
            .get("player")
            .ok_or_else(|| rt("player grants are not available"))?
    } else {
        let ci = db
            .rules
            .char_index(&db.names, &ch)
            .ok_or_else(|| rt(format!("modify: unknown characteristic '{ch}'")))?;
        db.rules.chars[ci].sym
    };
    let value: Value = t.get("value")?;
    let num = || -> mlua::Result<i64> {
        match &value {
            Value::Integer(i) => Ok(*i),
            Value::Number(n) => Ok(*n as i64),
            other => Err(rt(format!(
                "modify {op}: value should be an integer, not {}",
                other.type_name()
            ))),
        }
    };
    let name = || -> mlua::Result<Sym> {
        match &value {
            Value::String(s) => db.names.get(&s.to_string_lossy()).ok_or_else(|| {
                rt(format!(
                    "modify {op}: unknown name '{}'",
                    s.to_string_lossy()
                ))
            }),
            other => Err(rt(format!(
                "modify {op}: value should be a name, not {}",
                other.type_name()
            ))),
        }
    };
    let modify = match op.as_str() {
        "add" => Modify::Add(num()?),
        "set_base" => Modify::SetBase(num()?),
        "set" => Modify::Set(num()?),
        "grant" => Modify::Grant(name()?),
        "revoke" => Modify::Revoke(name()?),
        o => {
            return Err(rt(format!(
                "modify: unknown op '{o}' (add, set_base, set, grant, revoke)"
            )));
        }
    };
    let expiry = match t.get::<Option<String>>("until")? {
        Some(p) => Some(Expiry {
            point: name_in(db, &db.rules.durations, &p)?,
            player: opt_player(st, t, "until_player")?,
            after_turn: t.get::<Option<u32>>("after_turn")?.unwrap_or(0),
        }),
        None => None,
    };
    let controller = opt_player(st, t, "by")?;
    let source = match t.get::<Value>("source")? {
        Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
        _ => None,
    };
    let mut targets: Vec<Target> = cards_of(t, "targets")?
        .into_iter()
        .map(Target::Obj)
        .collect();
    if let Some(list) = t.get::<Option<Table>>("players")? {
        for p in list.sequence_values::<i64>() {
            targets.push(Target::Player(player_arg(st, p?)?));
        }
    }
    let effects = targets
        .into_iter()
        .map(|target| Effect {
            timestamp: 0,
            controller,
            source,
            target,
            characteristic,
            modify,
            expiry,
        })
        .collect();
    Ok(Op::Effect { effects })
}

/// What an applied operation gives back to the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing happened (1-3-2-1 style: already in that state, or impossible).
    Nothing,
    /// Done.
    Done,
    /// A card object (the moved card's new object, a token).
    Card(ObjId),
    /// A number.
    Int(i64),
}

/// Applies one operation. `last_known` is the leaving card's characteristics (computed by
/// the caller, which may call Lua; this function never does).
pub fn apply(
    db: &Db,
    st: &mut State,
    op: &Op,
    last_known: Option<Vec<LastKnown>>,
) -> (Outcome, Vec<Event>) {
    let mut events = Vec::new();
    st.ops_since_decision += 1;
    let out = match op {
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
            match move_card(
                db,
                st,
                *card,
                *zone,
                *player,
                *position,
                *face,
                *orientation,
                reason,
                *by,
                *host,
                last_known,
                &mut events,
            ) {
                Some(id) => Outcome::Card(id),
                None => Outcome::Nothing,
            }
        }
        Op::Shuffle(z) => {
            let mut cards = std::mem::take(&mut st.zone_mut(*z).cards);
            st.rng.shuffle(&mut cards);
            st.zone_mut(*z).cards = cards;
            let mut e = Event::named("shuffled");
            e.to = Some(*z);
            e.player = st.zone(*z).owner;
            events.push(e);
            Outcome::Done
        }
        Op::Orientation {
            card,
            value,
            reason,
            by,
        } => {
            let o = st.obj(*card);
            if !o.alive || o.orientation == *value || o.attached_to.is_some() {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).orientation = *value;
                let mut e = Event::named("turned");
                e.card = Some(*card);
                e.key = Some(db.names.name(*value).to_string());
                e.reason = reason.clone();
                e.player = *by;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Face { card, up } => {
            if !st.obj(*card).alive || st.obj(*card).face_up == *up {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).face_up = *up;
                let mut e = Event::named("flipped");
                e.card = Some(*card);
                e.amount = *up as i64;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Flag { card, flag, on } => {
            let bit = 1u64 << flag;
            let o = st.obj_mut(*card);
            let before = o.flags & bit != 0;
            if before == *on {
                Outcome::Nothing
            } else {
                if *on {
                    o.flags |= bit
                } else {
                    o.flags &= !bit
                }
                let mut e = Event::named("flag");
                e.card = Some(*card);
                e.key = Some(db.names.name(db.rules.flags.syms[*flag]).to_string());
                e.amount = *on as i64;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Counter {
            card,
            counter,
            amount,
            reason,
            by,
        } => {
            if !st.obj(*card).alive || *amount == 0 {
                Outcome::Nothing
            } else {
                let o = st.obj_mut(*card);
                let before = o.counters[*counter];
                let after = (before + amount).max(0);
                o.counters[*counter] = after;
                if after == before {
                    Outcome::Nothing
                } else {
                    let mut e = Event::named("counter");
                    e.card = Some(*card);
                    e.key = Some(db.names.name(db.rules.counters.syms[*counter]).to_string());
                    e.amount = after - before;
                    e.reason = reason.clone();
                    e.player = *by;
                    events.push(e);
                    Outcome::Int(after)
                }
            }
        }
        Op::Reveal { cards, mask } => {
            for c in cards {
                st.obj_mut(*c).revealed |= mask;
                let mut e = Event::named("revealed");
                e.card = Some(*c);
                e.amount = *mask as i64;
                events.push(e);
            }
            Outcome::Done
        }
        Op::Conceal { cards } => {
            for c in cards {
                st.obj_mut(*c).revealed = 0;
            }
            Outcome::Done
        }
        Op::Token {
            card,
            zone,
            player,
            orientation,
            face,
        } => {
            let cap = db.rules.zones[st.zone(*zone).decl as usize].1.capacity;
            if cap.is_some_and(|c| st.zone(*zone).cards.len() as u32 >= c) {
                return (Outcome::Nothing, events); // full: no token
            }
            let id = new_object(db, st, *card, *player, *zone, *face, *orientation);
            st.obj_mut(id).token = true;
            place(st, id, *zone, Position::Top);
            let mut e = Event::named("created");
            e.card = Some(id);
            e.to = Some(*zone);
            e.player = Some(*player);
            events.push(e);
            Outcome::Card(id)
        }
        Op::Control { card, player } => {
            if st.obj(*card).controller == *player {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).controller = *player;
                let mut e = Event::named("controller");
                e.card = Some(*card);
                e.player = Some(*player);
                events.push(e);
                Outcome::Done
            }
        }
        Op::Value {
            player,
            index,
            set,
            add,
        } => {
            let slot = match player {
                Some(p) => &mut Arc::make_mut(&mut st.players)[*p as usize].values[*index],
                None => &mut Arc::make_mut(&mut st.game_values)[*index],
            };
            let before = *slot;
            let after = match (set, add) {
                (Some(v), _) => *v,
                (None, Some(d)) => before + d,
                (None, None) => before,
            };
            *slot = after;
            if after != before {
                let list = if player.is_some() {
                    &db.rules.player_values
                } else {
                    &db.rules.game_values
                };
                let mut e = Event::named("value");
                e.player = *player;
                e.key = Some(db.names.name(list.syms[*index]).to_string());
                e.amount = after - before;
                events.push(e);
            }
            Outcome::Int(after)
        }
        Op::Effect { effects } => {
            for eff in effects {
                if let Target::Obj(id) = eff.target
                    && !st.obj(id).alive
                {
                    continue;
                }
                let mut eff = eff.clone();
                eff.timestamp = st.tick();
                Arc::make_mut(&mut st.effects).push(eff);
            }
            Outcome::Done
        }
        Op::Expire { point, player } => {
            let turn = st.turn;
            let ends = |x: &Option<Expiry>| match x {
                Some(x) if x.point == *point => {
                    (player.is_none() || x.player.is_none() || x.player == *player)
                        && turn > x.after_turn
                }
                _ => false,
            };
            if st.grants.iter().any(|g| ends(&g.expiry)) {
                Arc::make_mut(&mut st.grants).retain(|g| !ends(&g.expiry));
            }
            Arc::make_mut(&mut st.effects).retain(|e| match e.expiry {
                Some(x) if x.point == *point => {
                    let for_player = player.is_none() || x.player.is_none() || x.player == *player;
                    !(for_player && turn > x.after_turn)
                }
                _ => true,
            });
            Outcome::Done
        }
        Op::Emit(e) => {
            events.push(e.clone());
            Outcome::Done
        }
        Op::Use { card, key } => {
            let turn = st.turn;
            let o = st.obj_mut(*card);
            match o.uses.iter_mut().find(|(k, t, _)| *k == *key && *t == turn) {
                Some(u) => u.2 += 1,
                None => o.uses.push((*key, turn, 1)),
            }
            Outcome::Done
        }
        Op::Random(n) => Outcome::Int(st.rng.below(*n) as i64 + 1),
        Op::EndGame(r) => {
            end(st, r.clone(), &mut events);
            Outcome::Done
        }
        Op::Eliminate { player, reason } => {
            Arc::make_mut(&mut st.players)[*player as usize].out = true;
            let p = *player;
            let q = Arc::make_mut(&mut st.pending);
            for b in q.iter_mut() {
                b.items.retain(|i| i.controller != p);
            }
            q.retain(|b| !b.items.is_empty());
            Arc::make_mut(&mut st.effects)
                .retain(|e| e.controller != Some(p) && e.target != Target::Player(p));
            Arc::make_mut(&mut st.grants).retain(|g| g.controller != p);
            let left: Vec<PlayerId> = (0..st.nplayers)
                .filter(|p| !st.players[*p as usize].out)
                .collect();
            if left.len() <= 1 && st.result.is_none() {
                end(
                    st,
                    GameResult {
                        winners: left,
                        reason: reason.clone(),
                    },
                    &mut events,
                );
            }
            Outcome::Done
        }
        Op::FirstPlayer(p) => {
            st.turn_player = *p;
            Outcome::Done
        }
        Op::Grant(g) => {
            if g.host.is_some_and(|h| !st.obj(h).alive) {
                Outcome::Nothing
            } else {
                let mut g = g.clone();
                g.timestamp = st.tick();
                Arc::make_mut(&mut st.grants).push(g);
                Outcome::Done
            }
        }
        // Groups are handled by the driver (they shape trigger batches).
        Op::Group(_) => Outcome::Done,
    };
    (out, events)
}

/// Ends the game (once).
pub fn end(st: &mut State, r: GameResult, events: &mut Vec<Event>) {
    if st.result.is_some() {
        return;
    }
    let mut e = Event::named("game_over");
    e.reason = Some(r.reason.clone());
    e.data.push((
        "winners".into(),
        Val::List(
            r.winners
                .iter()
                .map(|p| crate::script::api::player_val(*p))
                .collect(),
        ),
    ));
    events.push(e);
    st.result = Some(r);
}

/// A new object of card `card` owned by `owner`, entering `zone` (not yet placed).
pub fn new_object(
    db: &Db,
    st: &mut State,
    card: u32,
    owner: PlayerId,
    zone: ZoneId,
    face: Option<bool>,
    orientation: Option<Sym>,
) -> ObjId {
    let id = ObjId(st.objects.len() as u32);
    let decl = &db.rules.zones[st.zone(zone).decl as usize].1;
    let timestamp = st.tick();
    let o = Object {
        id,
        card,
        owner,
        controller: owner,
        zone,
        face_up: face.unwrap_or(!decl.face_down),
        orientation: orientation.unwrap_or(db.rules.orientations.syms[0]),
        flags: 0,
        counters: vec![0; db.rules.counters.syms.len()],
        attached_to: None,
        attachments: Vec::new(),
        timestamp,
        entered_turn: st.turn,
        uses: Vec::new(),
        revealed: 0,
        token: false,
        alive: true,
        successor: None,
        last_known: None,
    };
    Arc::make_mut(&mut st.objects).push(o);
    id
}

/// Puts an object into a zone's list.
pub fn place(st: &mut State, id: ObjId, zone: ZoneId, pos: Position) {
    let cards = &mut st.zone_mut(zone).cards;
    match pos {
        Position::Top => cards.push(id),
        Position::Bottom => cards.insert(0, id),
        Position::At(n) => {
            let i = (n - 1).min(cards.len());
            cards.insert(i, id)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn move_card(
    db: &Db,
    st: &mut State,
    card: ObjId,
    zone: Option<usize>,
    player: Option<PlayerId>,
    position: Position,
    face: Option<bool>,
    orientation: Option<Sym>,
    reason: &Option<String>,
    by: Option<PlayerId>,
    host: Option<ObjId>,
    last_known: Option<Vec<LastKnown>>,
    events: &mut Vec<Event>,
) -> Option<ObjId> {
    let o = st.obj(card).clone();
    if !o.alive {
        return None; // it already left: nothing to move
    }
    let from = o.zone;
    let to = match host {
        Some(h) => {
            if !st.obj(h).alive || h == card {
                return None;
            }
            st.obj(h).zone
        }
        None => st.zone_id(zone?, player.unwrap_or(o.owner)),
    };
    let to_decl = &db.rules.zones[st.zone(to).decl as usize].1;
    if host.is_none()
        && let Some(cap) = to_decl.capacity
        && st.zone(to).cards.len() as u32 >= cap
        && from != to
    {
        return None; // full: the ruleset makes room first
    }
    // Leave.
    match o.attached_to {
        Some(h) => st.obj_mut(h).attachments.retain(|a| *a != card),
        None => st.zone_mut(from).cards.retain(|c| *c != card),
    }
    let keeps = to_decl.keeps_identity && host.is_none() && o.attached_to.is_none();
    let new_id = if keeps {
        let ts = st.tick();
        let turn = st.turn;
        let n = st.obj_mut(card);
        n.zone = to;
        n.timestamp = ts;
        n.entered_turn = turn;
        card
    } else {
        let id = new_object(db, st, o.card, o.owner, to, face, orientation);
        st.obj_mut(id).token = o.token;
        let old = st.obj_mut(card);
        old.alive = false;
        old.successor = Some(id);
        old.last_known = last_known.map(Arc::new);
        // Effects on the old object end with it.
        if st.effects.iter().any(|e| e.target == Target::Obj(card)) {
            Arc::make_mut(&mut st.effects).retain(|e| e.target != Target::Obj(card));
        }
        id
    };
    if keeps {
        if let Some(f) = face {
            st.obj_mut(new_id).face_up = f;
        }
        if let Some(or) = orientation {
            st.obj_mut(new_id).orientation = or;
        }
    }
    match host {
        Some(h) => {
            st.obj_mut(new_id).attached_to = Some(h);
            st.obj_mut(h).attachments.push(new_id);
        }
        None => place(st, new_id, to, position),
    }
    let mut e = Event::named("moved");
    e.card = Some(new_id);
    e.old = Some(card);
    e.from = Some(from);
    e.to = Some(to);
    e.reason = reason.clone();
    e.player = by;
    if let Some(h) = host {
        e.data
            .push(("host".into(), Val::Card(crate::values::CardRef { card: h })));
    }
    events.push(e);
    // Cards attached to a card that left follow the attachment rules.
    if !keeps {
        for a in o.attachments.iter().copied() {
            let cat = db.cards[st.obj(a).card as usize].category;
            let rule = db.rules.attachments.iter().find(|r| r.category == cat);
            match rule.and_then(|r| r.to.map(|z| (z, r.orientation))) {
                Some((z, or)) => {
                    st.obj_mut(a).attached_to = None;
                    move_card(
                        db,
                        st,
                        a,
                        Some(z),
                        Some(st.obj(a).owner),
                        Position::Top,
                        None,
                        or,
                        &Some("host_left".into()),
                        by,
                        None,
                        None,
                        events,
                    );
                }
                None => {
                    // Follow the host to its destination.
                    st.obj_mut(a).attached_to = None;
                    let decl = st.zone(to).decl as usize;
                    move_card(
                        db,
                        st,
                        a,
                        Some(decl),
                        Some(st.obj(a).owner),
                        Position::Top,
                        None,
                        None,
                        &Some("host_left".into()),
                        by,
                        None,
                        None,
                        events,
                    );
                }
            }
        }
    }
    // A token that leaves play stops existing.
    if st.obj(new_id).token && to_decl.removes_tokens {
        st.zone_mut(to).cards.retain(|c| *c != new_id);
        st.obj_mut(new_id).alive = false;
        let mut e = Event::named("ceased");
        e.old = Some(new_id);
        events.push(e);
    }
    Some(new_id)
}
