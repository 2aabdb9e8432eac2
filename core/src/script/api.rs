//! The kernel's read API for scripts (the `K` table the prelude wraps as `ctx` methods),
//! and conversions between Lua values and kernel values.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::IntoLua as _;
use mlua::{Lua, LuaSerdeExt, Result, Table, Value};

use crate::characteristics;
use crate::db::{AbilityKind, Db};
use crate::rules::Rules;
use crate::sandbox::handle::{CardUd, Handle};
use crate::sandbox::limits::{self, DataBudget};
use crate::sandbox::raw_args::{self, Args, Code, Decoder, Kind, Outcome};
use crate::sandbox::vm::Host;
use crate::state::events::Event;
use crate::state::usage::{UseScope, Window};
use crate::state::values::{CardRef, PlayerRef, Val};
use crate::state::{ObjId, PlayerId, State, ZoneId};

/// The database and current state, for a callback, and the memory guard that lets the
/// kernel's own work in the callback run without the script's limit (see
/// [`crate::sandbox::vm::Host`]).
pub fn env(lua: &Lua) -> Result<(Rc<Db>, Rc<RefCell<State>>, Host)> {
    let db = lua
        .app_data_ref::<Rc<Db>>()
        .ok_or_else(|| mlua::Error::runtime("the engine is not loaded yet"))?
        .clone();
    let st = db.current.borrow().clone().ok_or_else(|| {
        mlua::Error::runtime(
            "no game is running (game reads are not available while content loads)",
        )
    })?;
    let host = db.memory.host(lua);
    Ok((db, st, host))
}

/// A zone's name.
pub fn zone_name<'a>(db: &'a Db, st: &State, z: ZoneId) -> &'a str {
    &db.rules.zones[st.zone(z).decl as usize].1.name
}

/// Whether a player is out of the game.
pub fn player_out(st: &State, p: PlayerId) -> bool {
    st.players[p as usize].out
}

/// A 1-based player number from Lua, checked.
pub fn player_arg(st: &State, p: i64) -> Result<PlayerId> {
    if p < 1 || p > st.nplayers as i64 {
        return Err(mlua::Error::runtime(format!(
            "player {p} does not exist (players are 1..{})",
            st.nplayers
        )));
    }
    Ok((p - 1) as PlayerId)
}

/// The zone instance named `zone` of `player` (1-based).
pub fn zone_arg(db: &Db, st: &State, zone: &str, player: Option<i64>) -> Result<ZoneId> {
    let decl = db
        .rules
        .zone_index(&db.names, zone)
        .map_err(mlua::Error::runtime)?;
    let p = match player {
        Some(p) => player_arg(st, p)?,
        None => 0,
    };
    Ok(st.zone_id(decl, p))
}

/// A list of 1-based player numbers.
fn players(lua: &Lua, list: Vec<PlayerId>) -> Result<Table> {
    lua.create_sequence_from(list.into_iter().map(|p| p as i64 + 1))
}

fn card_list(lua: &Lua, ids: impl ExactSizeIterator<Item = ObjId>) -> Result<Table> {
    crate::sandbox::handle::card_table(lua, ids)
}

/// A zone read's filter (`ctx:cards(zone, p, {orientation = "active", category = "don"})`):
/// the cards must have every property it names.
struct CardFilter {
    orientation: Option<crate::names::Sym>,
    category: Option<crate::names::Sym>,
}

impl CardFilter {
    fn of(db: &Db, t: Option<Table>) -> Result<Option<CardFilter>> {
        let Some(t) = t else {
            return Ok(None);
        };
        let name =
            |key: &str, list: &crate::names::Declared| -> Result<Option<crate::names::Sym>> {
                match t.raw_get::<Option<mlua::LuaString>>(key)? {
                    None => Ok(None),
                    Some(s) => {
                        let i = Rules::lookup(&db.names, list, &s.to_str()?)
                            .map_err(mlua::Error::runtime)?;
                        Ok(Some(list.syms[i]))
                    }
                }
            };
        Ok(Some(CardFilter {
            orientation: name("orientation", &db.rules.orientations)?,
            category: name("category", &db.rules.categories)?,
        }))
    }

    fn passes(&self, db: &Db, st: &State, id: ObjId) -> bool {
        let o = st.obj(id);
        self.orientation.is_none_or(|w| o.orientation == w)
            && self
                .category
                .is_none_or(|c| db.cards[o.definition as usize].category == c)
    }
}

/// The database the kernel functions that read their arguments in place decode names with
/// (`sandbox::raw_args`): the VM's, as [`set_db`] last said (none before the engine has one:
/// then every call goes the mlua way).
#[derive(Clone, Default)]
struct RawDb(Rc<RefCell<Option<Rc<Db>>>>);

/// The VM's database is now `db` (made, or a reload chain's engine taking its turn).
pub fn set_db(lua: &Lua, db: &Rc<Db>) {
    if let Some(r) = lua.app_data_ref::<RawDb>() {
        *r.0.borrow_mut() = Some(db.clone());
    }
}

/// The filter fields a zone read's decoder reads.
const ZONE_KEYS: &[&std::ffi::CStr] = &[c"orientation", c"category"];

/// A zone read's arguments as codes: the zone's declaration, the player (nil when not
/// given), the filter's orientation and category symbols (nil when not asked).
type ZoneCodes = (i64, Option<i64>, Option<u32>, Option<u32>);

/// Reads `(zone, player, filter)` of `K.cards`/`K.count` in place: a declared zone's name, a
/// whole number or nil, and nil or a plain table whose `orientation` and `category` are
/// declared names or nil. Anything else (an unknown name, a wrong type) goes the mlua way,
/// which says what is wrong.
fn zone_codes(db: &Db, a: &Args<'_>) -> Option<[Code; raw_args::CODES]> {
    let zone = std::str::from_utf8(a.text(1)?).ok()?;
    let decl = db.rules.zone_index(&db.names, zone).ok()?;
    let player = match a.kind(2) {
        Kind::Nil => Code::Nil,
        _ => Code::Int(a.int(2)?),
    };
    let mut filter = [Code::Nil, Code::Nil];
    if a.kind(3) != Kind::Nil {
        let lists = [&db.rules.orientations, &db.rules.categories];
        for ((key, list), out) in (0..).zip(lists).zip(&mut filter) {
            let i = a.field(3, key)?;
            if a.kind(i) != Kind::Nil {
                let name = std::str::from_utf8(a.text(i)?).ok()?;
                let at = Rules::lookup(&db.names, list, name).ok()?;
                *out = Code::Int(list.syms[at].0 as i64);
            }
        }
    }
    let [orientation, category] = filter;
    Some([
        Code::Int(decl as i64),
        player,
        orientation,
        category,
        Code::Nil,
        Code::Nil,
    ])
}

