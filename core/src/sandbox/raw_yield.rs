//! What a coroutine yields, read in place (a sibling of `raw_args.rs` and `fast_index.rs`,
//! with the same invariants). mlua hands a resume's results over as one reference per value
//! (`lua_xpush` to its reference thread, a slot, a `ValueRef` to drop); here the values that
//! the caller selects by their first two (a tag and a kind, both strings; or a tag and one
//! table, by its `kind` entry) are read straight off the stack into plain Rust data: whole
//! numbers, booleans, copied texts, the object ids of cached card handles, lists of them, and
//! flat records of those. Anything else (another
//! type, a table with a metatable, a card handle that is not cached, a long text or list) is
//! handed on: the values are converted by mlua, unchanged, and the caller reads them as it
//! always did (so its errors read as before). What the values mean stays the caller's
//! business: this module only reads the stack.
//!
//! Invariants:
//! - The reader runs no Lua, allocates nothing in the VM and raises no error: it reads types,
//!   numbers and strings where they are (`lua_tolstring` of a value whose type is string,
//!   which converts nothing), a table's entries raw (`lua_rawgeti`, `lua_next`, only of a
//!   table without a metatable), and copies what it keeps into Rust before it returns.
//! - A card handle is known by its userdata's address, and only the engine's cached handles
//!   are (`handle.rs`): the cache holds each of them for the VM's whole life.
//! - It reads only the resume's results, at the top of the stack mlua gives it, and leaves
//!   the stack as it found it (mlua's guard pops the results after).
//! - Every value a script yields is checked before it is read, so a hostile yield (a wrong
//!   type, a metatable, a huge list) reads as "hand on", never as something else.

use std::cell::RefCell;
use std::ffi::c_int;
use std::marker::PhantomData;
use std::rc::Rc;

use mlua::state::RawLua;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, MultiValue, Result, Thread, ffi};

use crate::sandbox::handle::HandleIds;
use crate::sandbox::limits::{DATA, DEPTH, TEXT};
use crate::sandbox::numbers::MAX;
use crate::state::ObjId;
use crate::state::values::{CardRef, Val};

/// One value read in place.
#[derive(Clone, Debug, PartialEq)]
pub enum Raw {
    Nil,
    /// A whole number from -[`MAX`] to [`MAX`] (as mlua reads it: an integer).
    Int(i64),
    Bool(bool),
    /// A string of at most [`TEXT`] bytes (copied; not valid UTF-8: lossily).
    Text(String),
    /// A cached card handle.
    Card(ObjId),
    /// A list (a table without a metatable, entries 1..n) of cached card handles.
    Cards(Vec<ObjId>),
    /// A table without a metatable whose keys are all strings and whose values are whole
    /// numbers, booleans, strings or cached card handles (in `lua_next`'s order).
    Record(Vec<(String, Raw)>),
}

/// The most entries a list or a record read here holds (a longer one is handed on).
pub const ENTRIES: usize = 256;

/// Which yields are read in place: by the bytes of their first two values.
pub trait Select {
    /// The kind's name when values `tag`, `kind`... are to be read here.
    fn select(tag: &[u8], kind: &[u8]) -> Option<&'static str>;
    /// Whether a yield of `tag` and one table may be read here (by [`Select::select_record`]).
    fn record_tag(_tag: &[u8]) -> bool {
        false
    }
    /// The kind's name when the values are `tag` and one table whose `kind` entry is `kind`
    /// (the table is then read as a [`Raw::Record`], the one value after the kind).
    fn select_record(_tag: &[u8], _kind: &[u8]) -> Option<&'static str> {
        None
    }
    /// Whether the values after the kind, as read, are of shapes the caller takes as they
    /// are (else mlua converts them).
    fn fits(kind: &str, values: &[Raw]) -> bool;
}

/// A resume's results: read in place (the selected kind and the values after the kind), or
/// as mlua converts them.
pub enum Yielded<S: Select> {
    Raw(&'static str, Vec<Raw>),
    Values(MultiValue),
    #[doc(hidden)]
    _Select(PhantomData<S>),
}

thread_local! {
    /// The cached handles of the VM whose thread [`resume`] is resuming.
    static IDS: RefCell<Option<Rc<HandleIds>>> = const { RefCell::new(None) };
}

/// Resumes `thread` of `lua` with `args`; what it yields or returns is read in place when
/// `S` selects it.
pub fn resume<S: Select>(
    lua: &Lua,
    thread: &Thread,
    args: impl IntoLuaMulti,
) -> Result<Yielded<S>> {
    struct Restore(Option<Rc<HandleIds>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            IDS.with(|i| *i.borrow_mut() = self.0.take());
        }
    }
    let ids = super::handle::handle_ids(lua);
    let _restore = Restore(IDS.with(|i| std::mem::replace(&mut *i.borrow_mut(), ids)));
    thread.resume(args)
}

