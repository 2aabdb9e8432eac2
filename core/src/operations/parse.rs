//! Parsing: the Lua table a script yields becomes an `Op` (names checked against the ruleset).

use std::borrow::Cow;

use crate::db::declared_list;

use super::*;
use crate::content::{CharKind, ModOp};
use crate::sandbox::limits::{self, DataBudget};
use crate::sandbox::numbers;
use crate::vocabulary::LOG_EVENT;

/// The reason `concession` is the kernel's own: only a player concedes (`Game::concede`, at
/// any time, replaced by nothing), so no script may end the game or take a player out with
/// it, and a card effect cannot make a player concede (GD 1-2-5).
fn refuse_concession(kind: &str, reason: Option<&str>) -> mlua::Result<()> {
    if reason == Some("concession") {
        return Err(rt(format!(
            "{kind}: the reason \"concession\" is reserved: only a player concedes, no effect can make them (GD 1-2-5)"
        )));
    }
    Ok(())
}

pub(super) fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// Where an operation's fields come from: the table a script built (`{kind = "move", ...}`,
/// what a replacement returns), or the values the prelude yields in a fixed order for the
/// common operations (no table is built for them).
pub(super) trait Fields {
    /// The field as `t.get` reads it (a table's is a copy; a yielded one is borrowed).
    fn get(&self, key: &str) -> mlua::Result<Cow<'_, Value>>;
    /// The field as `t.raw_get` reads it.
    fn raw(&self, key: &str) -> mlua::Result<Cow<'_, Value>>;
}

impl Fields for Table {
    fn get(&self, key: &str) -> mlua::Result<Cow<'_, Value>> {
        Table::get(self, key).map(Cow::Owned)
    }
    fn raw(&self, key: &str) -> mlua::Result<Cow<'_, Value>> {
        self.raw_get(key).map(Cow::Owned)
    }
}

/// Fields given in the order `names` lists them; a name not listed is nil. Where only
/// `cards` is listed, it holds one card (the table form's `card`) or a list of cards.
struct Positional<'a> {
    names: &'static [&'static str],
    values: &'a [Value],
}

const NIL: Value = Value::Nil;

impl Positional<'_> {
    fn at(&self, key: &str) -> &Value {
        self.names
            .iter()
            .position(|n| *n == key)
            .and_then(|i| self.values.get(i))
            .unwrap_or(&NIL)
    }
}

impl Fields for Positional<'_> {
    fn get(&self, key: &str) -> mlua::Result<Cow<'_, Value>> {
        if (key == "card" || key == "cards") && !self.names.contains(&"card") {
            let cards = self.at("cards");
            let one = matches!(cards, Value::UserData(_));
            return Ok(Cow::Borrowed(if one == (key == "card") {
                cards
            } else {
                &NIL
            }));
        }
        Ok(Cow::Borrowed(self.at(key)))
    }
    fn raw(&self, key: &str) -> mlua::Result<Cow<'_, Value>> {
        self.get(key)
    }
}

/// The fields of each operation the prelude yields without a table, in the order it yields
/// them (after the kind): `coroutine.yield("op", kind, source, ...)`. Every one starts with
/// `source`, the acting card (see [`super::source_of`]).
pub(crate) fn positional_fields(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "move" => &[
            "source",
            "cards",
            "zone",
            "player",
            "position",
            "face",
            "orientation",
            "reason",
            "by",
            "host",
        ],
        "orientation" => &["source", "card", "cards", "value", "reason", "by"],
        "emit" => &["source", "name", "data", "by"],
        "expire" => &["source", "point", "player", "count", "card"],
        "effect" => &[
            "source",
            "targets",
            "players",
            "char",
            "op",
            "layer",
            "value",
            "until",
            "until_player",
            "after_turn",
            "times",
            "by",
            "tag",
            "uncancellable",
            "persists_in",
        ],
        "reveal" => &["source", "cards", "players"],
        "conceal" => &["source", "cards"],
        "use" => &["source", "subject", "key", "opts"],
        _ => return None,
    })
}

/// The field `name` of an operation yielded without a table (nil when not given).
pub fn positional_field(kind: &str, values: &[Value], name: &str) -> Option<Value> {
    let i = positional_fields(kind)?.iter().position(|n| *n == name)?;
    values.get(i).cloned()
}