/// The codes as the integer function reads them.
fn zone_codes_read(codes: &[Code; raw_args::CODES]) -> ZoneCodes {
    let int = |c: Code| match c {
        Code::Int(i) => Some(i),
        _ => None,
    };
    let sym = |c: Code| int(c).and_then(|i| u32::try_from(i).ok());
    (
        int(codes[0]).unwrap_or(-1),
        int(codes[1]),
        sym(codes[2]),
        sym(codes[3]),
    )
}

/// `K.cards` (`count` false) or `K.count` (true) answered in place when the game can be read
/// without Lua: the count, or the list of the zone's cards that pass the filter (at most
/// [`raw_args::LIST`]); anything else the integer function answers (errors included).
fn zone_decoder(cell: &RawDb, count: bool) -> Decoder {
    let cell = cell.0.clone();
    Box::new(
        move |a: &Args<'_>, ids: &mut [u32; raw_args::LIST]| -> Outcome {
            let Ok(db) = cell.try_borrow() else {
                return Outcome::HandOn;
            };
            let Some(db) = db.as_ref() else {
                return Outcome::HandOn;
            };
            let Some(codes) = zone_codes(db, a) else {
                return Outcome::HandOn;
            };
            let Ok(current) = db.current.try_borrow() else {
                return Outcome::Codes(codes);
            };
            let Some(st) = current.as_ref().and_then(|s| s.try_borrow().ok()) else {
                return Outcome::Codes(codes);
            };
            let Ok((z, f)) = zone_of_codes(db, &st, zone_codes_read(&codes)) else {
                return Outcome::Codes(codes);
            };
            let cards = &st.zone(z).cards;
            let kept = cards
                .iter()
                .filter(|c| f.as_ref().is_none_or(|f| f.passes(db, &st, **c)));
            if count {
                return Outcome::Int(kept.count() as i64);
            }
            let mut n = 0;
            for c in kept {
                let Some(slot) = ids.get_mut(n) else {
                    return Outcome::Codes(codes);
                };
                *slot = c.0;
                n += 1;
            }
            Outcome::Cards(n, codes)
        },
    )
}

/// The zone and filter of a zone read given as codes (the player checked as `zone_arg`
/// checks it).
fn zone_of_codes(
    db: &Db,
    st: &State,
    (decl, player, orientation, category): ZoneCodes,
) -> Result<(ZoneId, Option<CardFilter>)> {
    let decl = usize::try_from(decl)
        .ok()
        .filter(|d| *d < db.rules.zones.len())
        .ok_or_else(|| mlua::Error::runtime("no such zone"))?;
    let p = match player {
        Some(p) => player_arg(st, p)?,
        None => 0,
    };
    let filter = (orientation.is_some() || category.is_some()).then_some(CardFilter {
        orientation: orientation.map(crate::names::Sym),
        category: category.map(crate::names::Sym),
    });
    Ok((st.zone_id(decl, p), filter))
}

/// The filter fields `K.abilities`'s decoder reads.
const ABILITY_KEYS: &[&std::ffi::CStr] = &[c"delayed", c"kind", c"timing", c"player", c"card"];

/// `K.abilities`'s filter as codes: kind (0 triggered, 1 activated, 2 static, 3
/// replacement), timing symbol, player, card object, delayed.
type AbilityCodes = (Option<u8>, Option<u32>, Option<i64>, Option<u32>, bool);

/// Reads `K.abilities`'s filter in place: a plain table whose `delayed` is a boolean or nil,
/// `kind` a kind's name, `timing` a known name, `player` a whole number and `card` a card
/// handle (each may be nil). Anything else goes the mlua way ([`AbilityQuery::of`]).
fn ability_decoder(cell: &RawDb) -> Decoder {
    let cell = cell.0.clone();
    Box::new(
        move |a: &Args<'_>, _: &mut [u32; raw_args::LIST]| -> Outcome {
            match cell.try_borrow() {
                Ok(db) => match db.as_ref().and_then(|db| ability_codes(db, a)) {
                    Some(codes) => Outcome::Codes(codes),
                    None => Outcome::HandOn,
                },
                Err(_) => Outcome::HandOn,
            }
        },
    )
}

/// The codes of `K.abilities`'s filter (see [`ability_decoder`]).
fn ability_codes(db: &Db, a: &Args<'_>) -> Option<[Code; raw_args::CODES]> {
    {
        // (In ABILITY_KEYS's order.)
        let delayed = a.field(1, 0)?;
        let (kind, timing) = (a.field(1, 1)?, a.field(1, 2)?);
        let (player, card) = (a.field(1, 3)?, a.field(1, 4)?);
        let delayed = match a.kind(delayed) {
            Kind::Nil => false,
            _ => a.bool(delayed)?,
        };
        let kind = match a.kind(kind) {
            Kind::Nil => Code::Nil,
            _ => Code::Int(match a.text(kind)? {
                b"triggered" => 0,
                b"activated" => 1,
                b"static" => 2,
                b"replacement" => 3,
                _ => return None,
            }),
        };
        let timing = match a.kind(timing) {
            Kind::Nil => Code::Nil,
            _ => {
                let name = std::str::from_utf8(a.text(timing)?).ok()?;
                Code::Int(db.names.get(name)?.0 as i64)
            }
        };
        let player = match a.kind(player) {
            Kind::Nil => Code::Nil,
            _ => Code::Int(a.int(player)?),
        };
        let card = match a.kind(card) {
            Kind::Nil => Code::Nil,
            _ => Code::Int(a.handle(card)?.0 as i64),
        };
        Some([kind, timing, player, card, Code::Bool(delayed), Code::Nil])
    }
}

/// The query [`ability_decoder`]'s codes stand for.
fn query_of_codes((kind, timing, player, card, delayed): AbilityCodes) -> AbilityQuery {
    AbilityQuery {
        kind: kind.map(|k| match k {
            0 => AbilityKind::Triggered,
            1 => AbilityKind::Activated,
            2 => AbilityKind::Static,
            _ => AbilityKind::Replacement,
        }),
        timing: timing.map(crate::names::Sym),
        player,
        only: card.map(ObjId),
        delayed,
    }
}

/// The cards of zone `z` that pass `f` (all without one), as a new list: `K.cards` by either
/// of its paths (the arguments read by mlua or in place).
fn zone_cards(lua: &Lua, db: &Db, st: &State, z: ZoneId, f: Option<CardFilter>) -> Result<Table> {
    let cards = &st.zone(z).cards;
    match f {
        None => card_list(lua, cards.iter().copied()),
        Some(f) => {
            let kept: Vec<ObjId> = cards
                .iter()
                .copied()
                .filter(|c| f.passes(db, st, *c))
                .collect();
            card_list(lua, kept.into_iter())
        }
    }
}

