//! Kernel functions whose arguments are read straight from the Luau stack (`K.cards`,
//! `K.abilities`...): a C function in front of the mlua one, as `fast_index.rs` is for the
//! card handles. mlua's callback machinery makes a reference per table, string or userdata
//! argument and reads a table's fields through protected calls (about 900 instructions a
//! field); here a decoder reads the arguments in place and turns them into a few integers,
//! and a second mlua function, taking those integers (which need no reference), does the
//! work as any kernel callback does. What the arguments mean stays the script API's
//! business: this module only reads the stack.
//!
//! A sibling of `fast_index.rs`, with the same invariants:
//! - The decoder runs no Lua, allocates nothing in the VM and raises no error: it reads
//!   the arguments' types and values, and a table argument's fields raw, by keys the front
//!   holds (no metamethod runs: a table with a metatable is handed on). Anything it does not
//!   know (a type, a name, no game running) makes it hand on: the call goes, unchanged,
//!   to the original mlua function, which answers or fails as it always did.
//! - A string is read where it lives on the stack (`lua_tolstring` of a value whose type is
//!   string, which converts nothing), and only while it is there: the decoder gets a slice
//!   that does not outlive the call.
//! - A card handle is known by its userdata's address, and only the engine's cached handles
//!   are (`handle.rs`): the cache holds each of them for the VM's whole life.
//! - Whatever the mlua functions raise passes through the C function with no Rust value
//!   alive in its frame (the decoder's result is plain integers, read before the call).
//!   Their errors name the script's file:line as before: the C frame has no source.
//! - Scripts reach the C function only as the value of the `K` table's field, and call it
//!   with whatever arguments; every argument is checked before it is read.

use std::ffi::{CStr, c_int, c_void};
use std::rc::Rc;

use mlua::{Function, Lua, Result, ffi};

use crate::sandbox::handle::HandleIds;
use crate::state::ObjId;

/// One argument for the integer function: nil, a whole number or a boolean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Code {
    Nil,
    Int(i64),
    Bool(bool),
}

/// The most codes a decoder gives.
pub const CODES: usize = 6;

/// The most cards a list answered here holds (a longer one goes to the integer function).
pub const LIST: usize = 128;

/// What a call is answered with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// The original function answers, with the arguments as they are.
    HandOn,
    /// The integer function answers, with these arguments.
    Codes([Code; CODES]),
    /// A whole number, pushed as it is.
    Int(i64),
    /// A new list of the handles of the first `n` objects of the buffer; the integer
    /// function answers with the codes instead if a handle was never made.
    Cards(usize, [Code; CODES]),
}

/// Reads a call's arguments (and may answer it, writing a list's object ids in the buffer).
pub type Decoder = Box<dyn Fn(&Args<'_>, &mut [u32; LIST]) -> Outcome>;

/// A value's type, as the decoder sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Nil,
    Bool,
    Number,
    String,
    Table,
    UserData,
    Other,
}

/// The arguments of a call, read in place (1-based positions, as in Lua; a position past
/// the last argument reads as nil).
pub struct Args<'a> {
    state: *mut ffi::lua_State,
    given: c_int,
    ids: &'a HandleIds,
    /// How many keys the front has.
    keys: usize,
}

