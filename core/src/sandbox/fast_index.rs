//! The card handles' `__index` in front of mlua's: a C function that answers a read
//! (`c.owner`, `c.label`, `c:has`) from what it has met before, without mlua's callback
//! machinery (a reference made per argument, the handle's type looked up, the name's text
//! compared with every field's), and hands anything else to the mlua `__index`
//! (`script::card`), which resolves the name and teaches it here. What a field is stays
//! `script::card`'s business: it hands [`install`] the function that answers a read of a
//! known handle and name (`script::card::answer`, which reads the game without Lua); this
//! module only knows where a handle and a name are.
//!
//! Beside it, the `ctx` side of the boundary: the kernel's ctx tables made in one go
//! ([`record_with_meta`], and without a protected call while no memory limit is set:
//! [`record_with_meta_unlimited`]), and `Ctx`'s fallback `__index` answered in C
//! ([`install_ctx_fallback`]: a getter it finds runs as the prelude's function would run it).
//!
//! This is the boundary's one unsafe module. The invariants the handles' `__index` relies on:
//! - A handle is known by the address of its userdata block (`lua_touserdata`), and only
//!   the engine's cached handles (`handle.rs`) are learnt: the cache holds each of them for
//!   the VM's whole life, so an address learnt is never freed and never another value's.
//! - A name is known by the address of its Lua string (`lua_topointer`): Luau interns
//!   strings, so every string with that text is that one object, and each learnt string is
//!   kept alive here (`anchors`), so its address is never another string's.
//! - What a name means depends on the game's database (its characteristics): the names
//!   and texts learnt are forgotten whenever the VM's database changes ([`forget`]).
//! - The fast path runs no Lua, allocates nothing in the VM (integers and booleans are
//!   pushed as they are; a string or a method function is pushed from a table that holds it
//!   already) and raises no error: anything it cannot answer so goes, unchanged, to the mlua
//!   `__index` or to `script::card::field_by_code`, which run as any kernel callback does (memory
//!   guard, errors naming the script's file:line), and whatever they raise passes through
//!   this function with no Rust value alive in its frame.
//! - Scripts cannot reach the function (mlua's `__metatable` hides the metatable), so its
//!   arguments are a handle and a key, as Luau passes them; anything else is handed on.

use std::cell::RefCell;
use std::ffi::{c_int, c_void};
use std::rc::Rc;

use mlua::{Function, Lua, LuaString, Result, Table, ffi};
use rustc_hash::FxHashMap;

use crate::sandbox::handle::{CardUd, HandleIds};
use crate::state::ObjId;

/// What a read of a known handle and name gives, as the answering function finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    Nil,
    Bool(bool),
    Int(i64),
    /// A string, by its slot in the table of texts (made by the slow path the first time).
    Text(i64),
    /// Method `i` (0-based) of the list [`install`] was given.
    Method(usize),
    /// The slow path works it out: `script::card::field_by_code(id, code)`.
    Slow,
    /// Not answered here: the mlua `__index` answers.
    Unknown,
}

/// The function that answers a read: object id and the name's code (as learnt).
pub type Answerer = Box<dyn Fn(ObjId, i64) -> Answer>;

/// What the fast `__index` knows (the VM's app data, as `Rc<FastIndex>`; the C function
/// holds its address as an upvalue: app data lives as long as the VM).
pub struct FastIndex {
    /// The cached handles' userdata addresses, to their object ids (`handle.rs` fills it).
    ids: Rc<HandleIds>,
    /// The names met, by their Lua string's address, to their code.
    keys: RefCell<FxHashMap<usize, i64>>,
    /// The strings of `keys`, kept alive so that their addresses stay theirs.
    anchors: RefCell<Vec<LuaString>>,
    /// Lua strings already made for texts, by slot.
    texts: Table,
    answer: Answerer,
}