/// How many cards of zone `z` pass `f`: `K.count` by either of its paths.
fn zone_count(db: &Db, st: &State, z: ZoneId, f: Option<CardFilter>) -> usize {
    let cards = &st.zone(z).cards;
    match f {
        None => cards.len(),
        Some(f) => cards.iter().filter(|c| f.passes(db, st, **c)).count(),
    }
}

/// Installs the `K` table of read functions and returns it.
pub fn install(lua: &Lua) -> Result<Table> {
    let k = lua.create_table()?;
    let raw_db = RawDb::default();
    lua.set_app_data(raw_db.clone());
    let slow_cards = lua.create_function(
        |lua, (zone, player, filter): (String, Option<i64>, Option<Table>)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let z = zone_arg(&db, &st, &zone, player)?;
            zone_cards(lua, &db, &st, z, CardFilter::of(&db, filter)?)
        },
    )?;
    let fast_cards = lua.create_function(|lua, codes: ZoneCodes| {
        let (db, st, _host) = env(lua)?;
        let st = st.borrow();
        let (z, f) = zone_of_codes(&db, &st, codes)?;
        zone_cards(lua, &db, &st, z, f)
    })?;
    k.set(
        "cards",
        raw_args::front(
            lua,
            slow_cards,
            fast_cards,
            ZONE_KEYS,
            zone_decoder(&raw_db, false),
        )?,
    )?;
    k.set(
        "top",
        lua.create_function(|lua, (zone, player, n): (String, Option<i64>, i64)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let z = zone_arg(&db, &st, &zone, player)?;
            let cards = &st.zone(z).cards;
            let n = usize::try_from(n).unwrap_or(0).min(cards.len());
            card_list(lua, cards.iter().rev().take(n).copied())
        })?,
    )?;
    let slow_count = lua.create_function(
        |lua, (zone, player, filter): (String, Option<i64>, Option<Table>)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let z = zone_arg(&db, &st, &zone, player)?;
            Ok(zone_count(&db, &st, z, CardFilter::of(&db, filter)?))
        },
    )?;
    let fast_count = lua.create_function(|lua, codes: ZoneCodes| {
        let (db, st, _host) = env(lua)?;
        let st = st.borrow();
        let (z, f) = zone_of_codes(&db, &st, codes)?;
        Ok(zone_count(&db, &st, z, f))
    })?;
    k.set(
        "count",
        raw_args::front(
            lua,
            slow_count,
            fast_count,
            ZONE_KEYS,
            zone_decoder(&raw_db, true),
        )?,
    )?;
    k.set(
        "turn_player",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            Ok(st.turn_player as i64 + 1)
        })?,
    )?;
    k.set(
        "turn",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let turn = st.borrow().turn;
            Ok(turn)
        })?,
    )?;
    k.set(
        "phase",
        lua.create_function(|lua, ()| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            Ok(st
                .phase
                .map(|i| db.rules.manifest.turn.phases[i].name.clone()))
        })?,
    )?;
    k.set(
        "nplayers",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let n = st.borrow().nplayers;
            Ok(n)
        })?,
    )?;
    k.set(
        "option",
        lua.create_function(|lua, name: String| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let i = db.rules.option_index(&name).map_err(mlua::Error::runtime)?;
            Ok(match &st.seats.options[i] {
                crate::content::OptionValue::Int(n) => Value::Integer(*n),
                crate::content::OptionValue::Name(s) => Value::String(lua.create_string(s)?),
            })
        })?,
    )?;
    k.set(
        "match_context",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let m = &st.match_context;
            let previous = lua.create_table()?;
            for r in &m.previous {
                let t = lua.create_table()?;
                t.set("winners", players(lua, r.winners.clone())?)?;
                t.set("reason", r.reason.as_str())?;
                previous.push(t)?;
            }
            let out = lua.create_table()?;
            out.set("game", m.game_number())?;
            out.set("previous", previous)?;
            Ok(out)
        })?,
    )?;
    k.set(
        "players_from",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            players(lua, st.players_from(p))
        })?,
    )?;
    k.set(
        "turn_order",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            players(lua, st.turn_order())
        })?,
    )?;
    k.set(
        "turn_side",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            players(lua, st.turn_side())
        })?,
    )?;
    k.set(
        "is_turn_of",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            Ok(st.is_turn_of(p))
        })?,
    )?;
    k.set(
        "team",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            Ok(st.team_of(p) as i64 + 1)
        })?,
    )?;
    k.set(
        "teams",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let t = lua.create_table()?;
            for (i, members) in st.seats.teams.iter().enumerate() {
                t.raw_set(i + 1, players(lua, members.clone())?)?;
            }
            Ok(t)
        })?,
    )?;
    k.set(
        "allies",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            let team = st.team_of(p);
            let list = st
                .players_from(p)
                .into_iter()
                .filter(|q| st.team_of(*q) == team);
            players(lua, list.collect())
        })?,
    )?;
    k.set(
        "opponents",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            let team = st.team_of(p);
            let list = st
                .players_from(p)
                .into_iter()
                .filter(|q| st.team_of(*q) != team);
            players(lua, list.collect())
        })?,
    )?;
    k.set(
        "direction",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            Ok(match st.seats.direction {
                crate::content::Direction::Clockwise => "clockwise",
                crate::content::Direction::Counterclockwise => "counterclockwise",
            })
        })?,
    )?;
    k.set(
        "in_game",
        lua.create_function(|lua, p: i64| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            Ok(!player_out(&st, p))
        })?,
    )?;
    // A player value, or a player characteristic: its value as read, or with `raw` its
    // unbounded value.
    k.set(
        "value",
        lua.create_function(|lua, (p, name, raw): (i64, String, Option<bool>)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            if let Some(pi) = db.rules.player_char_index(&db.names, &name) {
                return if raw == Some(true) {
                    characteristics::player_raw(lua, &db, &st, p, pi)
                } else {
                    characteristics::player_value(lua, &db, &st, p, pi)
                };
            }
            let i = Rules::lookup(&db.names, &db.rules.player_values, &name).map_err(|e| {
                if db.rules.player_chars.is_empty() {
                    mlua::Error::runtime(e)
                } else {
                    let chars: Vec<&str> = db
                        .rules
                        .player_chars
                        .iter()
                        .map(|c| c.decl.name.as_str())
                        .collect();
                    mlua::Error::runtime(format!(
                        "{e}; player characteristics: {}",
                        chars.join(", ")
                    ))
                }
            })?;
            Ok(st.players[p as usize].values[i])
        })?,
    )?;
    k.set(
        "game_value",
        lua.create_function(|lua, name: String| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let i = Rules::lookup(&db.names, &db.rules.game_values, &name)
                .map_err(mlua::Error::runtime)?;
            Ok(st.game_values[i])
        })?,
    )?;
    k.set(
        "player_has",
        lua.create_function(|lua, (p, name): (i64, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let p = player_arg(&st, p)?;
            let Some(sym) = db.names.get(&name) else {
                return Ok(false);
            };
            characteristics::player_has(lua, &db, &st, p, sym)
        })?,
    )?;
    k.set(
        "uses",
        lua.create_function(|lua, (subject, key, opts): (Value, String, Value)| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            // The common form first: a card this turn.
            if opts.is_nil()
                && let Value::UserData(ud) = &subject
                && let Ok(c) = ud.borrow::<CardUd>()
            {
                // (A move may make it a new object, with no uses.)
                crate::state::char_cache::read_place(c.0);
                return Ok(st.uses(c.0, limit_key(&key)));
            }
            let (scope, window) = usage_args(&st, "uses", &subject, &opts)?;
            Ok(st.uses_over(&scope, limit_key(&key), window))
        })?,
    )?;
    k.set(
        "running",
        lua.create_function(|lua, name: String| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let Some(want) = db.hooks.procedures.iter().position(|p| p.name == name) else {
                return Err(mlua::Error::runtime(format!(
                    "ctx:running: no procedure '{name}' in game.yaml `procedures`"
                )));
            };
            match st.running.iter().rev().find(|(p, _)| *p == want) {
                Some((_, rec)) => Ok(Value::Table(record_to_lua(lua, &db, rec)?)),
                None => Ok(Value::Nil),
            }
        })?,
    )?;
    k.set(
        "current",
        lua.create_function(|lua, c: CardUd| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            let mut id = c.0;
            crate::state::char_cache::read_place(id);
            while let Some(s) = st.obj(id).successor {
                id = s;
                crate::state::char_cache::read_place(id);
            }
            Ok(CardUd(id))
        })?,
    )?;
    k.set(
        "replacements_applied",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let n = st.borrow().replacements_applied;
            Ok(n)
        })?,
    )?;
    k.set(
        "pending",
        lua.create_function(|lua, ()| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            Ok(st.pending.iter().map(|b| b.items.len()).sum::<usize>())
        })?,
    )?;
    k.set(
        "card_info",
        lua.create_function(|lua, id: String| {
            // Works outside games too (deck checks): needs only the database.
            let db = lua
                .app_data_ref::<Rc<Db>>()
                .ok_or_else(|| mlua::Error::runtime("the engine is not loaded yet"))?
                .clone();
            let Some(ci) = db.card_of(&id) else {
                return Ok(Value::Nil);
            };
            card_info(lua, &db, ci)
        })?,
    )?;
    k.set(
        "card_ids",
        lua.create_function(|lua, filter: Option<Table>| {
            let db = lua
                .app_data_ref::<Rc<Db>>()
                .ok_or_else(|| mlua::Error::runtime("the engine is not loaded yet"))?
                .clone();
            card_ids(lua, &db, filter)
        })?,
    )?;
    k.set(
        "guard",
        lua.create_function(
            |lua, (card, f, args): (Option<CardUd>, mlua::Function, mlua::MultiValue)| {
                let (db, st, _host) = env(lua)?;
                let card_index = card.map(|c| st.borrow().obj(c.0).definition);
                let r = db.budget.slice(|| {
                    let _lua = db.memory.enter(lua);
                    f.call::<Value>(args)
                });
                match r {
                    Ok(v) => Ok(v),
                    Err(e) => {
                        db.contain(e, card_index, "ruleset check")?;
                        Ok(Value::Nil)
                    }
                }
            },
        )?,
    )?;
    k.set(
        "effects",
        lua.create_function(|lua, filter: Option<Table>| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            effects(lua, &db, &st, filter)
        })?,
    )?;
    let slow_abilities = lua.create_function(|lua, filter: Table| {
        let (db, st, _host) = env(lua)?;
        let st = st.borrow();
        abilities(lua, &db, &st, filter)
    })?;
    let fast_abilities = lua.create_function(|lua, codes: AbilityCodes| {
        let (db, st, _host) = env(lua)?;
        let st = st.borrow();
        list_abilities(lua, &db, &st, &query_of_codes(codes), None)
    })?;
    k.set(
        "abilities",
        raw_args::front(
            lua,
            slow_abilities,
            fast_abilities,
            ABILITY_KEYS,
            ability_decoder(&raw_db),
        )?,
    )?;
    Ok(k)
}