/// A field converted as `t.get::<T>(key)` converts it.
fn get_as<T: mlua::FromLua>(lua: &Lua, f: &dyn Fields, key: &str) -> mlua::Result<T> {
    T::from_lua(f.get(key)?.into_owned(), lua)
}

/// `f` of a text field read in place, without a copy (None when nil). A number is read as
/// its text, as `t.get::<String>` would.
fn with_str<R>(
    t: &dyn Fields,
    key: &str,
    f: impl FnOnce(Option<&str>) -> mlua::Result<R>,
) -> mlua::Result<R> {
    match &*t.get(key)? {
        Value::Nil => f(None),
        Value::String(s) => f(Some(&s.to_str()?)),
        v @ (Value::Integer(_) | Value::Number(_)) => f(Some(&numbers::int(v, key)?.to_string())),
        other => Err(rt(format!(
            "`{key}` should be a name, not a {}",
            other.type_name()
        ))),
    }
}

/// An optional whole-number field (nil: None).
fn opt_int(f: &dyn Fields, key: &str) -> mlua::Result<Option<i64>> {
    match &*f.raw(key)? {
        Value::Nil => Ok(None),
        Value::Integer(i) if i.abs() <= numbers::MAX => Ok(Some(*i)),
        v => numbers::int(v, &format!("`{key}`")).map(Some),
    }
}

/// A required whole-number field, as `numbers::field` reads a table.
fn int_field(f: &dyn Fields, key: &str) -> mlua::Result<i64> {
    match &*f.raw(key)? {
        Value::Integer(i) if i.abs() <= numbers::MAX => Ok(*i),
        v => numbers::int(v, &format!("`{key}`")),
    }
}

/// An optional field that must fit `u32` (turn counts and the like).
fn opt_u32(f: &dyn Fields, key: &str) -> mlua::Result<Option<u32>> {
    match opt_int(f, key)? {
        None => Ok(None),
        Some(n) => u32::try_from(n).map(Some).map_err(|_| {
            mlua::Error::runtime(format!("`{key}` should be from 0 to {}, not {n}", u32::MAX))
        }),
    }
}

/// An optional text field, as `limits::opt_text` reads a table.
fn opt_text(f: &dyn Fields, key: &str) -> mlua::Result<Option<String>> {
    match &*f.raw(key)? {
        Value::Nil => Ok(None),
        Value::String(s) if s.as_bytes().len() <= limits::TEXT => Ok(Some(s.to_string_lossy())),
        Value::String(s) => limits::text(s, &format!("`{key}`")).map(Some),
        other => Err(mlua::Error::runtime(format!(
            "`{key}` should be a string, not a {}",
            other.type_name()
        ))),
    }
}

