//! `Card`: the userdata scripts hold for a card object. Fields read the game live
//! (`card.power` is the current power); it holds nothing but the object id.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::IntoLua as _;
use mlua::{Lua, LuaSerdeExt, MetaMethod, Result, UserData, UserDataMethods, Value};

pub use crate::sandbox::handle::CardUd;
use crate::sandbox::handle::Handle;

use crate::characteristics;
use crate::db::Db;
use crate::rules::Rules;
use crate::sandbox::fast_index::{self, Answer};
use crate::script::api::{env, player_out};
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
        // registered, mlua would put a Lua function in front of it, run on every read. The
        // engine puts `sandbox::fast_index` in front of this one: it answers the names it has
        // met before, and calls this for a name met the first time (and for what it cannot
        // answer), which resolves it and teaches it the name.
        m.add_meta_method(MetaMethod::Index, |lua, this, key: mlua::LuaString| {
            let bytes = key.as_bytes();
            let name = std::str::from_utf8(&bytes)
                .map_err(|_| mlua::Error::runtime("cards have no such field"))?;
            let db = lua
                .app_data_ref::<std::rc::Rc<crate::db::Db>>()
                .map(|d| d.clone());
            let found = match db.as_deref() {
                Some(db) => resolve(db, name),
                None => METHODS.iter().position(|m| *m == name).map(Key::Method),
            };
            let Some(found) = found else {
                // (A field read with no game running says so first, as it always did.)
                env(lua)?;
                return Err(no_field(name));
            };
            if let Some(db) = &db
                && is_fast_db(lua, db)
            {
                fast_index::learn(lua, &key, found.code());
            }
            match found {
                Key::Method(i) => method(lua, i),
                key => field(lua, this.0, key),
            }
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

    /// The methods as a Lua list, in the order of [`METHODS`].
    pub fn table(&self, lua: &Lua) -> Result<mlua::Table> {
        lua.create_sequence_from(self.0.iter().cloned())
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
            crate::state::char_cache::read_place(this.0);
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

/// What a name read on a card (`c.power`, `c:has`) stands for, found once per name: the fast
/// `__index` (`sandbox::fast_index`) keeps it by the name's Lua string, so a read compares no
/// text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Method `i` of [`METHODS`].
    Method(usize),
    /// One of the kernel's fields.
    Field(Field),
    /// Characteristic `ci` of the ruleset (an index into the game's characteristics).
    Char(usize),
}

/// The kernel's fields of a card, as [`FIELDS`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Id,
    CardId,
    OwnCardId,
    Category,
    Name,
    Label,
    Owner,
    Controller,
    Zone,
    ZoneOwner,
    FaceUp,
    Orientation,
    Position,
    Host,
    Attachments,
    Alive,
    Successor,
    Token,
    EnteredTurn,
    Timestamp,
    OutOfGame,
    PrintedAbilities,
    Suppressed,
}

/// The fields by name (docs/scripting.md lists them).
const FIELDS: [(&str, Field); 23] = [
    ("id", Field::Id),
    ("card_id", Field::CardId),
    ("own_card_id", Field::OwnCardId),
    ("category", Field::Category),
    ("name", Field::Name),
    ("label", Field::Label),
    ("owner", Field::Owner),
    ("controller", Field::Controller),
    ("zone", Field::Zone),
    ("zone_owner", Field::ZoneOwner),
    ("face_up", Field::FaceUp),
    ("orientation", Field::Orientation),
    ("position", Field::Position),
    ("host", Field::Host),
    ("attachments", Field::Attachments),
    ("alive", Field::Alive),
    ("successor", Field::Successor),
    ("token", Field::Token),
    ("entered_turn", Field::EnteredTurn),
    ("timestamp", Field::Timestamp),
    ("out_of_game", Field::OutOfGame),
    ("printed_abilities", Field::PrintedAbilities),
    ("suppressed", Field::Suppressed),
];

/// What `name` stands for on a card: a method, then a field, then a characteristic.
pub fn resolve(db: &crate::db::Db, name: &str) -> Option<Key> {
    if let Some(i) = METHODS.iter().position(|m| *m == name) {
        return Some(Key::Method(i));
    }
    if let Some((_, f)) = FIELDS.iter().find(|(n, _)| *n == name) {
        return Some(Key::Field(*f));
    }
    db.rules.char_index(&db.names, name).map(Key::Char)
}

fn no_field(key: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "cards have no field '{key}' (fields: id, card_id, own_card_id, category, name, owner, \
         controller, zone, face_up, orientation, position, host, attachments, alive, \
         successor, token, entered_turn, timestamp, out_of_game, \
         printed_abilities, suppressed, and the characteristics of game.yaml)"
    ))
}