/// The ids of every card of the loaded content, sorted; `filter.category` keeps those of
/// one category (an unknown category is an error: a typo would list nothing).
fn card_ids(lua: &Lua, db: &Db, filter: Option<Table>) -> Result<Table> {
    let mut category = None;
    if let Some(f) = filter {
        for pair in f.pairs::<String, Value>() {
            let (k, v) = pair?;
            match (k.as_str(), v) {
                ("category", Value::String(s)) => {
                    let s = s.to_string_lossy();
                    let sym = db
                        .names
                        .get(&s)
                        .filter(|sym| db.rules.categories.index(*sym).is_some())
                        .ok_or_else(|| {
                            mlua::Error::runtime(format!(
                                "card_ids: no category '{s}' (game.yaml `categories`)"
                            ))
                        })?;
                    category = Some(sym);
                }
                (k, _) => {
                    return Err(mlua::Error::runtime(format!(
                        "card_ids: the filter takes `category` (a name), not '{k}'"
                    )));
                }
            }
        }
    }
    let mut ids: Vec<&str> = db
        .cards
        .iter()
        // A card a hot reload removed keeps its data for the games that hold it, not its id.
        .filter(|c| db.card_of(&c.def.id).is_some())
        .filter(|c| category.is_none_or(|s| c.category == s))
        .map(|c| c.def.id.as_str())
        .collect();
    ids.sort_unstable();
    lua.create_sequence_from(ids)
}

/// Printed information of a card definition, as a table.
pub fn card_info(lua: &Lua, db: &Db, ci: u32) -> Result<Value> {
    let c = &db.cards[ci as usize];
    let t = lua.create_table()?;
    for (k, v) in &c.def.fields {
        t.set(k.as_str(), lua.to_value(v)?)?;
    }
    t.set("id", c.def.id.as_str())?;
    t.set("category", c.def.category.as_str())?;
    t.set("name", c.name.as_str())?;
    t.set("label", c.label.as_str())?;
    let kws = lua.create_table()?;
    for (i, (s, _)) in c.keyword_values.iter().enumerate() {
        kws.raw_set(i + 1, db.names.name(*s))?;
    }
    t.set("keywords", kws)?;
    t.set("abilities", c.outline.len())?;
    t.set("printed_abilities", printed_abilities(db, ci))?;
    Ok(Value::Table(t))
}