impl Args<'_> {
    fn ty(&self, i: c_int) -> c_int {
        if i < 1 || (i > self.given && !self.pushed(i)) {
            return ffi::LUA_TNIL;
        }
        // SAFETY: `i` is an argument or a field pushed by `field`, on the running stack.
        unsafe { ffi::lua_type(self.state, i) }
    }

    fn pushed(&self, i: c_int) -> bool {
        // SAFETY: reading the stack's height.
        i <= unsafe { ffi::lua_gettop(self.state) }
    }

    /// The type of argument (or pushed field) `i`.
    pub fn kind(&self, i: c_int) -> Kind {
        match self.ty(i) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Kind::Nil,
            ffi::LUA_TBOOLEAN => Kind::Bool,
            ffi::LUA_TNUMBER => Kind::Number,
            ffi::LUA_TSTRING => Kind::String,
            ffi::LUA_TTABLE => Kind::Table,
            ffi::LUA_TUSERDATA => Kind::UserData,
            _ => Kind::Other,
        }
    }

    /// A whole number (exactly representable: within 2^53), else None.
    pub fn int(&self, i: c_int) -> Option<i64> {
        if self.ty(i) != ffi::LUA_TNUMBER {
            return None;
        }
        // SAFETY: a number at `i`; lua_tonumberx converts nothing.
        let n = unsafe { ffi::lua_tonumberx(self.state, i, std::ptr::null_mut()) };
        (n.fract() == 0.0 && n.abs() <= (1u64 << 53) as f64).then_some(n as i64)
    }

    /// A boolean, else None.
    pub fn bool(&self, i: c_int) -> Option<bool> {
        if self.ty(i) != ffi::LUA_TBOOLEAN {
            return None;
        }
        // SAFETY: a boolean at `i`.
        Some(unsafe { ffi::lua_toboolean(self.state, i) } != 0)
    }

    /// A string's bytes, where the string lives (for this call only), else None.
    pub fn text(&self, i: c_int) -> Option<&[u8]> {
        if self.ty(i) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        // SAFETY: a string at `i` (lua_tolstring converts nothing then); it stays on the
        // stack, and so alive and unmoved, until the call returns, which `&self` outlives.
        unsafe {
            let p = ffi::lua_tolstring(self.state, i, &mut len);
            (!p.is_null()).then(|| std::slice::from_raw_parts(p as *const u8, len))
        }
    }

    /// The object id of a cached card handle, else None.
    pub fn handle(&self, i: c_int) -> Option<ObjId> {
        if self.ty(i) != ffi::LUA_TUSERDATA {
            return None;
        }
        // SAFETY: a userdata at `i`; only its address is read.
        self.ids
            .get(unsafe { ffi::lua_touserdata(self.state, i) } as usize)
    }

    /// Pushes field `keys[k]` (the front's list of keys) of table argument `i`, read raw,
    /// and gives its position; None when `i` is not a table without a metatable (a
    /// metamethod could answer), `k` is not a key, or there is no room (at most [`FIELDS`]
    /// fields a call).
    pub fn field(&self, i: c_int, k: usize) -> Option<c_int> {
        if self.ty(i) != ffi::LUA_TTABLE || i > self.given || k >= self.keys {
            return None;
        }
        // SAFETY: a table at `i`. The C function's stack has LUA_MINSTACK free slots and
        // holds at most `given` arguments when decoding starts (checked there), so the one
        // or two values pushed here fit. Upvalue 4 is the front's table of keys (strings,
        // kept alive by it): reading it and the argument raw runs no Lua and allocates
        // nothing.
        unsafe {
            let top = ffi::lua_gettop(self.state);
            if top >= self.given + FIELDS as c_int {
                return None;
            }
            if ffi::lua_getmetatable(self.state, i) != 0 {
                ffi::lua_settop(self.state, top);
                return None;
            }
            ffi::lua_rawgeti(
                self.state,
                ffi::lua_upvalueindex(4),
                k as ffi::lua_Integer + 1,
            );
            ffi::lua_rawget(self.state, i);
            Some(top + 1)
        }
    }
}

/// The most fields a decoder reads in one call.
pub const FIELDS: usize = 8;

/// What a C front holds (its upvalue 1; the VM's app data keeps it alive).
struct Front {
    ids: Rc<HandleIds>,
    decode: Decoder,
    /// How many field names the decoder may read (the closure's upvalue 4 holds them).
    keys: usize,
}

/// Every front made for the VM (app data: they live as long as it).
#[derive(Default)]
struct Fronts(std::cell::RefCell<Vec<Rc<Front>>>);