/// Which of the engine's Lua strings a text value is (`sandbox::fast_index` keeps each
/// once made, so a read pushes it without hashing its text): a card definition's id, name
/// or label, a zone declaration's name, or a declared name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    CardId(u32),
    CardName(u32),
    CardLabel(u32),
    Zone(u32),
    Sym(crate::names::Sym),
}

impl Text {
    /// Its slot in the engine's table of strings (distinct for distinct texts).
    pub fn slot(self) -> i64 {
        match self {
            Text::CardId(d) => 1 + 4 * d as i64,
            Text::CardName(d) => 2 + 4 * d as i64,
            Text::CardLabel(d) => 3 + 4 * d as i64,
            Text::Zone(z) => 4 + 4 * z as i64,
            Text::Sym(s) => -1 - s.0 as i64,
        }
    }

    /// The text itself.
    pub fn text(self, db: &crate::db::Db) -> &str {
        match self {
            Text::CardId(d) => &db.cards[d as usize].def.id,
            Text::CardName(d) => &db.cards[d as usize].name,
            Text::CardLabel(d) => &db.cards[d as usize].label,
            Text::Zone(z) => &db.rules.zones[z as usize].1.name,
            Text::Sym(s) => db.names.name(s),
        }
    }
}

/// A field's value that needs neither Lua nor a new Lua object: the fast `__index` pushes it
/// as it is; anything else is [`field`]'s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plain {
    Nil,
    Bool(bool),
    Int(i64),
    Text(Text),
}

/// Field `f` of object `id` if it is [`Plain`] (the one place, with [`field`], that knows
/// what a field reads).
pub fn plain(db: &crate::db::Db, st: &crate::state::State, id: ObjId, f: Field) -> Option<Plain> {
    let o = st.obj(id);
    if reads_place(f) {
        crate::state::char_cache::read_place(id);
    }
    Some(match f {
        Field::Id => Plain::Int(id.0 as i64),
        Field::CardId => Plain::Text(Text::CardId(o.definition)),
        // The card it is physically, whatever definition it takes now (`take_definition`).
        Field::OwnCardId => Plain::Text(Text::CardId(o.card)),
        Field::Category => Plain::Text(Text::Sym(db.cards[o.definition as usize].category)),
        Field::Name => Plain::Text(Text::CardName(o.definition)),
        Field::Label => Plain::Text(Text::CardLabel(o.definition)),
        Field::Owner => Plain::Int(o.owner as i64 + 1),
        Field::Controller => Plain::Int(o.controller as i64 + 1),
        // (Its own zone: noted as its place, above.)
        Field::Zone => Plain::Text(Text::Zone(st.zone_unnoted(o.zone).decl as u32)),
        Field::ZoneOwner => match st.zone_unnoted(o.zone).owner {
            Some(p) => Plain::Int(p as i64 + 1),
            None => Plain::Nil,
        },
        Field::FaceUp => Plain::Bool(o.face_up),
        Field::Orientation => Plain::Text(Text::Sym(o.orientation)),
        Field::Position => {
            // 1 = bottom; top = count. (The others in its zone count: the zone is noted.)
            match st.zone(o.zone).cards.iter().position(|c| *c == id) {
                Some(i) => Plain::Int(i as i64 + 1),
                None => Plain::Nil,
            }
        }
        Field::Alive => Plain::Bool(o.alive),
        Field::Token => Plain::Bool(o.token),
        Field::EnteredTurn => Plain::Int(o.entered_turn as i64),
        Field::Timestamp => Plain::Int(o.timestamp as i64),
        Field::OutOfGame => Plain::Bool(player_out(st, o.owner)),
        Field::PrintedAbilities => {
            Plain::Int(crate::script::api::printed_abilities(db, o.definition) as i64)
        }
        Field::Host | Field::Attachments | Field::Successor | Field::Suppressed => return None,
    })
}