/// How many abilities a card definition prints: its script's abilities (dormant ones too:
/// they are part of its text) and its keywords. 0 for a card with no text.
pub fn printed_abilities(db: &Db, ci: u32) -> usize {
    let c = &db.cards[ci as usize];
    c.outline.len() + c.keyword_values.len()
}

/// The key under which a limited ability's uses are counted: a stable hash of its name.
pub fn limit_key(key: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in key.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// Whose uses `ctx:use`/`ctx:uses` count, and over which turns, from their arguments:
/// `subject` a card (that object), a player (that player; with `opts.name`, that player and
/// that name) or `"game"`; `opts.over` `"turn"` (the default), `"game"` or a number of turns
/// (this one and those before it). `what` names the call in errors.
pub fn usage_args(
    st: &State,
    what: &str,
    subject: &Value,
    opts: &Value,
) -> Result<(UseScope, Window)> {
    let err = |m: String| mlua::Error::runtime(format!("{what}: {m}"));
    let mut name = None;
    let mut window = Window::Turns(1);
    let opts = match opts {
        Value::Nil => None,
        Value::Table(t) => Some(t),
        other => {
            return Err(err(format!(
                "the options should be a table such as {{name = ..., over = ...}}, not a {}",
                other.type_name()
            )));
        }
    };
    if let Some(opts) = opts {
        let mut keys = Vec::new();
        for pair in opts.clone().pairs::<Value, Value>() {
            let (k, _) = pair?;
            keys.push(match k {
                Value::String(s) => s.to_string_lossy(),
                other => format!("a {}", other.type_name()),
            });
        }
        keys.sort();
        if let Some(k) = keys.iter().find(|k| *k != "name" && *k != "over") {
            return Err(err(format!("unknown option '{k}' (name, over)")));
        }
        name = match opts.get::<Value>("name")? {
            Value::Nil => None,
            Value::String(s) => Some(limits::text(&s, "a name")?),
            other => {
                return Err(err(format!(
                    "`name` should be a card name, not a {}",
                    other.type_name()
                )));
            }
        };
        let bad_over = |v: &str| {
            err(format!(
                "`over` should be \"turn\", \"game\" or a number of turns (1 or more), not {v}"
            ))
        };
        window = match opts.get::<Value>("over")? {
            Value::Nil => Window::Turns(1),
            Value::String(s) if s == "turn" => Window::Turns(1),
            Value::String(s) if s == "game" => Window::Game,
            v @ (Value::Integer(_) | Value::Number(_)) => {
                let n = crate::sandbox::numbers::int(&v, "over")?;
                match u32::try_from(n) {
                    Ok(n) if n >= 1 => Window::Turns(n),
                    _ => return Err(bad_over(&n.to_string())),
                }
            }
            Value::String(s) => return Err(bad_over(&format!("'{}'", s.to_string_lossy()))),
            other => return Err(bad_over(&format!("a {}", other.type_name()))),
        };
    }
    let scope = match subject {
        Value::UserData(ud) => {
            let c = ud.borrow::<CardUd>()?;
            if name.is_some() {
                return Err(err(
                    "`name` counts for a player: pass the player, as in ctx:use(card.owner, key, {name = card.name})".into(),
                ));
            }
            UseScope::Object(c.0)
        }
        v @ (Value::Integer(_) | Value::Number(_)) => {
            let p = player_arg(st, crate::sandbox::numbers::int(v, "a player")?)?;
            match name {
                Some(n) => UseScope::Name(p, n),
                None => UseScope::Player(p),
            }
        }
        Value::String(s) if s == "game" => {
            if name.is_some() {
                return Err(err(
                    "`name` counts for a player: pass the player, not \"game\"".into(),
                ));
            }
            UseScope::Game
        }
        other => {
            return Err(err(format!(
                "whose use is it? a card, a player or \"game\", not {}",
                match other {
                    Value::String(s) => format!("'{}'", s.to_string_lossy()),
                    v => format!("a {}", v.type_name()),
                }
            )));
        }
    };
    Ok((scope, window))
}

/// Abilities of objects in their zones, filtered: {kind, timing, player, card, delayed}.
/// Each entry has `timestamp`: when its card entered its zone, or when an effect gave it.
/// `delayed = true` adds the abilities effects armed without a host (`ctx:delay`, or
/// `ctx:grant_ability` with no card), whose `source` is the card whose effect armed them.
pub(crate) fn abilities(lua: &Lua, db: &Db, st: &State, filter: Table) -> Result<Table> {
    abilities_in(lua, db, st, filter, None)
}

/// What `ctx:abilities` filters on, read from its filter table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AbilityQuery {
    /// Only abilities of this kind.
    pub kind: Option<AbilityKind>,
    /// Only abilities with this timing.
    pub timing: Option<crate::names::Sym>,
    /// Only abilities this player (1-based) controls.
    pub player: Option<i64>,
    /// Only the abilities of this card.
    pub only: Option<ObjId>,
    /// Also host-less abilities armed by effects.
    pub delayed: bool,
}

impl AbilityQuery {
    /// The filter table `{kind, timing, player, card, delayed}`.
    fn of(db: &Db, filter: &Table) -> Result<AbilityQuery> {
        let delayed = filter.get::<Option<bool>>("delayed")?.unwrap_or(false);
        let kind: Option<String> = filter.get("kind")?;
        let timing: Option<String> = filter.get("timing")?;
        let player: Option<i64> = filter.get("player")?;
        let only: Option<CardUd> = filter.get("card")?;
        let kind = match kind.as_deref() {
            None => None,
            Some("triggered") => Some(AbilityKind::Triggered),
            Some("activated") => Some(AbilityKind::Activated),
            Some("static") => Some(AbilityKind::Static),
            Some("replacement") => Some(AbilityKind::Replacement),
            Some(k) => return Err(mlua::Error::runtime(format!("unknown ability kind '{k}'"))),
        };
        let timing = match timing {
            Some(t) => Some(
                db.names
                    .get(&t)
                    .ok_or_else(|| mlua::Error::runtime(format!("unknown timing '{t}'")))?,
            ),
            None => None,
        };
        Ok(AbilityQuery {
            kind,
            timing,
            player,
            only: only.map(|c| c.0),
            delayed,
        })
    }

    /// Whether ability `ab` is of the kind and timing asked for.
    fn wants(&self, ab: &crate::db::AbilityOutline) -> bool {
        self.kind.is_none_or(|k| k == ab.kind)
            && self.timing.is_none_or(|t| ab.timings.contains(&t))
    }
}

