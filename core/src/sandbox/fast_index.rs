//! The card handles' `__index` in front of mlua's: a C function that answers a read
//! (`c.owner`, `c.label`, `c:has`) from what it has met before, without mlua's callback
//! machinery (a reference made per argument, the handle's type looked up, the name's text
//! compared with every field's), and hands anything else to the mlua `__index`
//! (`script::card`), which resolves the name and teaches it here. What a field is stays
//! `script::card`'s business ([`card::plain`], [`card::field`]); this module only knows
//! where a handle and a name are.
//!
//! This is the boundary's one unsafe module. The invariants it relies on:
//! - A handle is known by the address of its userdata block (`lua_touserdata`), and only
//!   the engine's cached handles (`handle.rs`) are learnt: the cache holds each of them for
//!   the VM's whole life, so an address learnt is never freed and never another value's.
//! - A name is known by the address of its Lua string (`lua_topointer`): Luau interns
//!   strings, so every string with that text is that one object, and each learnt string is
//!   kept alive here (`anchors`), so its address is never another string's.
//! - What a name means depends on the game's database (its characteristics): the table of
//!   names is emptied whenever the VM's database changes ([`set_db`]), and answers use the
//!   database kept here, the VM's own.
//! - The fast path runs no Lua, allocates nothing in the VM (integers and booleans are
//!   pushed as they are; a string or a method function is pushed from a table that holds it
//!   already) and raises no error: anything it cannot answer so goes, unchanged, to the mlua
//!   `__index` or to [`card::field_by_code`], which run as any kernel callback does (memory
//!   guard, errors naming the script's file:line), and whatever they raise passes through
//!   this function with no Rust value alive in its frame.
//! - Scripts cannot reach the function (mlua's `__metatable` hides the metatable), so its
//!   arguments are a handle and a key, as Luau passes them; anything else is handed on.

use std::cell::RefCell;
use std::ffi::{c_int, c_void};
use std::rc::Rc;

use mlua::{AnyUserData, Lua, LuaString, Result, Table, ffi};
use rustc_hash::FxHashMap;

use crate::db::Db;
use crate::sandbox::handle::CardUd;
use crate::script::card::{self, Key, Plain};
use crate::state::ObjId;

/// What the fast `__index` knows (the VM's app data, as `Rc<FastIndex>`; the C function
/// holds its address as an upvalue: app data lives as long as the VM).
pub struct FastIndex {
    /// The cached handles' userdata addresses, to their object ids.
    ids: RefCell<FxHashMap<usize, u32>>,
    /// The names met, by their Lua string's address, to their [`Key::code`].
    keys: RefCell<FxHashMap<usize, i64>>,
    /// The strings of `keys`, kept alive so that their addresses stay theirs.
    anchors: RefCell<Vec<LuaString>>,
    /// The database the names were resolved against: the VM's.
    db: RefCell<Option<Rc<Db>>>,
    /// Lua strings already made for texts, by [`card::Text::slot`].
    texts: Table,
}

/// Puts the fast `__index` in front of the card handles' own, for a VM whose database is
/// `db` (call once per VM, after the card methods are made).
pub fn install(lua: &Lua, db: &Rc<Db>) -> Result<()> {
    let texts = lua.create_table()?;
    let methods = match lua.app_data_ref::<card::Methods>() {
        Some(m) => m.table(lua)?,
        None => return Err(mlua::Error::runtime("card methods are not made yet")),
    };
    let slow =
        lua.create_function(|lua, (id, code): (i64, i64)| card::field_by_code(lua, id, code))?;
    let fast = Rc::new(FastIndex {
        ids: Default::default(),
        keys: Default::default(),
        anchors: Default::default(),
        db: RefCell::new(Some(db.clone())),
        texts: texts.clone(),
    });
    let at = Rc::as_ptr(&fast) as *mut c_void;
    let probe = lua.create_userdata(CardUd(ObjId(0)))?;
    // SAFETY: the closure uses the 5 slots exec_raw pushed and at most 7 more (checked), and
    // runs protected (an allocation error unwinds cleanly). `at` stays valid: the Rc is the
    // VM's app data from here on, and app data lives as long as the VM.
    unsafe {
        lua.exec_raw::<()>((probe, slow, methods, texts), |state| {
            ffi::luaL_checkstack(state, 8, c"fast_index".as_ptr());
            // 1 probe, 2 slow, 3 methods, 4 texts
            if ffi::lua_getmetatable(state, 1) == 0 {
                return;
            }
            // 5 the handles' metatable
            ffi::lua_pushlightuserdata(state, at); // upvalue 1
            ffi::lua_pushstring(state, c"__index".as_ptr());
            ffi::lua_rawget(state, 5); // upvalue 2: mlua's __index
            ffi::lua_pushvalue(state, 2); // upvalue 3
            ffi::lua_pushvalue(state, 3); // upvalue 4
            ffi::lua_pushvalue(state, 4); // upvalue 5
            ffi::lua_pushcclosure(state, index, 5);
            ffi::lua_pushstring(state, c"__index".as_ptr());
            ffi::lua_insert(state, -2);
            ffi::lua_rawset(state, 5);
        })?;
    }
    lua.set_app_data(fast);
    Ok(())
}