/// A function that reads its arguments with `decode` and calls `fast` with the codes it
/// gives, or, when it hands on, `slow` with the arguments as they are. `fast` and `slow`
/// return one value. `keys`: the field names `decode` may read (by their place in the list:
/// see [`Args::field`]).
pub fn front(
    lua: &Lua,
    slow: Function,
    fast: Function,
    keys: &[&CStr],
    decode: Decoder,
) -> Result<Function> {
    let (Some(ids), Some(handles)) = (
        super::handle::handle_ids(lua),
        super::handle::handle_table(lua),
    ) else {
        return Err(mlua::Error::runtime("the handle cache is not made yet"));
    };
    let names = keys
        .iter()
        .map(|k| lua.create_string(k.to_bytes()))
        .collect::<Result<Vec<_>>>()?;
    let names = lua.create_sequence_from(names)?;
    let front = Rc::new(Front {
        ids,
        decode,
        keys: keys.len(),
    });
    let at = Rc::as_ptr(&front) as *mut c_void;
    if lua.app_data_ref::<Fronts>().is_none() {
        lua.set_app_data(Fronts::default());
    }
    if let Some(all) = lua.app_data_ref::<Fronts>() {
        all.0.borrow_mut().push(front);
    }
    // SAFETY: the closure gets the 2 functions, the keys and the handles at 1..4, pushes 1 more and
    // leaves the new closure alone; it runs protected. `at` stays valid: the Rc is in the
    // VM's app data.
    unsafe {
        lua.exec_raw::<Function>((slow, fast, names, handles), |state| {
            ffi::lua_pushlightuserdata(state, at);
            ffi::lua_insert(state, 1);
            ffi::lua_pushcclosure(state, call, 5);
        })
    }
}

/// The front's C function: upvalue 1 the [`Front`], 2 the slow function, 3 the fast one,
/// 4 the list of keys, 5 the cached handles by object id + 1 (`handle.rs`).
unsafe extern "C-unwind" fn call(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: upvalue 1 is the Front `front` made, alive as the VM's app data. The decoder
    // pushes at most FIELDS values; a C function has LUA_MINSTACK free slots, and more are
    // asked for before the calls (luaL_checkstack raises a plain error: nothing with a
    // destructor is alive here then). The decoder's result and the buffer are Copy: no Rust
    // value with a destructor is alive across lua_call, or across lua_createtable (which
    // may raise a memory error: the list is made in the script's allowance, as a table the
    // script made itself would be).
    unsafe {
        let given = ffi::lua_gettop(state);
        let f = &*(ffi::lua_touserdata(state, ffi::lua_upvalueindex(1)) as *const Front);
        let mut ids = [0u32; LIST];
        let outcome = if given + (FIELDS as c_int) < ffi::LUA_MINSTACK {
            let args = Args {
                state,
                given,
                ids: &f.ids,
                keys: f.keys,
            };
            // A decoder that panicked hands on (no unwinding into Luau's frames).
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (f.decode)(&args, &mut ids)))
                .unwrap_or(Outcome::HandOn)
        } else {
            Outcome::HandOn
        };
        ffi::lua_settop(state, given);
        let codes = match outcome {
            Outcome::HandOn => {
                ffi::luaL_checkstack(state, 1, c"raw_args".as_ptr());
                ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
                ffi::lua_insert(state, 1);
                ffi::lua_call(state, given, 1);
                return 1;
            }
            Outcome::Int(i) => {
                ffi::lua_pushinteger(state, i as ffi::lua_Integer);
                return 1;
            }
            Outcome::Cards(n, codes) => {
                if cards(state, &ids[..n.min(LIST)]) {
                    return 1;
                }
                codes
            }
            Outcome::Codes(codes) => codes,
        };
        ffi::luaL_checkstack(state, CODES as c_int + 1, c"raw_args".as_ptr());
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
        for c in codes {
            match c {
                Code::Nil => ffi::lua_pushnil(state),
                Code::Int(i) => ffi::lua_pushinteger(state, i as ffi::lua_Integer),
                Code::Bool(b) => ffi::lua_pushboolean(state, b as c_int),
            }
        }
        ffi::lua_call(state, CODES as c_int, 1);
        1
    }
}

/// Pushes a new list of the cached handles of `ids`, in order, and says true; false (and
/// nothing pushed) when one was never made.
///
/// # Safety
/// `state` is the running thread of a call of [`call`], with 2 free slots.
unsafe fn cards(state: *mut ffi::lua_State, ids: &[u32]) -> bool {
    // SAFETY: upvalue 5 is the handles' table; the list is made at the top and popped again
    // if a handle is missing.
    unsafe {
        let handles = ffi::lua_upvalueindex(5);
        ffi::lua_createtable(state, ids.len() as c_int, 0);
        for (i, id) in ids.iter().enumerate() {
            if ffi::lua_rawgeti(state, handles, *id as ffi::lua_Integer + 1) != ffi::LUA_TUSERDATA {
                ffi::lua_pop(state, 2);
                return false;
            }
            ffi::lua_rawseti(state, -2, i as ffi::lua_Integer + 1);
        }
        true
    }
}