/// One ability `ctx:abilities` lists.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Listed {
    /// Its card (for a delayed ability: the card whose effect armed it, if any).
    pub source: Option<ObjId>,
    /// The ability.
    pub ability: crate::db::AbilityRef,
    /// An effect gave it (or armed it).
    pub granted: bool,
    /// A host-less ability armed by an effect: its controller.
    pub delayed: Option<PlayerId>,
    /// Its card entered its zone, or the effect gave it, at this time.
    pub timestamp: u64,
}

impl Listed {
    /// Its limit key: `card#n` (`rule#n` for the rules' own).
    pub fn key(&self, db: &Db) -> String {
        let owner_card = self
            .ability
            .0
            .map(|c| db.cards[c as usize].def.id.as_str())
            .unwrap_or("rule");
        format!("{owner_card}#{}", self.ability.1 + 1)
    }

    /// The table scripts get: source, def, index, granted, (delayed, controller),
    /// timestamp, key.
    pub fn table(&self, lua: &Lua, db: &Db) -> Result<Table> {
        let ab = db.ability(lua, self.ability)?;
        let h = lua.create_table_with_capacity(0, 8)?;
        let key = |k: &str| db.lua_name(lua, k);
        if let Some(s) = self.source {
            db.set_named(lua, &h, "source", Handle(s))?;
        }
        db.set_named(lua, &h, "def", &ab.table)?;
        db.set_named(lua, &h, "index", self.ability.1 + 1)?;
        db.set_named(lua, &h, "granted", self.granted)?;
        if let Some(p) = self.delayed {
            db.set_named(lua, &h, "delayed", true)?;
            db.set_named(lua, &h, "controller", p as i64 + 1)?;
        }
        db.set_named(lua, &h, "timestamp", self.timestamp)?;
        db.set_named(lua, &h, "key", key(&self.key(db))?)?;
        Ok(h)
    }
}

/// `abilities`, with the sources further limited to cards in zones of these declarations
/// (the kernel's own listing of activated abilities: no handle is made for the others).
pub(crate) fn abilities_in(
    lua: &Lua,
    db: &Db,
    st: &State,
    filter: Table,
    zones: Option<&[usize]>,
) -> Result<Table> {
    list_abilities(lua, db, st, &AbilityQuery::of(db, &filter)?, zones)
}

/// The table of the abilities `ctx:abilities` lists for query `q` (see [`abilities_in`]).
fn list_abilities(
    lua: &Lua,
    db: &Db,
    st: &State,
    q: &AbilityQuery,
    zones: Option<&[usize]>,
) -> Result<Table> {
    let found = find_abilities(lua, db, st, q, zones)?;
    let out = lua.create_table_with_capacity(found.len(), 0)?;
    for (i, l) in found.iter().enumerate() {
        out.raw_set(i + 1, l.table(lua, db)?)?;
    }
    Ok(out)
}

/// The abilities `ctx:abilities` lists for query `q`, in its order, the sources limited to
/// cards in zones of `zones` if given.
pub(crate) fn find_abilities(
    lua: &Lua,
    db: &Db,
    st: &State,
    q: &AbilityQuery,
    zones: Option<&[usize]>,
) -> Result<Vec<Listed>> {
    let mut out = Vec::new();
    // `granted`: the timestamp at which an effect gave card `id` this ability (it works
    // wherever the card is); None for the card's own abilities.
    let mut push = |id: ObjId, r: crate::db::AbilityRef, granted: Option<u64>| -> Result<()> {
        let gained = granted.unwrap_or(0);
        let granted = granted.is_some();
        let o = st.obj(id);
        // An ability whose script failed in this game is off (State::failed).
        if !q.wants(db.outline(r)) || st.failed.contains(&r) {
            return Ok(());
        }
        let ab = db.ability(lua, r)?;
        if ab.dormant && !granted {
            return Ok(());
        }
        // Its controller, zone and timestamp (a kept characteristic's record).
        crate::state::char_cache::read_place(id);
        if q.player.is_some_and(|p| p != o.controller as i64 + 1) {
            return Ok(());
        }
        let decl = st.zone_unnoted(o.zone).decl as usize;
        if !granted && !db.ability_zones(ab).contains(&decl) {
            return Ok(());
        }
        // A suppressed card's abilities cannot be used (nor their costs paid).
        if !characteristics::ability_works(lua, db, st, id, gained, ab)? {
            return Ok(());
        }
        out.push(Listed {
            source: Some(id),
            ability: r,
            granted,
            delayed: None,
            timestamp: if granted { gained } else { o.timestamp },
        });
        Ok(())
    };
    // A card none of whose own abilities is of the kind and timing asked for adds nothing.
    let own = |id: ObjId| {
        let c = st.obj(id).definition;
        let abilities = &db.cards[c as usize].outline;
        let n = if abilities.iter().any(|ab| q.wants(ab)) {
            abilities.len()
        } else {
            0
        };
        (0..n).map(move |ai| (Some(c), ai))
    };
    // No card of this game has an ability of that kind and timing: no zone needs a look.
    let any_here = || {
        if let (Some(k), Some(t)) = (q.kind, q.timing) {
            let (held, words) = (st.present.cards(), st.present.words());
            return db.cards_by_timing.get(&(k, t)).is_some_and(|with| {
                // The shorter walk: the game's cards, or the words up to its highest card.
                if held.len() < words.len() {
                    held.iter().any(|&c| {
                        with.get(c as usize / 64)
                            .is_some_and(|w| w & (1 << (c % 64)) != 0)
                    })
                } else {
                    with.iter().zip(words).any(|(a, b)| a & b != 0)
                }
            });
        }
        st.present.cards().iter().any(|&c| {
            db.cards
                .get(c as usize)
                .is_some_and(|c| c.outline.iter().any(|ab| q.wants(ab)))
        })
    };
    // A kept characteristic's record: one card's place (`push`), or where every card is
    // (the hosts of the abilities effects gave included).
    match q.only {
        Some(c) => crate::state::char_cache::read_place(c),
        None => crate::state::char_cache::read_any_move(),
    }
    match q.only {
        Some(c) => {
            for r in own(c) {
                push(c, r, None)?;
            }
        }
        None if !any_here() => {}
        None => {
            for z in st
                .zones
                .iter()
                .filter(|z| zones.is_none_or(|d| d.contains(&(z.decl as usize))))
            {
                for &id in &z.cards {
                    // The card, then the cards attached to it at any depth (whose abilities
                    // work in its zone unless suppressed: `push` asks).
                    if st.obj(id).attachments.is_empty() {
                        for r in own(id) {
                            push(id, r, None)?;
                        }
                        continue;
                    }
                    for a in db.stack(st, id) {
                        for r in own(a) {
                            push(a, r, None)?;
                        }
                    }
                }
            }
        }
    }
    for g in st.grants.iter() {
        if let Some(h) = g.host
            && st.obj(h).alive
            && q.only.is_none_or(|c| c == h)
        {
            push(h, g.ability, Some(g.timestamp))?;
        }
    }
    if q.delayed && q.only.is_none() {
        // The rest of an effect that already resolved: no zone or suppression stops it.
        for g in st.grants.iter().filter(|g| g.host.is_none()) {
            if !q.wants(db.outline(g.ability))
                || q.player.is_some_and(|p| p != g.controller as i64 + 1)
            {
                continue;
            }
            out.push(Listed {
                source: g.source,
                ability: g.ability,
                granted: true,
                delayed: Some(g.controller),
                timestamp: g.timestamp,
            });
        }
    }
    Ok(out)
}