/// The VM's database is now `db` (a reload): what names meant is forgotten.
pub fn set_db(lua: &Lua, db: &Rc<Db>) {
    let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() else {
        return;
    };
    fast.keys.borrow_mut().clear();
    fast.anchors.borrow_mut().clear();
    let _ = fast.texts.clear();
    *fast.db.borrow_mut() = Some(db.clone());
}

/// Learns a cached handle (`handle.rs`: it lives as long as the VM).
pub fn learn_handle(lua: &Lua, ud: &AnyUserData, id: ObjId) {
    if let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() {
        fast.ids.borrow_mut().insert(ud.to_pointer() as usize, id.0);
    }
}

/// The object id of `ud` if it is a cached handle.
pub fn handle_id(lua: &Lua, ud: &AnyUserData) -> Option<ObjId> {
    let fast = lua.app_data_ref::<Rc<FastIndex>>()?;
    let ids = fast.ids.try_borrow().ok()?;
    ids.get(&(ud.to_pointer() as usize)).map(|id| ObjId(*id))
}

/// Learns what name `key` means for `db` (called by the mlua `__index` once it resolved it).
pub fn learn(lua: &Lua, db: &Rc<Db>, key: &LuaString, found: Key) {
    let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() else {
        return;
    };
    if !fast.db.borrow().as_ref().is_some_and(|d| Rc::ptr_eq(d, db)) {
        return;
    }
    let (Ok(mut keys), Ok(mut anchors)) =
        (fast.keys.try_borrow_mut(), fast.anchors.try_borrow_mut())
    else {
        return;
    };
    if keys
        .insert(key.to_pointer() as usize, found.code())
        .is_none()
    {
        anchors.push(key.clone());
    }
}

/// Keeps the Lua string made for text `t` (so the next read of it pushes it as it is).
pub fn keep_text(lua: &Lua, db: &Rc<Db>, t: card::Text, s: &LuaString) {
    let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() else {
        return;
    };
    if fast.db.borrow().as_ref().is_some_and(|d| Rc::ptr_eq(d, db)) {
        // (A cache: if it cannot grow, the next read makes the string again.)
        let _ = fast.texts.raw_set(t.slot(), s);
    }
}

/// A new table (room for 5 named fields) with `keys[i] = fields[i]` set in that order (a
/// field that is `None` left out) and metatable `meta`, made in one protected call.
pub fn record_with_meta(
    lua: &Lua,
    keys: &[LuaString; 3],
    fields: [Option<mlua::Value>; 3],
    meta: &Table,
) -> Result<Table> {
    let [a, b, c] = fields;
    let args = (meta, &keys[0], a, &keys[1], b, &keys[2], c);
    // SAFETY: the closure gets the 7 values above at 1..7, pushes at most 3 more (exec_raw
    // checked room for 3; LUA_MINSTACK is more), and leaves only the new table. It runs
    // protected: an allocation the memory limit refuses is an error, as with mlua's calls.
    unsafe {
        lua.exec_raw::<Table>(args, |state| {
            ffi::lua_createtable(state, 0, 5);
            for k in [2, 4, 6] {
                if ffi::lua_isnil(state, k + 1) == 0 {
                    ffi::lua_pushvalue(state, k);
                    ffi::lua_pushvalue(state, k + 1);
                    ffi::lua_rawset(state, 8);
                }
            }
            ffi::lua_pushvalue(state, 1);
            ffi::lua_setmetatable(state, 8);
            ffi::lua_replace(state, 1);
            ffi::lua_settop(state, 1);
        })
    }
}

