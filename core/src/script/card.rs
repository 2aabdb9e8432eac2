//! `Card`: the userdata scripts hold for a card object. Fields read the game live
//! (`card.power` is the current power); it holds nothing but the object id.

use mlua::IntoLua as _;
use mlua::{Lua, LuaSerdeExt, MetaMethod, Result, UserData, UserDataMethods, Value};

pub use crate::sandbox::handle::CardUd;
use crate::sandbox::handle::Handle;

use crate::characteristics;
use crate::rules::Rules;
use crate::script::api::{env, player_out, zone_name};
use crate::state::ObjId;

impl UserData for CardUd {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_meta_method(MetaMethod::Eq, |_, this, other: CardUd| {
            Ok(this.0 == other.0)
        });
        m.add_meta_method(MetaMethod::ToString, |lua, this, ()| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let o = st.obj(this.0);
            Ok(format!(
                "{}#{}",
                db.cards[o.definition as usize].def.id, this.0.0
            ))
        });
        // One __index in Rust for fields and methods alike: with field getters or methods
        // registered, mlua would put a Lua function in front of it, run on every read.
        m.add_meta_method(MetaMethod::Index, |lua, this, key: mlua::LuaString| {
            let key = key.as_bytes();
            let key = std::str::from_utf8(&key)
                .map_err(|_| mlua::Error::runtime("cards have no such field"))?;
            if let Some(i) = METHODS.iter().position(|m| *m == key) {
                return method(lua, i);
            }
            field(lua, this.0, key)
        });
    }
}

/// The methods cards have (`c:has(...)`), in the order [`make_methods`] makes them.
const METHODS: [&str; 9] = [
    "has",
    "keyword",
    "flag_on",
    "counter_value",
    "printed",
    "name_in",
    "raw",
    "value_without",
    "revealed_to",
];

/// The card methods' functions, made once per VM (its app data, set with the engine's).
pub struct Methods(Vec<Value>);

impl Methods {
    pub fn new(lua: &Lua) -> Result<Methods> {
        make_methods(lua).map(Methods)
    }
}

/// Method `i` of [`METHODS`].
fn method(lua: &Lua, i: usize) -> Result<Value> {
    match lua.app_data_ref::<Methods>() {
        Some(m) => Ok(m.0[i].clone()),
        None => Err(mlua::Error::runtime("card methods are not available yet")),
    }
}

fn make_methods(lua: &Lua) -> Result<Vec<Value>> {
    let mut out: Vec<Value> = Vec::with_capacity(METHODS.len());
    let mut add = |name: &str, f: mlua::Function| {
        debug_assert_eq!(METHODS[out.len()], name);
        out.push(Value::Function(f));
    };
    // c:has("types", "Navy"): whether a set characteristic contains a name.
    add(
        "has",
        lua.create_function(|lua, (this, ch, name): (CardUd, String, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let ci = char_index(&db, &ch)?;
            let Some(sym) = db.names.get(&name) else {
                return Ok(false);
            };
            Ok(characteristics::set_value(lua, &db, &st, this.0, ci)?.contains(&sym))
        })?,
    );
    // c:keyword("repair"): the keyword's value (true for a plain one), nil if absent.
    add(
        "keyword",
        lua.create_function(|lua, (this, name): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let Some(ci) = db.rules.char_index(&db.names, "keywords") else {
                return Ok(Value::Nil);
            };
            let Some(sym) = db.names.get(&name) else {
                return Ok(Value::Nil);
            };
            if !characteristics::set_value(lua, &db, &st, this.0, ci)?.contains(&sym) {
                return Ok(Value::Nil);
            }
            let card = &db.cards[st.obj(this.0).definition as usize];
            Ok(match card.keyword_values.iter().find(|(s, _)| *s == sym) {
                Some((_, v)) if *v != 0 => Value::Integer(*v),
                _ => Value::Boolean(true),
            })
        })?,
    );
    add(
        "flag_on",
        lua.create_function(|lua, (this, name): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let i =
                Rules::lookup(&db.names, &db.rules.flags, &name).map_err(mlua::Error::runtime)?;
            crate::state::char_cache::read_obj(this.0);
            Ok(st.flag(this.0, i))
        })?,
    );
    add(
        "counter_value",
        lua.create_function(|lua, (this, name): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let i = Rules::lookup(&db.names, &db.rules.counters, &name)
                .map_err(mlua::Error::runtime)?;
            crate::state::char_cache::read_obj(this.0);
            Ok(st.obj(this.0).counters[i])
        })?,
    );
    // The printed field, untouched by effects; nil when the card has none (a value
    // printed as a dash: no value, not 0).
    add(
        "printed",
        lua.create_function(|lua, (this, field): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let card = &db.cards[st.obj(this.0).definition as usize];
            match card.def.fields.get(&field) {
                None | Some(serde_json::Value::Null) => Ok(Value::Nil),
                Some(v) => lua.to_value(v),
            }
        })?,
    );
    // c:name_in("en"): the name in a language, for people; the rules name (`c.name`, in
    // the printed language) when the card has none in it.
    add(
        "name_in",
        lua.create_function(|lua, (this, lang): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let card = &db.cards[st.obj(this.0).definition as usize];
            lua.create_string(card.name_in(&lang))
        })?,
    );
    // The raw (unclamped) integer value.
    add(
        "raw",
        lua.create_function(|lua, (this, ch): (CardUd, String)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let ci = char_index(&db, &ch)?;
            characteristics::int_raw(lua, &db, &st, this.0, ci)
        })?,
    );
    // c:value_without("power", {controller = p, increases = true}): the value leaving
    // out the continuous effects and static abilities that match every field given:
    // those player `p` controls, those that raise the value (integers only).
    add(
        "value_without",
        lua.create_function(|lua, (this, ch, filter): (CardUd, String, mlua::Table)| {
            let (db, st, _host) = env(lua)?;
            let st = st.borrow();
            let ci = char_index(&db, &ch)?;
            let mut without = characteristics::Without::default();
            for pair in filter.pairs::<String, Value>() {
                let (k, v) = pair?;
                match (k.as_str(), v) {
                    ("controller", v) => {
                        let p = crate::sandbox::numbers::int(&v, "value_without: controller")?;
                        without.controller = Some(crate::script::api::player_arg(&st, p)?);
                    }
                    ("increases", Value::Boolean(b)) => without.increases = b,
                    (k, _) => {
                        return Err(mlua::Error::runtime(format!(
                            "value_without: unknown filter '{k}' (controller = a player, \
                                 increases = true)"
                        )));
                    }
                }
            }
            if db.rules.is_int(ci) {
                characteristics::int_value_without(lua, &db, &st, this.0, ci, &without)
                    .map(Value::Integer)
            } else if without.increases {
                Err(mlua::Error::runtime(format!(
                    "value_without: '{ch}' is a set of names; `increases` applies to \
                         integers"
                )))
            } else {
                let t = lua.create_table()?;
                let names =
                    characteristics::set_value_without(lua, &db, &st, this.0, ci, &without)?;
                for (i, s) in names.iter().enumerate() {
                    t.raw_set(i + 1, db.names.name(*s))?;
                }
                Ok(Value::Table(t))
            }
        })?,
    );
    add(
        "revealed_to",
        lua.create_function(|lua, (this, p): (CardUd, i64)| {
            let (_, st, _host) = env(lua)?;
            let st = st.borrow();
            Ok(st.obj(this.0).revealed & (1 << (p - 1)) != 0)
        })?,
    );
    Ok(out)
}

