//! The commonest operations the prelude yields (`move`, `orientation`, `emit`, `expire` in
//! their positional form; `counter`, `flag`, `value`, `face`, `token` as a table, read as a
//! record), parsed from their values read in place (`sandbox::raw_yield`) instead of through mlua values: the
//! same operations, checks and errors as [`super::parse_positional`]. Only values of the
//! shapes [`OpYields::fits`] accepts come here (a card is a cached handle, a name a string,
//! a number whole...); any other yield is converted by mlua and parsed as before, so its
//! errors read as they always did.

use super::parse::{move_face, name_in, place_at, placed_in_order, rt};
use super::*;
use crate::sandbox::limits::DataBudget;
use crate::sandbox::raw_yield::{Raw, Select};
use crate::state::values::CardRef;
use crate::vocabulary::LOG_EVENT;

/// Selects the operations parsed here (`coroutine.yield("op", kind, source, ...)`).
pub struct OpYields;

impl Select for OpYields {
    fn select(tag: &[u8], kind: &[u8]) -> Option<&'static str> {
        if tag != b"op" {
            return None;
        }
        Some(match kind {
            b"move" => "move",
            b"orientation" => "orientation",
            b"emit" => "emit",
            b"expire" => "expire",
            _ => return None,
        })
    }

    fn record_tag(tag: &[u8]) -> bool {
        tag == b"op"
    }

    fn select_record(tag: &[u8], kind: &[u8]) -> Option<&'static str> {
        if tag != b"op" {
            return None;
        }
        Some(match kind {
            b"counter" => "counter",
            b"flag" => "flag",
            b"value" => "value",
            b"face" => "face",
            b"token" => "token",
            _ => return None,
        })
    }

    fn fits(kind: &str, v: &[Raw]) -> bool {
        let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
        let card = |i| matches!(at(i), Raw::Nil | Raw::Card(_));
        let int = |i| matches!(at(i), Raw::Nil | Raw::Int(_));
        let text = |i| matches!(at(i), Raw::Nil | Raw::Text(_));
        let list = |i| match at(i) {
            Raw::Nil | Raw::Cards(_) => true,
            Raw::Record(r) => r.is_empty(),
            _ => false,
        };
        match kind {
            // source, cards, zone, player, position, face, orientation, reason, by, host
            "move" => {
                card(0)
                    && (card(1) || list(1))
                    && text(2)
                    && int(3)
                    && match at(4) {
                        Raw::Text(p) => p == "top" || p == "bottom",
                        other => matches!(other, Raw::Nil | Raw::Int(_)),
                    }
                    && text(5)
                    && text(6)
                    && text(7)
                    && int(8)
                    && card(9)
            }
            // source, card, cards, value, reason, by
            "orientation" => {
                card(0)
                    && (matches!(at(1), Raw::Card(_)) || !matches!(at(2), Raw::Nil))
                    && card(1)
                    && list(2)
                    && matches!(at(3), Raw::Text(_))
                    && text(4)
                    && int(5)
            }
            // source, name, data, by
            "emit" => {
                card(0)
                    && matches!(at(1), Raw::Text(_))
                    && matches!(at(2), Raw::Record(_))
                    && int(3)
            }
            // source, point, player, count, card
            "expire" => {
                card(0)
                    && matches!(at(1), Raw::Text(_))
                    && int(2)
                    && match at(3) {
                        Raw::Int(n) => u32::try_from(*n).is_ok(),
                        other => matches!(other, Raw::Nil),
                    }
                    && card(4)
            }
            "counter" | "flag" | "value" | "face" | "token" => match at(0) {
                Raw::Record(r) => record_fits(kind, r),
                _ => false,
            },
            _ => false,
        }
    }
}

/// The entry `key` of a record (nil when it has none).
fn field<'a>(r: &'a [(String, Raw)], key: &str) -> &'a Raw {
    r.iter()
        .find(|(k, _)| k == key)
        .map_or(&Raw::Nil, |(_, v)| v)
}

/// Whether a table-form operation's entries are all of the types `parse_fields` takes
/// without converting them (a name a string, a number whole, a card a cached handle, a
/// flag a boolean); a list of cards (`cards`) is not read here.
fn record_fits(kind: &str, r: &[(String, Raw)]) -> bool {
    let at = |k: &str| field(r, k);
    let card = |k| matches!(at(k), Raw::Card(_));
    let int = |k| matches!(at(k), Raw::Int(_));
    let name = |k| matches!(at(k), Raw::Text(_));
    let opt_int = |k| matches!(at(k), Raw::Nil | Raw::Int(_));
    let opt_name = |k| matches!(at(k), Raw::Nil | Raw::Text(_));
    let flag = |k| matches!(at(k), Raw::Bool(_));
    matches!(at("source"), Raw::Nil | Raw::Card(_))
        && opt_int("by")
        && opt_name("reason")
        && match kind {
            "face" => card("card") && flag("up"),
            "flag" => name("flag") && card("card") && flag("on"),
            "counter" => {
                name("counter") && int("amount") && card("card") && matches!(at("cards"), Raw::Nil)
            }
            "token" => {
                name("id")
                    && name("zone")
                    && int("player")
                    && opt_name("orientation")
                    && opt_name("face")
            }
            "value" => name("key") && opt_int("player") && opt_int("value") && opt_int("add"),
            _ => false,
        }
}