/// An event as a Lua table: name, card, old, from, from_player, to, to_player, player,
/// source (the acting card), reason, key, amount, and the ruleset's data fields.
pub fn event_table(lua: &Lua, db: &Db, st: &State, e: &Event) -> Result<Table> {
    let t = lua.create_table_with_capacity(0, 8 + e.data.len())?;
    // The fixed keys and zone names are the content's names (interned once); the event's
    // name, reason and data may be a script's text.
    let key = |k: &str| db.lua_name(lua, k);
    db.set_named(lua, &t, "name", e.name.as_str())?;
    if let Some(c) = e.card {
        db.set_named(lua, &t, "card", Handle(c))?;
    }
    if let Some(c) = e.old {
        db.set_named(lua, &t, "old", Handle(c))?;
    }
    if let Some(z) = e.from {
        db.set_named(lua, &t, "from", key(zone_name(db, st, z))?)?;
        db.set_named(
            lua,
            &t,
            "from_player",
            st.zone(z).owner.map(|p| p as i64 + 1),
        )?;
    }
    if let Some(z) = e.to {
        db.set_named(lua, &t, "to", key(zone_name(db, st, z))?)?;
        db.set_named(lua, &t, "to_player", st.zone(z).owner.map(|p| p as i64 + 1))?;
    }
    if let Some(p) = e.player {
        db.set_named(lua, &t, "player", p as i64 + 1)?;
    }
    if let Some(c) = e.source {
        db.set_named(lua, &t, "source", Handle(c))?;
    }
    if let Some(r) = e.reason.as_deref() {
        db.set_named(lua, &t, "reason", r)?;
    }
    if let Some(k) = e.key.as_deref() {
        db.set_named(lua, &t, "key", k)?;
    }
    db.set_named(lua, &t, "amount", e.amount)?;
    for (k, v) in &e.data {
        t.raw_set(k.as_str(), val_to_lua(lua, v)?)?;
    }
    Ok(t)
}

/// A kernel value as Lua.
pub fn val_to_lua(lua: &Lua, v: &Val) -> Result<Value> {
    Ok(match v {
        Val::Bool(b) => Value::Boolean(*b),
        Val::Int(i) => Value::Integer(*i),
        Val::Str(s) => Value::String(lua.create_string(s)?),
        Val::Card(c) => Handle(c.card).into_lua(lua)?,
        Val::Player(p) => Value::Integer(p.player as i64 + 1),
        Val::List(l) => {
            let vals = l
                .iter()
                .map(|x| val_to_lua(lua, x))
                .collect::<Result<Vec<_>>>()?;
            Value::Table(lua.create_sequence_from(vals)?)
        }
    })
}

/// A Lua value as a kernel value (tables become lists; functions and nil are dropped).
/// Numbers must be whole and in range ([`crate::sandbox::numbers`]); strings, list sizes and
/// nesting are bounded ([`crate::sandbox::limits`]).
pub fn lua_to_val(v: &Value, budget: &mut DataBudget, depth: usize) -> Result<Option<Val>> {
    budget.take(depth)?;
    Ok(Some(match v {
        Value::Boolean(b) => Val::Bool(*b),
        Value::Integer(_) | Value::Number(_) => {
            Val::Int(crate::sandbox::numbers::int(v, "a number in event data")?)
        }
        Value::String(s) => Val::Str(limits::text(s, "a string in event data")?),
        Value::UserData(ud) => match ud.borrow::<CardUd>() {
            Ok(c) => Val::Card(CardRef { card: c.0 }),
            Err(_) => return Ok(None),
        },
        Value::Table(t) => {
            let mut out = Vec::new();
            for x in t.clone().sequence_values::<Value>() {
                if let Some(x) = lua_to_val(&x?, budget, depth + 1)? {
                    out.push(x);
                }
            }
            Val::List(out)
        }
        _ => return Ok(None),
    }))
}

/// A player value (for data fields named `player`/`players`).
pub fn player_val(p: PlayerId) -> Val {
    Val::Player(PlayerRef { player: p })
}