/// Puts the fast `__index` in front of the card handles' own (once per VM): `methods` is
/// the list of the card methods' functions, `slow(id, code)` works out what `answer` leaves
/// to it.
pub fn install(lua: &Lua, methods: Table, slow: Function, answer: Answerer) -> Result<()> {
    let Some(ids) = super::handle::handle_ids(lua) else {
        return Err(mlua::Error::runtime("the handle cache is not made yet"));
    };
    let texts = lua.create_table()?;
    let fast = Rc::new(FastIndex {
        ids,
        keys: Default::default(),
        anchors: Default::default(),
        texts: texts.clone(),
        answer,
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

/// What names and texts meant is forgotten (the VM's database changed: a reload).
pub fn forget(lua: &Lua) {
    let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() else {
        return;
    };
    fast.keys.borrow_mut().clear();
    fast.anchors.borrow_mut().clear();
    let _ = fast.texts.clear();
}

/// Learns that name `key` has code `code` (called by the mlua `__index` once it resolved it).
pub fn learn(lua: &Lua, key: &LuaString, code: i64) {
    let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() else {
        return;
    };
    let (Ok(mut keys), Ok(mut anchors)) =
        (fast.keys.try_borrow_mut(), fast.anchors.try_borrow_mut())
    else {
        return;
    };
    if keys.insert(key.to_pointer() as usize, code).is_none() {
        anchors.push(key.clone());
    }
}

/// Keeps the Lua string made for the text in `slot` (the next read pushes it as it is).
pub fn keep_text(lua: &Lua, slot: i64, s: &LuaString) {
    if let Some(fast) = lua.app_data_ref::<Rc<FastIndex>>() {
        // (A cache: if it cannot grow, the next read makes the string again.)
        let _ = fast.texts.raw_set(slot, s);
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

/// What [`record_with_meta`] makes, made without a protected call: for when the VM has no
/// memory limit set, where mlua makes its own tables unprotected too (an allocation then
/// fails only when the process is out of memory). The protected call costs about 3,300
/// instructions, most of a ctx's making. Same table size, same fields set in the same order,
/// so the same table (`pairs` order included).
pub fn record_with_meta_unlimited(
    lua: &Lua,
    keys: &[LuaString; 3],
    fields: [Option<mlua::Value>; 3],
    meta: &Table,
) -> Result<Table> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: at most 3 values are pushed above the stack's top, with room checked
        // first; pushing a key or a value is a reference copied (no error: `Value::Error`
        // is never a field); on any early return the top is put back, and the new table is
        // popped into a reference, so the stack is left as found. The caller saw no memory
        // limit set, so nothing here can raise a Lua error short of the process's memory.
        unsafe {
            let top = ffi::lua_gettop(state);
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(mlua::Error::StackError);
            }
            ffi::lua_createtable(state, 0, 5);
            for (k, v) in keys.iter().zip(fields) {
                if let Some(v) = v
                    && !v.is_nil()
                {
                    let pushed = raw.push(k).and_then(|()| raw.push_value(&v));
                    if let Err(e) = pushed {
                        ffi::lua_settop(state, top);
                        return Err(e);
                    }
                    ffi::lua_rawset(state, -3);
                }
            }
            if let Err(e) = raw.push(meta) {
                ffi::lua_settop(state, top);
                return Err(e);
            }
            ffi::lua_setmetatable(state, -2);
            raw.pop::<Table>()
        }
    })
}

/// Answers the prelude's `Ctx` fallback `__index(_, k)` (a field absent from a ctx and from
/// `Ctx`'s methods: `ctx.source` in a ctx of the rules, `ctx.turn`) in C, as the prelude's
/// Lua function does (`local g = Getters[k]; if g ~= nil then return g() end return nil`),
/// without starting the interpreter for it: a miss is a table read. `meta` is `Ctx`'s
/// metatable and `getters` the prelude's `Getters` (a plain table), both before the freeze.
pub fn install_ctx_fallback(lua: &Lua, meta: &Table, getters: &Table) -> Result<()> {
    // SAFETY: the closure uses the 2 slots exec_raw pushed and at most 2 more (exec_raw
    // checked room for 3), and runs protected.
    unsafe {
        lua.exec_raw::<()>((meta, getters), |state| {
            // 1 meta, 2 getters
            ffi::lua_pushstring(state, c"__index".as_ptr());
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushcclosure(state, ctx_fallback, 1);
            ffi::lua_rawset(state, 1);
        })
    }
}

/// `Ctx`'s fallback `__index(t, k)`: `Getters[k]()`, or nil.
unsafe extern "C-unwind" fn ctx_fallback(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: Luau calls `__index` with the object and the key (any value: a raw read of a
    // table with any key is allowed), and gives a C function LUA_MINSTACK free slots (at most
    // 2 are pushed here). Upvalue 1 is `Getters`, a table without a metatable: a raw read is
    // what `Getters[k]` reads. A getter's error passes through with no Rust value alive.
    unsafe {
        ffi::lua_settop(state, 2);
        ffi::lua_rawget(state, ffi::lua_upvalueindex(1));
        if ffi::lua_isnil(state, -1) != 0 {
            return 1;
        }
        ffi::lua_call(state, 0, 1);
        1
    }
}

/// Finds the answer, touching nothing of the VM but the arguments' addresses; every Rust
/// borrow taken here ends before it returns.
///
/// # Safety
/// `state` is the running thread of a call of [`index`], with its 2 arguments.
unsafe fn answer(state: *mut ffi::lua_State, fast: &FastIndex) -> (Answer, u32, i64) {
    // SAFETY: reading the types and addresses of the 2 arguments, which exist.
    let (ud, key) = unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TUSERDATA
            || ffi::lua_type(state, 2) != ffi::LUA_TSTRING
        {
            return (Answer::Unknown, 0, 0);
        }
        (
            ffi::lua_touserdata(state, 1) as usize,
            // The address mlua's `LuaString::to_pointer` gives (the string's bytes).
            ffi::lua_tolstring(state, 2, std::ptr::null_mut()) as usize,
        )
    };
    let Some(id) = fast.ids.get(ud) else {
        return (Answer::Unknown, 0, 0);
    };
    let Some(code) = fast
        .keys
        .try_borrow()
        .ok()
        .and_then(|m| m.get(&key).copied())
    else {
        return (Answer::Unknown, 0, 0);
    };
    ((fast.answer)(id, code), id.0, code)
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
        let (found, id, code) = answer(state, fast);
        match found {
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
            Answer::Text(slot) => {
                if ffi::lua_rawgeti(state, ffi::lua_upvalueindex(5), slot) == ffi::LUA_TSTRING {
                    return 1;
                }
                ffi::lua_pop(state, 1);
            }
            Answer::Slow => {}
            Answer::Unknown => {
                ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
                ffi::lua_insert(state, 1);
                ffi::lua_call(state, 2, 1);
                return 1;
            }
        }
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
        ffi::lua_pushinteger(state, id as ffi::lua_Integer);
        ffi::lua_pushinteger(state, code);
        ffi::lua_call(state, 2, 1);
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::Value;

    /// The entries of `t` as `pairs` gives them, as text.
    fn entries(t: &Table) -> Vec<String> {
        t.pairs::<Value, Value>()
            .map(|kv| {
                let (k, v) = kv.unwrap();
                format!("{k:?}={v:?}")
            })
            .collect()
    }

    #[test]
    fn a_record_made_unprotected_is_the_protected_one() {
        let lua = Lua::new();
        let keys = ["player", "source", "ability"].map(|k| lua.create_string(k).unwrap());
        let meta = lua.create_table().unwrap();
        let ability = lua.create_table().unwrap();
        let ud = Value::Table(lua.create_table().unwrap());
        for fields in [
            [
                Some(Value::Integer(2)),
                Some(ud.clone()),
                Some(Value::Table(ability.clone())),
            ],
            [Some(Value::Integer(1)), None, None],
            [None, None, None],
            [None, Some(ud.clone()), Some(Value::Nil)],
        ] {
            let a = record_with_meta(&lua, &keys, fields.clone(), &meta).unwrap();
            let b = record_with_meta_unlimited(&lua, &keys, fields, &meta).unwrap();
            assert_eq!(entries(&a), entries(&b));
            assert_eq!(b.metatable(), Some(meta.clone()));
            assert!(!a.equals(&b).unwrap(), "a new table each time");
        }
    }

    #[test]
    fn the_ctx_fallback_answers_as_the_preludes_function() {
        let lua = Lua::new();
        let setup = r#"
            local Getters = {
                turn = function() return 7 end,
                two = function() return 1, 2 end,
                fails = function() error("no turn here") end,
            }
            local meta = {}
            local function lua_index(_, k)
                local g = Getters[k]
                if g ~= nil then return g() end
                return nil
            end
            local slow = setmetatable({}, { __index = lua_index })
            local fast = setmetatable({}, meta)
            return Getters, meta, slow, fast
        "#;
        let (getters, meta, slow, fast): (Table, Table, Table, Table) =
            lua.load(setup).eval().unwrap();
        install_ctx_fallback(&lua, &meta, &getters).unwrap();
        let read = lua
            .load(
                r#"local t, k = ...
                   local ok, v = pcall(function() return t[k] end)
                   return tostring(ok) .. " " .. tostring(v)"#,
            )
            .into_function()
            .unwrap();
        for key in [
            Value::String(lua.create_string("turn").unwrap()),
            Value::String(lua.create_string("two").unwrap()),
            Value::String(lua.create_string("fails").unwrap()),
            Value::String(lua.create_string("source").unwrap()),
            Value::Integer(1),
            Value::Boolean(true),
        ] {
            let a: String = read.call((&slow, key.clone())).unwrap();
            let b: String = read.call((&fast, key.clone())).unwrap();
            assert_eq!(a, b, "{key:?}");
        }
        let a: String = read.call((&fast, "turn")).unwrap();
        assert_eq!(a, "true 7");
        let chained: String = lua
            .load(r#"local fast = ... return tostring(setmetatable({}, { __index = fast }).turn)"#)
            .call(&fast)
            .unwrap();
        assert_eq!(chained, "7");
    }
}