/// An operation of a kind [`OpYields`] selects, from values it accepted: its steps, whether
/// its result is a list, the acting card, and whether it is one step over a list of cards.
pub fn parse_raw(
    db: &Db,
    st: &State,
    kind: &str,
    v: &[Raw],
) -> (mlua::Result<Vec<Op>>, bool, Option<ObjId>, bool) {
    let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
    let source = match at(0) {
        Raw::Card(c) => Some(*c),
        _ => None,
    };
    match kind {
        "move" => (
            parse_move(db, st, v),
            matches!(at(9), Raw::Nil),
            source,
            false,
        ),
        "orientation" => (
            parse_orientation(db, st, v),
            false,
            source,
            !matches!(at(2), Raw::Nil),
        ),
        "emit" => (parse_emit(db, st, v), false, source, false),
        "expire" => (parse_expire(db, st, v), false, source, false),
        "counter" | "flag" | "value" | "face" | "token" => {
            let r: &[(String, Raw)] = match at(0) {
                Raw::Record(r) => r,
                _ => &[],
            };
            let source = match field(r, "source") {
                Raw::Card(c) => Some(*c),
                _ => None,
            };
            (parse_record(db, st, kind, r), false, source, false)
        }
        k => (
            Err(rt(format!("unknown operation '{k}'"))),
            false,
            source,
            false,
        ),
    }
}

fn player(st: &State, v: &Raw) -> mlua::Result<Option<PlayerId>> {
    match v {
        Raw::Int(p) => Ok(Some(player_arg(st, *p)?)),
        _ => Ok(None),
    }
}

fn text(v: &Raw) -> Option<&str> {
    match v {
        Raw::Text(s) => Some(s),
        _ => None,
    }
}

fn cards(v: &Raw) -> Vec<ObjId> {
    match v {
        Raw::Card(c) => vec![*c],
        Raw::Cards(l) => l.clone(),
        _ => Vec::new(),
    }
}

/// As `parse_fields`' "move", in the same order of checks.
fn parse_move(db: &Db, st: &State, v: &[Raw]) -> mlua::Result<Vec<Op>> {
    let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
    let by = player(st, at(8))?;
    let reason = text(at(7)).map(str::to_string);
    let cards = cards(at(1));
    let host = match at(9) {
        Raw::Card(c) => Some(*c),
        _ => None,
    };
    let zone = match text(at(2)) {
        Some(z) => Some(db.rules.zone_index(&db.names, z).map_err(rt)?),
        None if host.is_some() => None,
        None => return Err(rt("move: say which `zone`")),
    };
    let position = match at(4) {
        Raw::Text(s) if s == "bottom" => Position::Bottom,
        Raw::Int(n) => place_at(*n)?,
        _ => Position::Top,
    };
    placed_in_order(db, zone, position)?;
    let face = move_face(text(at(5)))?;
    let orientation = match text(at(6)) {
        Some(o) => Some(name_in(db, &db.rules.orientations, o)?),
        None => None,
    };
    let player = player(st, at(3))?;
    Ok(cards
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
        .collect())
}

/// As `parse_fields`' "orientation".
fn parse_orientation(db: &Db, st: &State, v: &[Raw]) -> mlua::Result<Vec<Op>> {
    let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
    let by = player(st, at(5))?;
    let reason = text(at(4)).map(str::to_string);
    let value = name_in(db, &db.rules.orientations, text(at(3)).unwrap_or_default())?;
    let list = if matches!(at(2), Raw::Nil) {
        at(1)
    } else {
        at(2)
    };
    Ok(cards(list)
        .into_iter()
        .map(|card| Op::Orientation {
            card,
            value,
            reason: reason.clone(),
            by,
        })
        .collect())
}

/// As `parse_fields`' "expire".
fn parse_expire(db: &Db, st: &State, v: &[Raw]) -> mlua::Result<Vec<Op>> {
    let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
    let point = name_in(db, &db.rules.durations, text(at(1)).unwrap_or_default())?;
    let count = match at(3) {
        Raw::Int(n) => u32::try_from(*n).unwrap_or(1),
        _ => 1,
    };
    let card = match at(4) {
        Raw::Card(c) => Some(*c),
        _ => None,
    };
    Ok(vec![Op::Expire {
        point,
        player: player(st, at(2))?,
        count,
        card,
    }])
}