/// A procedure's record from its Lua table: names to kernel values, sorted by name (a
/// table's own order is not stable). Entries whose value is a function or nil are dropped.
pub fn record_from_lua(lua: &Lua, t: &Table, what: &str) -> Result<Vec<(String, Val)>> {
    // Read in place when it holds nothing unusual (else read below, which says what is wrong).
    if let Some(mut out) = crate::sandbox::raw_yield::record(lua, t) {
        out.sort_by(|a, b| a.0.cmp(&b.0));
        return Ok(out);
    }
    let mut budget = DataBudget::default();
    let mut out = Vec::new();
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, v) = pair?;
        budget.take(0)?;
        let Value::String(k) = k else {
            return Err(mlua::Error::runtime(format!(
                "{what}: keys should be names, not a {}",
                k.type_name()
            )));
        };
        let k = limits::text(&k, what)?;
        if let Some(v) = lua_to_val(&v, &mut budget, 1)? {
            out.push((k, v));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// A procedure's record as a fresh Lua table.
pub fn record_to_lua(lua: &Lua, db: &Db, rec: &[(String, Val)]) -> Result<Table> {
    let vals = rec
        .iter()
        .map(|(_, v)| val_to_lua(lua, v))
        .collect::<Result<Vec<_>>>()?;
    // The table made in one go when every key is interned already (the usual case: a
    // procedure's record has the same keys each time).
    {
        let interned = db.interned.borrow();
        let keys: Option<Vec<&mlua::LuaString>> =
            rec.iter().map(|(k, _)| interned.get(k.as_str())).collect();
        if let Some(keys) = keys {
            return lua.create_table_from(keys.into_iter().zip(vals));
        }
    }
    let t = lua.create_table_with_capacity(0, rec.len())?;
    for ((k, _), v) in rec.iter().zip(vals) {
        db.set_named(lua, &t, k, v)?;
    }
    Ok(t)
}

/// The continuous effects in play, oldest first, as tables: `handle` (for
/// `ctx:end_effect`), `target` (a card, or `player`), `source`, `controller`, `char`, `op`,
/// `value`, `tag`, `cancellable`, `persists_in` (zone names, when it has some), its
/// remaining duration (`until`, `times` left, `until_player`, `after_turn`: nil for none)
/// and `duration` (all of that as `ctx:modify` takes it). `filter` keeps those with the
/// given `target` (a card, or a player number), `source` (a card), `tag` (a name) and
/// `controller`.
fn effects(lua: &Lua, db: &Db, st: &State, filter: Option<Table>) -> Result<Table> {
    use crate::state::effects::{Modify, Target};
    let get_card = |k: &str| -> Result<Option<ObjId>> {
        Ok(
            match filter.as_ref().map(|f| f.get::<Value>(k)).transpose()? {
                Some(Value::UserData(ud)) => Some(ud.borrow::<CardUd>()?.0),
                _ => None,
            },
        )
    };
    let target_card = get_card("target")?;
    let target_player = match filter
        .as_ref()
        .map(|f| f.get::<Value>("target"))
        .transpose()?
    {
        Some(v @ (Value::Integer(_) | Value::Number(_))) => Some(player_arg(
            st,
            crate::sandbox::numbers::int(&v, "effects: target")?,
        )?),
        _ => None,
    };
    let source = get_card("source")?;
    let tag = match filter
        .as_ref()
        .map(|f| f.get::<Option<String>>("tag"))
        .transpose()?
    {
        Some(Some(t)) => Some(
            db.names
                .get(&t)
                .filter(|s| db.rules.effect_tags.syms.contains(s))
                .ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "effects: unknown tag '{t}' (game.yaml `effect_tags`)"
                    ))
                })?,
        ),
        _ => None,
    };
    let controller = match filter
        .as_ref()
        .map(|f| f.get::<Option<i64>>("controller"))
        .transpose()?
    {
        Some(Some(p)) => Some(player_arg(st, p)?),
        _ => None,
    };
    // A kept characteristic that lists effects read every object's (`State::chars`).
    crate::state::char_cache::read_all();
    let out = lua.create_table()?;
    for e in st.effects.iter() {
        if target_card.is_some_and(|c| e.target != Target::Obj(c))
            || target_player.is_some_and(|p| e.target != Target::Player(p))
            || source.is_some_and(|s| e.source != Some(s))
            || tag.is_some_and(|t| e.tag != Some(t))
            || controller.is_some_and(|p| e.controller != Some(p))
        {
            continue;
        }
        let t = lua.create_table()?;
        t.raw_set("handle", e.timestamp as i64)?;
        match e.target {
            Target::Obj(c) => t.raw_set("target", Handle(c))?,
            Target::Player(p) => t.raw_set("player", p as i64 + 1)?,
        }
        if let Some(s) = e.source {
            t.raw_set("source", Handle(s))?;
        }
        if let Some(p) = e.controller {
            t.raw_set("controller", p as i64 + 1)?;
        }
        t.raw_set("char", db.names.name(e.characteristic))?;
        let (op, value) = match &e.modify {
            Modify::SetBase(v) => ("set_base", Value::Integer(*v)),
            Modify::Add(v) => ("add", Value::Integer(*v)),
            Modify::Set(v) => ("set", Value::Integer(*v)),
            Modify::Grant(s) => (
                "grant",
                Value::String(lua.create_string(db.names.name(*s))?),
            ),
            Modify::Revoke(s) => (
                "revoke",
                Value::String(lua.create_string(db.names.name(*s))?),
            ),
            Modify::SetNames(list) => {
                let names = lua.create_table()?;
                for (i, s) in list.iter().enumerate() {
                    names.raw_set(i + 1, db.names.name(*s))?;
                }
                ("set", Value::Table(names))
            }
            // A definition redirect: `char` "definition", the card id it takes.
            Modify::Definition(c) => (
                "set",
                Value::String(lua.create_string(&db.cards[*c as usize].def.id)?),
            ),
        };
        t.raw_set("op", op)?;
        t.raw_set("value", value)?;
        if let Some(l) = effect_layer(db, e) {
            t.raw_set("layer", l)?;
        }
        if let Some(tag) = e.tag {
            t.raw_set("tag", db.names.name(tag))?;
        }
        t.raw_set("cancellable", !e.uncancellable)?;
        // What re-creates it as it is ("move a curse, its turns left"): the duration's
        // point, the passes its count-down has left, whose passes count, and `duration`,
        // the whole of it as `ctx:modify` takes it.
        let duration = lua.create_table()?;
        if let Some(x) = &e.expiry {
            let point = db.names.name(x.point);
            t.raw_set("until", point)?;
            t.raw_set("times", x.times as i64)?;
            duration.raw_set("until", point)?;
            duration.raw_set("times", x.times as i64)?;
            if let Some(p) = x.player {
                t.raw_set("until_player", p as i64 + 1)?;
                duration.raw_set("player", p as i64 + 1)?;
            }
            if x.after_turn > 0 {
                t.raw_set("after_turn", x.after_turn as i64)?;
                duration.raw_set("after_turn", x.after_turn as i64)?;
            }
        }
        if let Some(tag) = e.tag {
            duration.raw_set("tag", db.names.name(tag))?;
        }
        if e.uncancellable {
            duration.raw_set("uncancellable", true)?;
        }
        if !e.persists_in.is_empty() {
            let zones = lua.create_table()?;
            for (i, z) in e.persists_in.iter().enumerate() {
                zones.raw_set(i + 1, db.rules.zones[*z as usize].1.name.as_str())?;
            }
            t.raw_set("persists_in", zones.clone())?;
            duration.raw_set("persists_in", zones)?;
        }
        t.raw_set("duration", duration)?;
        out.raw_set(out.raw_len() + 1, t)?;
    }
    Ok(out)
}

/// The name of the layer an effect applies in (None for the player grants).
fn effect_layer<'a>(db: &'a Db, e: &crate::state::effects::Effect) -> Option<&'a str> {
    use crate::state::effects::Target;
    let layers = match e.target {
        Target::Obj(_) => {
            &db.rules
                .chars
                .iter()
                .find(|c| c.sym == e.characteristic)?
                .layers
        }
        Target::Player(_) => {
            &db.rules
                .player_chars
                .iter()
                .find(|c| c.sym == e.characteristic)?
                .layers
        }
    };
    layers.get(e.layer as usize).map(|l| l.name.as_str())
}