/// Whether field `f` reads what a move of the card may change (its place, and what moving
/// resets): a kept characteristic that reads it is stale after the card moves
/// (`char_cache::read_place`). The others are printed data or the owner.
fn reads_place(f: Field) -> bool {
    !matches!(
        f,
        Field::Id
            | Field::CardId
            | Field::OwnCardId
            | Field::Category
            | Field::Name
            | Field::Label
            | Field::Owner
            | Field::Token
            | Field::OutOfGame
            | Field::PrintedAbilities
            | Field::Suppressed
    )
}

/// Field or characteristic `key` of object `id` (a method is [`method`]'s).
pub(crate) fn field(lua: &Lua, id: ObjId, key: Key) -> Result<Value> {
    let (db, st, _host) = env(lua)?;
    let st = st.borrow();
    let o = st.obj(id);
    let f = match key {
        Key::Field(f) => f,
        Key::Char(ci) if db.rules.is_int(ci) => {
            return Ok(Value::Integer(characteristics::int_value(
                lua, &db, &st, id, ci,
            )?));
        }
        Key::Char(ci) => {
            let names = characteristics::set_value(lua, &db, &st, id, ci)?;
            return Ok(Value::Table(
                lua.create_sequence_from(names.iter().map(|s| db.names.name(*s)))?,
            ));
        }
        Key::Method(i) => return method(lua, i),
    };
    if reads_place(f) {
        crate::state::char_cache::read_place(id);
    }
    if let Some(p) = plain(&db, &st, id, f) {
        return Ok(match p {
            Plain::Nil => Value::Nil,
            Plain::Bool(b) => Value::Boolean(b),
            Plain::Int(i) => Value::Integer(i),
            Plain::Text(t) => {
                let s = db.lua_name(lua, t.text(&db))?;
                if is_fast_db(lua, &db) {
                    fast_index::keep_text(lua, t.slot(), &s);
                }
                Value::String(s)
            }
        });
    }
    Ok(match f {
        Field::Host => match o.attached_to {
            Some(h) => Handle(h).into_lua(lua)?,
            None => Value::Nil,
        },
        Field::Attachments => Value::Table(crate::sandbox::handle::card_table(
            lua,
            o.attachments.iter().copied(),
        )?),
        Field::Successor => match o.successor {
            Some(s) => Handle(s).into_lua(lua)?,
            None => Value::Nil,
        },
        Field::Suppressed => {
            Value::Boolean(characteristics::suppressed_since(lua, &db, &st, id)?.is_some())
        }
        _ => unreachable!("plain fields are answered above"),
    })
}

/// [`field`] for the fast `__index`: object and key as integers (`sandbox::fast_index`
/// checked both).
pub(crate) fn field_by_code(lua: &Lua, id: i64, code: i64) -> Result<Value> {
    match Key::from_code(code) {
        Some(key) => field(lua, ObjId(id as u32), key),
        None => Err(mlua::Error::runtime("cards have no such field")),
    }
}

impl Key {
    /// The key as one integer (for the fast `__index`'s call of [`field_by_code`]).
    pub fn code(self) -> i64 {
        match self {
            Key::Method(i) => i as i64,
            Key::Field(f) => 64 + f as i64,
            Key::Char(ci) => 128 + ci as i64,
        }
    }