pub(super) fn cards_of(lua: &Lua, t: &dyn Fields, key: &str) -> mlua::Result<Vec<ObjId>> {
    let mut out = Vec::new();
    if let Some(list) = get_as::<Option<Table>>(lua, t, key)? {
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

pub(super) fn card_of(t: &dyn Fields, key: &str) -> mlua::Result<ObjId> {
    match &*t.get(key)? {
        Value::UserData(ud) => Ok(ud.borrow::<CardUd>()?.0),
        other => Err(rt(format!(
            "`{key}` should be a card, not {}",
            other.type_name()
        ))),
    }
}

/// An operation's card (`card`), or its list of cards (`cards`) done as one step.
fn one_or_each(lua: &Lua, t: &dyn Fields) -> mlua::Result<Vec<ObjId>> {
    if !matches!(*t.get("cards")?, Value::Nil) {
        cards_of(lua, t, "cards")
    } else {
        Ok(vec![card_of(t, "card")?])
    }
}

pub(super) fn opt_player(st: &State, t: &dyn Fields, key: &str) -> mlua::Result<Option<PlayerId>> {
    match opt_int(t, key)? {
        Some(p) => Ok(Some(player_arg(st, p)?)),
        None => Ok(None),
    }
}

pub(super) fn name_in(db: &Db, list: &crate::names::Declared, name: &str) -> mlua::Result<Sym> {
    let i = Rules::lookup(&db.names, list, name).map_err(rt)?;
    Ok(list.syms[i])
}

/// Parses an operation table into single-card steps.
pub fn parse(lua: &Lua, db: &Db, st: &State, t: &Table) -> mlua::Result<Vec<Op>> {
    let kind: String = t.get("kind")?;
    parse_fields(lua, db, st, &kind, t)
}

/// A move's place `n` in its zone (1 is the top), checked: both forms of a move say the same.
pub(super) fn place_at(n: i64) -> mlua::Result<Position> {
    if n < 1 {
        return Err(rt(format!(
            "move: bad position {n} (\"top\", \"bottom\" or n >= 1)"
        )));
    }
    Ok(Position::At(usize::try_from(n).unwrap_or(usize::MAX)))
}

/// A place in a zone whose order is not kept means nothing: say so rather than let a script
/// rely on it ("top", the default, only says "into").
pub(super) fn placed_in_order(
    db: &Db,
    zone: Option<usize>,
    position: Position,
) -> mlua::Result<()> {
    if let Some(z) = zone
        && !db.rules.zones[z].1.ordered
        && position != Position::Top
    {
        return Err(rt(format!(
            "move: zone '{}' is not ordered (game.yaml), so its cards have no places: leave out `position`",
            db.rules.zones[z].1.name
        )));
    }
    Ok(())
}

/// A move's `face`: "up", "down" or none.
pub(super) fn move_face(f: Option<&str>) -> mlua::Result<Option<bool>> {
    match f {
        None => Ok(None),
        Some("up") => Ok(Some(true)),
        Some("down") => Ok(Some(false)),
        Some(f) => Err(rt(format!(
            "move: face should be \"up\" or \"down\", not '{f}'"
        ))),
    }
}

/// Parses an operation the prelude yielded as its kind and its fields in the order
/// [`positional_fields`] gives (the same checks and errors as its table).
pub fn parse_positional(
    lua: &Lua,
    db: &Db,
    st: &State,
    kind: &str,
    values: &[Value],
) -> mlua::Result<Vec<Op>> {
    let Some(names) = positional_fields(kind) else {
        return Err(rt(format!("unknown operation '{kind}'")));
    };
    parse_fields(lua, db, st, kind, &Positional { names, values })
}

fn parse_fields(
    lua: &Lua,
    db: &Db,
    st: &State,
    kind: &str,
    t: &dyn Fields,
) -> mlua::Result<Vec<Op>> {
    let by = opt_player(st, t, "by")?;
    let reason = opt_text(t, "reason")?;
    Ok(match kind {
        "move" => {
            let cards = match &*t.get("card")? {
                Value::UserData(ud) => vec![ud.borrow::<CardUd>()?.0],
                _ => cards_of(lua, t, "cards")?,
            };
            let host = match &*t.get("host")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            let zone = with_str(t, "zone", |z| match z {
                Some(z) => Ok(Some(db.rules.zone_index(&db.names, z).map_err(rt)?)),
                None if host.is_some() => Ok(None),
                None => Err(rt("move: say which `zone`")),
            })?;
            let position = match &*t.get("position")? {
                Value::Nil => Position::Top,
                Value::String(s) if s.to_string_lossy() == "top" => Position::Top,
                Value::String(s) if s.to_string_lossy() == "bottom" => Position::Bottom,
                v @ (Value::Integer(_) | Value::Number(_)) => {
                    place_at(numbers::int(v, "move: position")?)?
                }
                other => {
                    return Err(rt(format!(
                        "move: bad position {other:?} (\"top\", \"bottom\" or n >= 1)"
                    )));
                }
            };
            placed_in_order(db, zone, position)?;
            let face = with_str(t, "face", move_face)?;
            let orientation = with_str(t, "orientation", |o| match o {
                Some(o) => Ok(Some(name_in(db, &db.rules.orientations, o)?)),
                None => Ok(None),
            })?;
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
            let z: String = get_as(lua, t, "zone")?;
            let p = opt_int(t, "player")?;
            vec![Op::Shuffle(zone_arg(db, st, &z, p)?)]
        }
        "orientation" => {
            let value = with_str(t, "value", |v| {
                let v = v.ok_or_else(|| rt("set_orientation: say which orientation"))?;
                name_in(db, &db.rules.orientations, v)
            })?;
            one_or_each(lua, t)?
                .into_iter()
                .map(|card| Op::Orientation {
                    card,
                    value,
                    reason: reason.clone(),
                    by,
                })
                .collect()
        }
        "face" => vec![Op::Face {
            card: card_of(t, "card")?,
            up: get_as(lua, t, "up")?,
        }],
        "flag" => {
            let f: String = get_as(lua, t, "flag")?;
            let flag = Rules::lookup(&db.names, &db.rules.flags, &f).map_err(rt)?;
            vec![Op::Flag {
                card: card_of(t, "card")?,
                flag,
                on: get_as(lua, t, "on")?,
            }]
        }
        "counter" => {
            let c: String = get_as(lua, t, "counter")?;
            let counter = Rules::lookup(&db.names, &db.rules.counters, &c).map_err(rt)?;
            let amount = int_field(t, "amount")?;
            one_or_each(lua, t)?
                .into_iter()
                .map(|card| Op::Counter {
                    card,
                    counter,
                    amount,
                    reason: reason.clone(),
                    by,
                })
                .collect()
        }
        "reveal" => {
            let mask = match get_as::<Option<Table>>(lua, t, "players")? {
                None => u32::MAX,
                Some(list) => {
                    let mut m = 0;
                    for p in numbers::list(&list, "reveal: players")? {
                        m |= 1 << player_arg(st, p)?;
                    }
                    m
                }
            };
            vec![Op::Reveal {
                cards: cards_of(lua, t, "cards")?,
                mask,
            }]
        }
        "conceal" => vec![Op::Conceal {
            cards: cards_of(lua, t, "cards")?,
        }],
        "token" => {
            let id: String = get_as(lua, t, "id")?;
            let card = db
                .card_of(&id)
                .ok_or_else(|| rt(format!("create_token: no card '{id}'")))?;
            let z: String = get_as(lua, t, "zone")?;
            let p = int_field(t, "player")?;
            let orientation = match get_as::<Option<String>>(lua, t, "orientation")? {
                Some(o) => Some(name_in(db, &db.rules.orientations, &o)?),
                None => None,
            };
            let face = get_as::<Option<String>>(lua, t, "face")?.map(|f| f != "down");
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
            player: player_arg(st, int_field(t, "player")?)?,
        }],
        "value" => {
            let key: String = get_as(lua, t, "key")?;
            let player = opt_player(st, t, "player")?;
            let list = if player.is_some() {
                &db.rules.player_values
            } else {
                &db.rules.game_values
            };
            if player.is_some()
                && let Some(pi) = db.rules.player_char_index(&db.names, &key)
            {
                let from = match db.rules.player_chars[pi].decl.from.as_deref() {
                    Some(v) => format!("change the player value it starts from, '{v}'"),
                    None => "it starts from a constant".to_string(),
                };
                return Err(rt(format!(
                    "'{key}' is a player characteristic, computed: change it with ctx:modify \
                     on the player, or {from}"
                )));
            }
            let index = Rules::lookup(&db.names, list, &key).map_err(rt)?;
            vec![Op::Value {
                player,
                index,
                set: opt_int(t, "value")?,
                add: opt_int(t, "add")?,
            }]
        }
        "effect" => vec![parse_effect(lua, db, st, t)?],
        "take_definition" => vec![parse_redirect(lua, db, st, t)?],
        "end_effect" => {
            let h = int_field(t, "handle")?;
            vec![Op::EndEffect {
                handle: u64::try_from(h).map_err(|_| rt(format!("end_effect: no effect {h}")))?,
            }]
        }
        "expire" => {
            let point = with_str(t, "point", |p| {
                let p = p.ok_or_else(|| rt("expire: say which point (a `durations` name)"))?;
                name_in(db, &db.rules.durations, p)
            })?;
            let count = opt_u32(t, "count")?.unwrap_or(1);
            let card = match &*t.get("card")? {
                Value::Nil => None,
                _ => Some(card_of(t, "card").map_err(|e| rt(format!("expire: {e}")))?),
            };
            vec![Op::Expire {
                point,
                player: opt_player(st, t, "player")?,
                count,
                card,
            }]
        }
        "emit" => {
            let name: String = get_as(lua, t, "name")?;
            let sym = db.names.get(&name);
            if name != LOG_EVENT && !sym.is_some_and(|s| db.rules.events.contains(&s)) {
                return Err(rt(format!(
                    "emit: unknown event '{name}': declare it in game.yaml `events`"
                )));
            }
            // An event that declares its fields is emitted with no others (game.yaml `events`).
            let fields = sym.and_then(|s| db.rules.event_fields.get(&s));
            let mut e = Event::named(&name);
            e.player = by;
            let data: Table = get_as(lua, t, "data")?;
            let mut budget = DataBudget::default();
            let mut keys = Vec::new();
            for pair in data.pairs::<Value, Value>() {
                let (k, v) = pair?;
                budget.take(0)?;
                let k = match &k {
                    Value::String(s) => limits::text(s, "emit: a data key")?,
                    n @ (Value::Integer(_) | Value::Number(_)) => {
                        numbers::int(n, "emit: a data key")?.to_string()
                    }
                    other => {
                        return Err(rt(format!(
                            "emit: data keys should be strings, not a {}",
                            other.type_name()
                        )));
                    }
                };
                if let Some(fields) = fields
                    && !fields.iter().any(|f| **f == *k)
                {
                    return Err(rt(format!(
                        "emit: event '{name}' has no field '{k}' (its fields: {}): declare it in \
                         game.yaml `events`",
                        fields.join(", ")
                    )));
                }
                keys.push((k, v));
            }
            keys.sort_by(|a, b| a.0.cmp(&b.0)); // pairs() order is not stable: sort
            for (k, v) in keys {
                match (k.as_str(), &v) {
                    ("card", Value::UserData(ud)) => e.card = Some(ud.borrow::<CardUd>()?.0),
                    ("player", Value::Integer(p)) => e.player = Some(player_arg(st, *p)?),
                    ("amount", Value::Integer(n)) => e.amount = *n,
                    ("reason", Value::String(s)) => e.reason = Some(limits::text(s, "reason")?),
                    ("key", Value::String(s)) => e.key = Some(limits::text(s, "key")?),
                    _ => {
                        if let Some(val) = lua_to_val(&v, &mut budget, 0)? {
                            e.data.push((k, val));
                        }
                    }
                }
            }
            let _ = lua;
            vec![Op::Emit(e)]
        }
        "use" => {
            let key: String = get_as(lua, t, "key")?;
            let (scope, _window) = usage_args(st, "use", &*t.get("subject")?, &*t.get("opts")?)?;
            vec![Op::Use {
                scope,
                key: limit_key(&key),
            }]
        }
        "random" => {
            let n = int_field(t, "n")?;
            if n < 1 {
                return Err(rt(format!("random: n must be at least 1, not {n}")));
            }
            vec![Op::Random(n as u64)]
        }
        "end_game" => {
            refuse_concession("end_game", reason.as_deref())?;
            let mut winners = Vec::new();
            if let Some(list) = get_as::<Option<Table>>(lua, t, "winners")? {
                for p in numbers::list(&list, "end_game: winners")? {
                    winners.push(player_arg(st, p)?);
                }
            }
            vec![Op::EndGame(GameResult {
                winners,
                reason: reason.unwrap_or_else(|| "effect".into()),
            })]
        }
        "eliminate" => {
            refuse_concession("eliminate", reason.as_deref())?;
            vec![Op::Eliminate {
                player: player_arg(st, int_field(t, "player")?)?,
                reason: reason.unwrap_or_else(|| "eliminated".into()),
            }]
        }
        "first_player" => vec![Op::FirstPlayer(player_arg(st, get_as(lua, t, "player")?)?)],
        "direction" => {
            let d = opt_text(t, "direction")?.unwrap_or_default();
            vec![Op::Direction(match d.as_str() {
                "clockwise" => crate::content::Direction::Clockwise,
                "counterclockwise" => crate::content::Direction::Counterclockwise,
                other => {
                    return Err(rt(format!(
                        "set_direction: '{other}' is not a direction (clockwise, counterclockwise)"
                    )));
                }
            })]
        }
        "group" => vec![Op::Group(get_as(lua, t, "open")?)],
        "grant_ability" => {
            let def: Table = get_as(lua, t, "def")?;
            let ability = db.ability_of_table(&def).ok_or_else(|| {
                rt("grant_ability: that ability is not declared by a card: put it in the card's ability list with `dormant = true`")
            })?;
            let host = match &*t.get("target")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            let expiry = expiry_of(lua, db, st, t)?;
            let controller = opt_player(st, t, "by")?.unwrap_or(st.turn_player);
            let source = match &*t.get("source")? {
                Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            };
            let persists_in = persists_in(lua, db, t, "grant_ability")?;
            if host.is_none() && !persists_in.is_empty() {
                return Err(rt(
                    "grant_ability: `persists_in` needs a card to follow (the second argument)",
                ));
            }
            vec![Op::Grant(crate::state::Grant {
                ability,
                host,
                source,
                controller,
                once: get_as::<Option<bool>>(lua, t, "once")?.unwrap_or(false),
                expiry,
                timestamp: 0,
                persists_in,
            })]
        }
        k => return Err(rt(format!("unknown operation '{k}'"))),
    })
}

/// The zones an effect or a granted ability persists in (`persists_in`: a zone name or a
/// list of them), as zone declarations, sorted and without repeats.
fn persists_in(lua: &Lua, db: &Db, t: &dyn Fields, what: &str) -> mlua::Result<Vec<u16>> {
    let names: Vec<String> = match get_as::<Value>(lua, t, "persists_in")? {
        Value::Nil => return Ok(Vec::new()),
        Value::String(s) => vec![limits::text(&s, "persists_in")?],
        Value::Table(l) => {
            let mut out = Vec::new();
            for v in l.sequence_values::<Value>() {
                match v? {
                    Value::String(s) => out.push(limits::text(&s, "persists_in")?),
                    other => {
                        return Err(rt(format!(
                            "{what}: `persists_in` should list zone names, found a {}",
                            other.type_name()
                        )));
                    }
                }
            }
            out
        }
        other => {
            return Err(rt(format!(
                "{what}: `persists_in` should be a zone name or a list of them, not a {}",
                other.type_name()
            )));
        }
    };
    let mut out = Vec::new();
    for n in names {
        let z = db
            .rules
            .zone_index(&db.names, &n)
            .map_err(|e| rt(format!("{what}: persists_in: {e}")))?;
        out.push(z as u16);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// A duration from an operation's table: `until` (a declared point), `until_player`,
/// `after_turn`, and `times` (a count-down: it ends the `times`-th time the point passes).
fn expiry_of(lua: &Lua, db: &Db, st: &State, t: &dyn Fields) -> mlua::Result<Option<Expiry>> {
    let Some(p) = get_as::<Option<String>>(lua, t, "until")? else {
        return Ok(None);
    };
    let times = opt_u32(t, "times")?.unwrap_or(1);
    if times == 0 {
        return Err(rt("a duration's `times` is at least 1"));
    }
    Ok(Some(Expiry {
        point: name_in(db, &db.rules.durations, &p)?,
        player: opt_player(st, t, "until_player")?,
        after_turn: opt_u32(t, "after_turn")?.unwrap_or(0),
        times,
    }))
}

pub(super) fn parse_effect(lua: &Lua, db: &Db, st: &State, t: &dyn Fields) -> mlua::Result<Op> {
    let ch: String = get_as(lua, t, "char")?;
    let op: String = get_as(lua, t, "op")?;
    let op = match op.as_str() {
        "add" => ModOp::Add,
        "set_base" => ModOp::SetBase,
        "set" => ModOp::Set,
        "grant" => ModOp::Grant,
        "revoke" => ModOp::Revoke,
        o => {
            return Err(rt(format!(
                "modify: unknown op '{o}' (add, set_base, set, grant, revoke)"
            )));
        }
    };
    let layer: Option<String> = get_as(lua, t, "layer")?;
    let value: Value = get_as(lua, t, "value")?;
    let cards = cards_of(lua, t, "targets")?;
    let mut players = Vec::new();
    if let Some(list) = get_as::<Option<Table>>(lua, t, "players")? {
        for p in numbers::list(&list, "players")? {
            players.push(player_arg(st, p)?);
        }
    }
    // (characteristic, modification, layer) for card targets, then for player targets.
    // With no target at all, the names are still checked (as a card's characteristic,
    // unless they name the player grants or a player characteristic).
    let players_only = ch == "player" || db.rules.player_char_index(&db.names, &ch).is_some();
    let on_cards = if cards.is_empty() && (!players.is_empty() || players_only) {
        None
    } else {
        let ci = db.rules.char_index(&db.names, &ch).ok_or_else(|| {
            rt(format!(
                "modify: unknown characteristic '{ch}' (declared: {})",
                declared_list(db.rules.chars.iter().map(|c| c.decl.name.as_str()))
            ))
        })?;
        let info = &db.rules.chars[ci];
        if info.field == "keywords" {
            let given: Vec<String> = match &value {
                Value::String(s) => vec![s.to_string_lossy()],
                Value::Table(t) => t
                    .sequence_values::<String>()
                    .filter_map(Result::ok)
                    .collect(),
                _ => Vec::new(),
            };
            let given: Vec<&str> = given.iter().map(String::as_str).collect();
            db.rules
                .check_keyword_values(&db.names, ci, &given)
                .map_err(|e| rt(format!("modify: {e}")))?;
        }
        let (m, l) = modification(
            db,
            &ch,
            info.decl.kind,
            &info.layers,
            op,
            layer.as_deref(),
            &value,
        )?;
        Some((info.sym, m, l))
    };
    let on_players = if players.is_empty() {
        None
    } else if ch == "player" {
        // The player grants: names a player has or not (`ctx:has`).
        let sym = db
            .names
            .get("player")
            .ok_or_else(|| rt("player grants are not available"))?;
        if !matches!(op, ModOp::Grant | ModOp::Revoke) {
            return Err(rt(format!(
                "modify: player grants (char \"player\") take grant or revoke, not {}",
                op.name()
            )));
        }
        let layers = crate::rules::default_layers();
        let (m, _) = modification(db, &ch, CharKind::Set, &layers, op, None, &value)?;
        Some((sym, m, 0))
    } else {
        let pi = db.rules.player_char_index(&db.names, &ch).ok_or_else(|| {
            rt(format!(
                "modify: unknown player characteristic '{ch}' (game.yaml \
                 `player_characteristics`: {}; or \"player\" for player grants)",
                declared_list(db.rules.player_chars.iter().map(|c| c.decl.name.as_str()))
            ))
        })?;
        let info = &db.rules.player_chars[pi];
        let (m, l) = modification(
            db,
            &ch,
            CharKind::Int,
            &info.layers,
            op,
            layer.as_deref(),
            &value,
        )?;
        Some((info.sym, m, l))
    };
    let expiry = expiry_of(lua, db, st, t)?;
    let controller = opt_player(st, t, "by")?;
    let source = match &*t.get("source")? {
        Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
        _ => None,
    };
    let targets = cards
        .into_iter()
        .map(|c| (Target::Obj(c), on_cards.clone().expect("cards resolved")))
        .chain(players.into_iter().map(|p| {
            (
                Target::Player(p),
                on_players.clone().expect("players resolved"),
            )
        }));
    let tag = match get_as::<Option<String>>(lua, t, "tag")? {
        Some(n) => Some(name_in(db, &db.rules.effect_tags, &n)?),
        None => None,
    };
    let uncancellable = get_as::<Option<bool>>(lua, t, "uncancellable")?.unwrap_or(false);
    let persists_in = persists_in(lua, db, t, "modify")?;
    if !persists_in.is_empty() && on_players.is_some() {
        return Err(rt(
            "modify: `persists_in` is for effects on cards (a player is in no zone)",
        ));
    }
    let effects = targets
        .map(|(target, (characteristic, modify, layer))| Effect {
            timestamp: 0,
            controller,
            source,
            target,
            characteristic,
            modify,
            layer,
            expiry,
            tag,
            uncancellable,
            persists_in: persists_in.clone(),
        })
        .collect();
    Ok(Op::Effect { effects })
}

/// A definition redirect (`ctx:take_definition`): card `target` takes its printed data,
/// abilities and name from the card definition `definition` (a card id; nil: its own
/// again), as an effect with the usual duration, tag, `uncancellable` and `persists_in`.
fn parse_redirect(lua: &Lua, db: &Db, st: &State, t: &dyn Fields) -> mlua::Result<Op> {
    let target = card_of(t, "target")?;
    let definition = match get_as::<Option<String>>(lua, t, "definition")? {
        None => st.obj(target).card,
        Some(id) => db.card_of(&id).ok_or_else(|| {
            rt(format!(
                "take_definition: no card '{id}' in the loaded content (card_ids() lists them)"
            ))
        })?,
    };
    let tag = match get_as::<Option<String>>(lua, t, "tag")? {
        Some(n) => Some(name_in(db, &db.rules.effect_tags, &n)?),
        None => None,
    };
    let source = match &*t.get("source")? {
        Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
        _ => None,
    };
    Ok(Op::Effect {
        effects: vec![Effect {
            timestamp: 0,
            controller: opt_player(st, t, "by")?,
            source,
            target: Target::Obj(target),
            characteristic: db
                .names
                .get(crate::state::DEFINITION)
                .ok_or_else(|| rt("take_definition: the engine did not name redirects"))?,
            modify: Modify::Definition(definition),
            layer: 0,
            expiry: expiry_of(lua, db, st, t)?,
            tag,
            uncancellable: get_as::<Option<bool>>(lua, t, "uncancellable")?.unwrap_or(false),
            persists_in: persists_in(lua, db, t, "take_definition")?,
        }],
    })
}

/// An effect's modification of a characteristic of kind `kind` with layers `layers`
/// (`what` names it in errors): the operation `op` with `value`, in the layer named `layer`
/// or else the last that holds `op`.
fn modification(
    db: &Db,
    what: &str,
    kind: CharKind,
    layers: &[crate::rules::Layer],
    op: ModOp,
    layer: Option<&str>,
    value: &Value,
) -> mlua::Result<(Modify, u8)> {
    let ops = crate::rules::ops_of(kind);
    if !ops.contains(&op) {
        return Err(rt(format!(
            "modify: '{what}' is {}: {} does not apply to it ({})",
            match kind {
                CharKind::Int => "an integer",
                CharKind::Set => "a set of names",
            },
            op.name(),
            ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(", ")
        )));
    }
    let l = crate::rules::layer_index(layers, what, op, layer)
        .map_err(|e| rt(format!("modify: {e}")))?;
    let num = || -> mlua::Result<i64> {
        match value {
            v @ (Value::Integer(_) | Value::Number(_)) => {
                numbers::int(v, &format!("modify {}: value", op.name()))
            }
            other => Err(rt(format!(
                "modify {}: value should be an integer, not {}",
                op.name(),
                other.type_name()
            ))),
        }
    };
    let name = |v: &Value| -> mlua::Result<Sym> {
        match v {
            Value::String(s) => db.names.get(&s.to_string_lossy()).ok_or_else(|| {
                rt(format!(
                    "modify {}: unknown name '{}'",
                    op.name(),
                    s.to_string_lossy()
                ))
            }),
            other => Err(rt(format!(
                "modify {}: value should be a name, not {}",
                op.name(),
                other.type_name()
            ))),
        }
    };
    let modify = match (kind, op) {
        (_, ModOp::Add) => Modify::Add(num()?),
        (_, ModOp::SetBase) => Modify::SetBase(num()?),
        (CharKind::Int, ModOp::Set) => Modify::Set(num()?),
        (CharKind::Set, ModOp::Set) => {
            let mut list: Vec<Sym> = Vec::new();
            match value {
                Value::Table(t) => {
                    for v in t.sequence_values::<Value>() {
                        let s = name(&v?)?;
                        if !list.contains(&s) {
                            list.push(s);
                        }
                    }
                }
                v => list.push(name(v)?),
            }
            Modify::SetNames(list.into())
        }
        (_, ModOp::Grant) => Modify::Grant(name(value)?),
        (_, ModOp::Revoke) => Modify::Revoke(name(value)?),
    };
    Ok((modify, l))
}