fn char_index(db: &crate::db::Db, ch: &str) -> Result<usize> {
    db.rules
        .char_index(&db.names, ch)
        .ok_or_else(|| mlua::Error::runtime(format!("unknown characteristic '{ch}'")))
}

fn field(lua: &Lua, id: ObjId, key: &str) -> Result<Value> {
    let (db, st, _host) = env(lua)?;
    let st = st.borrow();
    let o = st.obj(id);
    let card = &db.cards[o.definition as usize];
    let v = match key {
        "id" => Value::Integer(id.0 as i64),
        "card_id" => Value::String(db.lua_name(lua, &card.def.id)?),
        // The card it is physically, whatever definition it takes now (`take_definition`).
        "own_card_id" => Value::String(db.lua_name(lua, &db.cards[o.card as usize].def.id)?),
        "category" => Value::String(db.lua_name(lua, db.names.name(card.category))?),
        "name" => Value::String(db.lua_name(lua, &card.name)?),
        "label" => Value::String(db.lua_name(lua, &card.label)?),
        "owner" => Value::Integer(o.owner as i64 + 1),
        "controller" => Value::Integer(o.controller as i64 + 1),
        "zone" => Value::String(db.lua_name(lua, zone_name(&db, &st, o.zone))?),
        "zone_owner" => match st.zone(o.zone).owner {
            Some(p) => Value::Integer(p as i64 + 1),
            None => Value::Nil,
        },
        "face_up" => Value::Boolean(o.face_up),
        "orientation" => Value::String(db.lua_name(lua, db.names.name(o.orientation))?),
        "position" => {
            // 1 = bottom; top = count.
            match st.zone(o.zone).cards.iter().position(|c| *c == id) {
                Some(i) => Value::Integer(i as i64 + 1),
                None => Value::Nil,
            }
        }
        "host" => match o.attached_to {
            Some(h) => Handle(h).into_lua(lua)?,
            None => Value::Nil,
        },
        "attachments" => Value::Table(crate::sandbox::handle::card_table(
            lua,
            o.attachments.iter().copied(),
        )?),
        "alive" => Value::Boolean(o.alive),
        "successor" => match o.successor {
            Some(s) => Handle(s).into_lua(lua)?,
            None => Value::Nil,
        },
        "token" => Value::Boolean(o.token),
        "entered_turn" => Value::Integer(o.entered_turn as i64),
        "timestamp" => Value::Integer(o.timestamp as i64),
        "out_of_game" => Value::Boolean(player_out(&st, o.owner)),
        "printed_abilities" => {
            Value::Integer(crate::script::api::printed_abilities(&db, o.definition) as i64)
        }
        "suppressed" => {
            Value::Boolean(characteristics::suppressed_since(lua, &db, &st, id)?.is_some())
        }
        _ => match db.rules.char_index(&db.names, key) {
            Some(ci) if db.rules.is_int(ci) => {
                Value::Integer(characteristics::int_value(lua, &db, &st, id, ci)?)
            }
            Some(ci) => {
                let t = lua.create_table()?;
                for (i, s) in characteristics::set_value(lua, &db, &st, id, ci)?
                    .iter()
                    .enumerate()
                {
                    t.raw_set(i + 1, db.names.name(*s))?;
                }
                Value::Table(t)
            }
            None => {
                return Err(mlua::Error::runtime(format!(
                    "cards have no field '{key}' (fields: id, card_id, own_card_id, category, name, owner, \
                     controller, zone, face_up, orientation, position, host, attachments, alive, \
                     successor, token, entered_turn, timestamp, out_of_game, \
                     printed_abilities, suppressed, and the characteristics of game.yaml)"
                )));
            }
        },
    };
    Ok(v)
}