impl<S: Select> FromLuaMulti for Yielded<S> {
    fn from_lua_multi(values: MultiValue, _: &Lua) -> Result<Self> {
        Ok(Yielded::Values(values))
    }

    unsafe fn from_stack_multi(nvals: c_int, lua: &RawLua) -> Result<Self> {
        // Only under `resume`, which says whose handles these are.
        let ids = IDS.with(|i| i.borrow().clone());
        let read = ids.and_then(|ids| {
            // SAFETY: the `nvals` results are at the top of `lua.state()`'s stack (mlua's
            // contract for this function); `read` leaves the stack as it found it.
            unsafe { read::<S>(lua.state(), nvals, &ids) }
        });
        match read {
            Some((kind, values)) => Ok(Yielded::Raw(kind, values)),
            // SAFETY: as for this function, whose arguments are passed on unchanged.
            None => unsafe { MultiValue::from_stack_multi(nvals, lua) }.map(Yielded::Values),
        }
    }
}

/// The selected kind and the values after it, or None (nothing changed on the stack).
///
/// # Safety
/// `state`'s top `nvals` values are a resume's results.
unsafe fn read<S: Select>(
    state: *mut ffi::lua_State,
    nvals: c_int,
    ids: &HandleIds,
) -> Option<(&'static str, Vec<Raw>)> {
    // SAFETY: indices from `base` to the top are the results; reads push at most 3 values
    // (room asked for first) and `Stack` pops them again.
    unsafe {
        if nvals < 2 || ffi::lua_checkstack(state, 3) == 0 {
            return None;
        }
        let top = ffi::lua_gettop(state);
        let base = top - nvals + 1;
        if nvals == 2 && ffi::lua_type(state, top) == ffi::LUA_TTABLE {
            return record_yield::<S>(state, base, ids);
        }
        let kind = S::select(text(state, base)?, text(state, base + 1)?)?;
        let mut values = Vec::with_capacity((nvals - 2) as usize);
        for i in base + 2..=top {
            let v = value(state, i, ids, true);
            ffi::lua_settop(state, top);
            values.push(v?);
        }
        S::fits(kind, &values).then_some((kind, values))
    }
}

/// A tag and one table (`coroutine.yield("op", { kind = ... })`), read when `S` selects the
/// table's `kind`: the kind and the table as a record.
///
/// # Safety
/// `base` and `base + 1` are the top two values of `state`, with 3 free slots above.
unsafe fn record_yield<S: Select>(
    state: *mut ffi::lua_State,
    base: c_int,
    ids: &HandleIds,
) -> Option<(&'static str, Vec<Raw>)> {
    // SAFETY: as `read`; `table` leaves the stack as it found it.
    unsafe {
        let tag = text(state, base)?;
        // (Reading a table whose kind is not selected costs less than a first pass for the
        // kind would cost every table that is.)
        if !S::record_tag(tag) {
            return None;
        }
        let Raw::Record(fields) = table(state, base + 1, ids)? else {
            return None;
        };
        let kind = fields.iter().find_map(|(k, v)| match (k.as_str(), v) {
            ("kind", Raw::Text(t)) => Some(t.as_bytes()),
            _ => None,
        })?;
        let kind = S::select_record(tag, kind)?;
        let values = vec![Raw::Record(fields)];
        S::fits(kind, &values).then_some((kind, values))
    }
}

/// The bytes of the string at `i` (while it is on the stack), else None.
///
/// # Safety
/// `i` is a valid index of `state`.
unsafe fn text<'a>(state: *mut ffi::lua_State, i: c_int) -> Option<&'a [u8]> {
    // SAFETY: a string at `i`: lua_tolstring converts nothing; the bytes live while it is on
    // the stack, which the callers' use of the slice does not outlast.
    unsafe {
        if ffi::lua_type(state, i) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        let p = ffi::lua_tolstring(state, i, &mut len);
        (!p.is_null()).then(|| std::slice::from_raw_parts(p as *const u8, len))
    }
}