/// As `parse_fields`' "emit": the data's keys checked against the event's declared fields,
/// then read in the order of their names.
fn parse_emit(db: &Db, st: &State, v: &[Raw]) -> mlua::Result<Vec<Op>> {
    let at = |i: usize| v.get(i).unwrap_or(&Raw::Nil);
    let by = player(st, at(3))?;
    let name = text(at(1)).unwrap_or_default();
    let sym = db.names.get(name);
    if name != LOG_EVENT && !sym.is_some_and(|s| db.rules.events.contains(&s)) {
        return Err(rt(format!(
            "emit: unknown event '{name}': declare it in game.yaml `events`"
        )));
    }
    let fields = sym.and_then(|s| db.rules.event_fields.get(&s));
    let mut e = Event::named(name);
    e.player = by;
    let Raw::Record(data) = at(2) else {
        return Err(rt("emit: its data should be a table"));
    };
    let mut budget = DataBudget::default();
    let mut keys: Vec<&(String, Raw)> = Vec::with_capacity(data.len());
    for entry in data {
        budget.take(0)?;
        let k = &entry.0;
        if let Some(fields) = fields
            && !fields.iter().any(|f| **f == **k)
        {
            return Err(rt(format!(
                "emit: event '{name}' has no field '{k}' (its fields: {}): declare it in \
                 game.yaml `events`",
                fields.join(", ")
            )));
        }
        keys.push(entry);
    }
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, v) in keys {
        match (k.as_str(), v) {
            ("card", Raw::Card(c)) => e.card = Some(*c),
            ("player", Raw::Int(p)) => e.player = Some(player_arg(st, *p)?),
            ("amount", Raw::Int(n)) => e.amount = *n,
            ("reason", Raw::Text(s)) => e.reason = Some(s.clone()),
            ("key", Raw::Text(s)) => e.key = Some(s.clone()),
            _ => {
                // As `lua_to_val` at depth 0.
                budget.take(0)?;
                let val = match v {
                    Raw::Bool(b) => Val::Bool(*b),
                    Raw::Int(i) => Val::Int(*i),
                    Raw::Text(s) => Val::Str(s.clone()),
                    Raw::Card(c) => Val::Card(CardRef { card: *c }),
                    _ => continue,
                };
                e.data.push((k.clone(), val));
            }
        }
    }
    Ok(vec![Op::Emit(e)])
}

/// As `parse_fields` of a table-form operation (`op(self, { kind = ... })`), from entries
/// [`record_fits`] accepted: the same checks, in the same order, with the same errors.
fn parse_record(db: &Db, st: &State, kind: &str, r: &[(String, Raw)]) -> mlua::Result<Vec<Op>> {
    let at = |k: &str| field(r, k);
    let card = |k: &str| match at(k) {
        Raw::Card(c) => *c,
        _ => unreachable!("record_fits: a card"),
    };
    let on = |k: &str| matches!(at(k), Raw::Bool(true));
    let int = |k: &str| match at(k) {
        Raw::Int(n) => Some(*n),
        _ => None,
    };
    let name = |k: &str| text(at(k)).unwrap_or_default();
    let by = player(st, at("by"))?;
    let reason = text(at("reason")).map(str::to_string);
    Ok(match kind {
        "face" => vec![Op::Face {
            card: card("card"),
            up: on("up"),
        }],
        "flag" => {
            let flag = Rules::lookup(&db.names, &db.rules.flags, name("flag")).map_err(rt)?;
            vec![Op::Flag {
                card: card("card"),
                flag,
                on: on("on"),
            }]
        }
        "counter" => {
            let counter =
                Rules::lookup(&db.names, &db.rules.counters, name("counter")).map_err(rt)?;
            vec![Op::Counter {
                card: card("card"),
                counter,
                amount: int("amount").unwrap_or_default(),
                reason,
                by,
            }]
        }
        "token" => {
            let id = name("id");
            let card = db
                .card_of(id)
                .ok_or_else(|| rt(format!("create_token: no card '{id}'")))?;
            let p = int("player").unwrap_or_default();
            let orientation = match text(at("orientation")) {
                Some(o) => Some(name_in(db, &db.rules.orientations, o)?),
                None => None,
            };
            let face = text(at("face")).map(|f| f != "down");
            vec![Op::Token {
                card,
                zone: zone_arg(db, st, name("zone"), Some(p))?,
                player: player_arg(st, p)?,
                orientation,
                face,
            }]
        }
        "value" => parse_value(db, st, r)?,
        k => return Err(rt(format!("unknown operation '{k}'"))),
    })
}

/// As `parse_fields`' "value".
fn parse_value(db: &Db, st: &State, r: &[(String, Raw)]) -> mlua::Result<Vec<Op>> {
    let key = text(field(r, "key")).unwrap_or_default();
    let player = player(st, field(r, "player"))?;
    let list = if player.is_some() {
        &db.rules.player_values
    } else {
        &db.rules.game_values
    };
    if player.is_some()
        && let Some(pi) = db.rules.player_char_index(&db.names, key)
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
    let index = Rules::lookup(&db.names, list, key).map_err(rt)?;
    let int = |k: &str| match field(r, k) {
        Raw::Int(n) => Some(*n),
        _ => None,
    };
    Ok(vec![Op::Value {
        player,
        index,
        set: int("value"),
        add: int("add"),
    }])
}