/// What the fast path found for a read.
enum Answer {
    Nil,
    Bool(bool),
    Int(i64),
    Text(i64, u32, i64),
    Method(usize),
    /// A field or characteristic [`card::field_by_code`] works out: object id and key code.
    Slow(u32, i64),
    /// Not known: the mlua `__index` answers.
    Unknown,
}

/// Finds the answer, touching nothing of the VM but the arguments' addresses; every Rust
/// borrow taken here ends before it returns.
///
/// # Safety
/// `state` is the running thread of a call of [`index`], with its 2 arguments.
unsafe fn answer(state: *mut ffi::lua_State, fast: &FastIndex) -> Answer {
    // SAFETY: reading the types and addresses of the 2 arguments, which exist.
    let (ud, key) = unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TUSERDATA
            || ffi::lua_type(state, 2) != ffi::LUA_TSTRING
        {
            return Answer::Unknown;
        }
        (
            ffi::lua_touserdata(state, 1) as usize,
            ffi::lua_tolstring(state, 2, std::ptr::null_mut()) as usize,
        )
    };
    let Some(id) = fast.ids.try_borrow().ok().and_then(|m| m.get(&ud).copied()) else {
        return Answer::Unknown;
    };
    let Some(code) = fast
        .keys
        .try_borrow()
        .ok()
        .and_then(|m| m.get(&key).copied())
    else {
        return Answer::Unknown;
    };
    let f = match Key::from_code(code) {
        Some(Key::Method(i)) => return Answer::Method(i),
        Some(Key::Field(f)) => f,
        Some(Key::Char(_)) => return Answer::Slow(id, code),
        None => return Answer::Unknown,
    };
    let Ok(db) = fast.db.try_borrow() else {
        return Answer::Unknown;
    };
    let Some(db) = db.as_ref() else {
        return Answer::Unknown;
    };
    // (No game running, a state being changed, an object not of this game: the mlua
    // `__index` says what it always said.)
    let Ok(current) = db.current.try_borrow() else {
        return Answer::Unknown;
    };
    let Some(st) = current.as_ref().and_then(|s| s.try_borrow().ok()) else {
        return Answer::Unknown;
    };
    if id as usize >= st.objects.len() {
        return Answer::Unknown;
    }
    match card::plain(db, &st, ObjId(id), f) {
        Some(Plain::Text(t)) => Answer::Text(t.slot(), id, code),
        Some(Plain::Nil) => Answer::Nil,
        Some(Plain::Bool(b)) => Answer::Bool(b),
        Some(Plain::Int(i)) => Answer::Int(i),
        None => Answer::Slow(id, code),
    }
}

/// The handles' `__index(handle, key)`.
unsafe extern "C-unwind" fn index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: Luau calls `__index` with the object and the key, and gives a C function
    // LUA_MINSTACK free slots (at most 4 are pushed here). Upvalue 1 is the FastIndex that
    // `install` made, alive as the VM's app data; upvalues 2-5 are what `install` pushed.
    // Nothing with a destructor is alive across `lua_call`, which may raise an error.
    unsafe {
        ffi::lua_settop(state, 2);
        let fast = &*(ffi::lua_touserdata(state, ffi::lua_upvalueindex(1)) as *const FastIndex);
        let (id, code) = match answer(state, fast) {
            Answer::Nil => {
                ffi::lua_pushnil(state);
                return 1;
            }
            Answer::Bool(b) => {
                ffi::lua_pushboolean(state, b as c_int);
                return 1;
            }
            Answer::Int(i) => {
                ffi::lua_pushinteger(state, i);
                return 1;
            }
            Answer::Method(i) => {
                ffi::lua_rawgeti(state, ffi::lua_upvalueindex(4), i as ffi::lua_Integer + 1);
                return 1;
            }
            Answer::Text(slot, id, code) => {
                if ffi::lua_rawgeti(state, ffi::lua_upvalueindex(5), slot) == ffi::LUA_TSTRING {
                    return 1;
                }
                ffi::lua_pop(state, 1);
                (id, code)
            }
            Answer::Slow(id, code) => (id, code),
            Answer::Unknown => {
                ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
                ffi::lua_insert(state, 1);
                ffi::lua_call(state, 2, 1);
                return 1;
            }
        };
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
        ffi::lua_pushinteger(state, id as ffi::lua_Integer);
        ffi::lua_pushinteger(state, code);
        ffi::lua_call(state, 2, 1);
        1
    }
}