/// The value at absolute index `i`; `nested`: a table may be read (one level only).
///
/// # Safety
/// `i` is a valid absolute index of `state`, with 3 free slots above the top. What it
/// pushes, the caller pops.
unsafe fn value(
    state: *mut ffi::lua_State,
    i: c_int,
    ids: &HandleIds,
    nested: bool,
) -> Option<Raw> {
    // SAFETY: each read checks the type at `i` first.
    unsafe {
        Some(match ffi::lua_type(state, i) {
            ffi::LUA_TNIL => Raw::Nil,
            ffi::LUA_TBOOLEAN => Raw::Bool(ffi::lua_toboolean(state, i) != 0),
            ffi::LUA_TNUMBER => Raw::Int(int(ffi::lua_tonumberx(state, i, std::ptr::null_mut()))?),
            ffi::LUA_TSTRING => {
                let t = text(state, i)?;
                if t.len() > TEXT {
                    return None;
                }
                // (Not UTF-8: mlua's `to_str` would fail; that is for the caller to say.)
                Raw::Text(String::from_utf8(t.to_vec()).ok()?)
            }
            ffi::LUA_TUSERDATA => Raw::Card(ids.get(ffi::lua_touserdata(state, i) as usize)?),
            ffi::LUA_TTABLE if nested => table(state, i, ids)?,
            _ => return None,
        })
    }
}

/// A number as mlua reads it into an integer (whole, not -0, in range), within [`MAX`].
fn int(n: f64) -> Option<i64> {
    let i = n as i64;
    ((i as f64).to_bits() == n.to_bits() && i.abs() <= MAX).then_some(i)
}

/// A table at `i`: a list of cards (its entries 1..n) or a record (its string keys).
///
/// # Safety
/// As [`value`].
unsafe fn table(state: *mut ffi::lua_State, i: c_int, ids: &HandleIds) -> Option<Raw> {
    // SAFETY: a table at `i`. Its metatable is looked at first (a table with one is handed
    // on: a metamethod could answer). lua_objlen, lua_rawgeti and lua_next read it raw;
    // lua_next gets back only the keys it gave, which are left unconverted.
    unsafe {
        let top = ffi::lua_gettop(state);
        if ffi::lua_getmetatable(state, i) != 0 {
            ffi::lua_settop(state, top);
            return None;
        }
        let n = ffi::lua_objlen(state, i) as usize;
        if n > ENTRIES {
            return None;
        }
        if n > 0 {
            let mut cards = Vec::with_capacity(n);
            for k in 1..=n {
                ffi::lua_rawgeti(state, i, k as ffi::lua_Integer);
                let card = (ffi::lua_type(state, -1) == ffi::LUA_TUSERDATA)
                    .then(|| ids.get(ffi::lua_touserdata(state, -1) as usize))
                    .flatten();
                ffi::lua_settop(state, top);
                cards.push(card?);
            }
            // Entries past the list (other keys) are not a plain list.
            ffi::lua_pushnil(state);
            let mut count = 0;
            while ffi::lua_next(state, i) != 0 {
                ffi::lua_settop(state, top + 1);
                count += 1;
                if count > n {
                    ffi::lua_settop(state, top);
                    return None;
                }
            }
            return Some(Raw::Cards(cards));
        }
        let mut fields = Vec::new();
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, i) != 0 {
            let entry = (fields.len() < ENTRIES)
                .then(|| text(state, -2))
                .flatten()
                .filter(|k| k.len() <= TEXT)
                .and_then(|k| {
                    let k = String::from_utf8(k.to_vec()).ok()?;
                    Some((k, value(state, top + 2, ids, false)?))
                });
            ffi::lua_settop(state, top + 1);
            match entry {
                Some(e) => fields.push(e),
                None => {
                    ffi::lua_settop(state, top);
                    return None;
                }
            }
        }
        Some(Raw::Record(fields))
    }
}