    pub fn from_code(code: i64) -> Option<Key> {
        Some(match code {
            0..64 => Key::Method(code as usize),
            64..128 => Key::Field(FIELDS.get((code - 64) as usize)?.1),
            128.. => Key::Char((code - 128) as usize),
            _ => return None,
        })
    }
}

/// The database the fast `__index` answers with: the VM's (set with it, `set_db`).
struct FastDb(Rc<RefCell<Option<Rc<Db>>>>);

/// Whether `db` is the one the fast `__index` answers with (what is learnt must be its).
fn is_fast_db(lua: &Lua, db: &Rc<Db>) -> bool {
    lua.app_data_ref::<FastDb>()
        .is_some_and(|f| f.0.borrow().as_ref().is_some_and(|d| Rc::ptr_eq(d, db)))
}

/// Puts the fast `__index` (`sandbox::fast_index`) in front of the handles' own, for a VM
/// whose database is `db` (once per VM, after the handle cache and the methods are made).
pub fn install_fast_index(lua: &Lua, db: &Rc<Db>) -> Result<()> {
    let cell = Rc::new(RefCell::new(Some(db.clone())));
    let methods = match lua.app_data_ref::<Methods>() {
        Some(m) => m.table(lua)?,
        None => return Err(mlua::Error::runtime("card methods are not made yet")),
    };
    let slow = lua.create_function(|lua, (id, code): (i64, i64)| field_by_code(lua, id, code))?;
    let answering = cell.clone();
    fast_index::install(
        lua,
        methods,
        slow,
        Box::new(move |id, code| answer(&answering, id, code)),
    )?;
    lua.set_app_data(FastDb(cell));
    Ok(())
}

/// The VM's database is now `db` (a reload chain's engines take turns on one VM).
pub fn set_db(lua: &Lua, db: &Rc<Db>) {
    if let Some(f) = lua.app_data_ref::<FastDb>() {
        *f.0.borrow_mut() = Some(db.clone());
    }
    fast_index::forget(lua);
}

/// The fast `__index`'s answer to a read of name `code` on object `id`: what needs neither
/// Lua nor a new Lua object, else the slow path or the mlua `__index` (no game running, the
/// state being changed, an object not of this game: that says what it always said). Never
/// panics: it runs inside a C function.
fn answer(cell: &RefCell<Option<Rc<Db>>>, id: ObjId, code: i64) -> Answer {
    let f = match Key::from_code(code) {
        Some(Key::Method(i)) => return Answer::Method(i),
        Some(Key::Field(f)) => f,
        Some(Key::Char(_)) => return Answer::Slow,
        None => return Answer::Unknown,
    };
    let Ok(db) = cell.try_borrow() else {
        return Answer::Unknown;
    };
    let Some(db) = db.as_ref() else {
        return Answer::Unknown;
    };
    let Ok(current) = db.current.try_borrow() else {
        return Answer::Unknown;
    };
    let Some(st) = current.as_ref().and_then(|s| s.try_borrow().ok()) else {
        return Answer::Unknown;
    };
    if id.0 as usize >= st.objects.len() {
        return Answer::Unknown;
    }
    match plain(db, &st, id, f) {
        Some(Plain::Nil) => Answer::Nil,
        Some(Plain::Bool(b)) => Answer::Bool(b),
        Some(Plain::Int(i)) => Answer::Int(i),
        Some(Plain::Text(t)) => Answer::Text(t.slot()),
        None => Answer::Slow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key's code is the position of its field in FIELDS: the two must not drift apart.
    #[test]
    fn field_codes_round_trip() {
        for (i, (_, f)) in FIELDS.iter().enumerate() {
            assert_eq!(*f as usize, i);
            assert_eq!(Key::from_code(Key::Field(*f).code()), Some(Key::Field(*f)));
        }
        for i in 0..METHODS.len() {
            assert_eq!(Key::from_code(Key::Method(i).code()), Some(Key::Method(i)));
        }
        assert_eq!(Key::from_code(Key::Char(7).code()), Some(Key::Char(7)));
        assert_eq!(Key::from_code(-1), None);
    }
}