/// A procedure's record read in place: its entries, with string keys, as kernel values, as
/// `script::api::record_from_lua` makes them (numbers whole, texts and lists bounded by
/// [`crate::sandbox::limits`], entries that are functions or nil dropped), but unsorted.
/// None (nothing read) for anything else: a key that is not a string, a number that is not
/// whole, a long text, a card handle that is not cached, a table with a metatable, data past
/// the limits. Then the caller reads it through mlua, which says what is wrong.
pub fn record(lua: &Lua, t: &mlua::Table) -> Option<Vec<(String, Val)>> {
    let ids = super::handle::handle_ids(lua)?;
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: `state` is the VM's current thread (the driver's, not a running script's);
        // room for the table and DEPTH + 4 more values is asked for first, and the stack is
        // set back to where it was before returning. Nothing here raises an error.
        unsafe {
            if ffi::lua_checkstack(state, DEPTH as c_int + 6) == 0 {
                return None;
            }
            let top = ffi::lua_gettop(state);
            let out = match raw.push(t) {
                Ok(()) => record_at(state, top + 1, &ids),
                Err(_) => None,
            };
            ffi::lua_settop(state, top);
            out
        }
    })
}

/// The record at absolute index `i` (the top of the stack).
///
/// # Safety
/// `i` is the top of `state`'s stack, with DEPTH + 4 free slots above it.
unsafe fn record_at(
    state: *mut ffi::lua_State,
    i: c_int,
    ids: &HandleIds,
) -> Option<Vec<(String, Val)>> {
    // SAFETY: a table at `i` (checked); lua_next is given back only the keys it gave, which
    // are left unconverted (only keys of type string are read); each value is read and popped
    // before the next entry.
    unsafe {
        if ffi::lua_type(state, i) != ffi::LUA_TTABLE || ffi::lua_getmetatable(state, i) != 0 {
            return None;
        }
        let mut budget = 0;
        let mut out = Vec::new();
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, i) != 0 {
            budget += 1;
            let key = (budget <= DATA)
                .then(|| text(state, i + 1))
                .flatten()
                .filter(|k| k.len() <= TEXT)
                .map(String::from_utf8_lossy);
            let entry =
                key.and_then(|k| Some((k.into_owned(), data(state, i + 2, ids, 1, &mut budget)?)));
            ffi::lua_settop(state, i + 1);
            match entry {
                Some((k, Some(v))) => out.push((k, v)),
                Some((_, None)) => {}
                None => {
                    ffi::lua_settop(state, i);
                    return None;
                }
            }
        }
        Some(out)
    }
}

/// The value at absolute index `i` as `script::api::lua_to_val` makes it at nesting `depth`
/// (Some(None): dropped), counting it in `budget`; None: not read here.
///
/// # Safety
/// `i` is the top of `state`'s stack, with DEPTH + 4 - depth free slots above it.
unsafe fn data(
    state: *mut ffi::lua_State,
    i: c_int,
    ids: &HandleIds,
    depth: usize,
    budget: &mut usize,
) -> Option<Option<Val>> {
    *budget += 1;
    if *budget > DATA || depth > DEPTH {
        return None;
    }
    // SAFETY: each read checks the type at `i` first; a list's entries are pushed one at a
    // time (at `i + 1`, one more slot per level of nesting) and popped again.
    unsafe {
        Some(Some(match ffi::lua_type(state, i) {
            ffi::LUA_TBOOLEAN => Val::Bool(ffi::lua_toboolean(state, i) != 0),
            ffi::LUA_TNUMBER => {
                let n = ffi::lua_tonumberx(state, i, std::ptr::null_mut());
                if !n.is_finite() || n.fract() != 0.0 || n.abs() > MAX as f64 {
                    return None;
                }
                Val::Int(n as i64)
            }
            ffi::LUA_TSTRING => {
                let t = text(state, i)?;
                if t.len() > TEXT {
                    return None;
                }
                Val::Str(String::from_utf8_lossy(t).into_owned())
            }
            ffi::LUA_TUSERDATA => Val::Card(CardRef {
                card: ids.get(ffi::lua_touserdata(state, i) as usize)?,
            }),
            ffi::LUA_TTABLE => {
                if ffi::lua_getmetatable(state, i) != 0 {
                    ffi::lua_settop(state, i);
                    return None;
                }
                // As mlua's `sequence_values`: raw entries from 1 up to the first nil.
                let mut list = Vec::new();
                for k in 1.. {
                    if ffi::lua_rawgeti(state, i, k) == ffi::LUA_TNIL {
                        ffi::lua_settop(state, i);
                        break;
                    }
                    let x = data(state, i + 1, ids, depth + 1, budget);
                    ffi::lua_settop(state, i);
                    if let Some(x) = x? {
                        list.push(x);
                    }
                }
                Val::List(list)
            }
            _ => return Some(None),
        }))
    }
}
