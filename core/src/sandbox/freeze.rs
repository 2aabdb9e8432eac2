//! Deep freezing: once content has loaded, everything scripts share is read-only.
//!
//! Every game in a process runs on one VM, and every card sees the prelude, `scripts/lib`, the
//! ruleset's tables and the other cards' ability tables. A write to any of them would change
//! what another card or another game sees, so after loading, every table reachable from them
//! is made read-only (Luau's `table.freeze` flag): through keys, values, metatables, function
//! upvalues and function environments. A write then fails with Luau's "attempt to modify a
//! readonly table" at the writer's file:line. Userdata are not walked: mlua protects their
//! metatables (`__metatable`), and scripts cannot reach their insides.

use mlua::{Lua, MultiValue, Table, Value, ffi};

/// Freezes every table reachable from `roots`. `seen` records what was already walked, so
/// that later calls (one per card) do not walk the shared tables again; keep it for the
/// whole load.
pub fn freeze(lua: &Lua, seen: &Table, roots: Vec<Value>) -> mlua::Result<()> {
    let mut args = MultiValue::new();
    args.push_back(Value::Table(seen.clone()));
    args.extend(roots);
    // SAFETY: the closure only uses the stack slots it pushes, checks room before pushing
    // (at most 4 at a time), and leaves the stack as it found it; exec_raw runs it in
    // protected mode, so an allocation error unwinds cleanly.
    unsafe {
        lua.exec_raw::<()>(args, |state| {
            let top = ffi::lua_gettop(state);
            ffi::lua_createtable(state, 0, 0);
            let work = top + 1;
            let mut n = 0;
            for i in 2..=top {
                ffi::lua_pushvalue(state, i);
                n += 1;
                ffi::lua_rawseti(state, work, n);
            }
            while n > 0 {
                ffi::luaL_checkstack(state, 6, c"freeze".as_ptr());
                ffi::lua_rawgeti(state, work, n);
                ffi::lua_pushnil(state);
                ffi::lua_rawseti(state, work, n);
                n -= 1;
                let x = ffi::lua_gettop(state);
                let kind = ffi::lua_type(state, x);
                if (kind == ffi::LUA_TTABLE || kind == ffi::LUA_TFUNCTION) && !mark(state, x) {
                    let mut push = |state: *mut ffi::lua_State| {
                        let t = ffi::lua_type(state, -1);
                        if t == ffi::LUA_TTABLE || t == ffi::LUA_TFUNCTION {
                            n += 1;
                            ffi::lua_rawseti(state, work, n);
                        } else {
                            ffi::lua_pop(state, 1);
                        }
                    };
                    if kind == ffi::LUA_TTABLE {
                        ffi::lua_pushnil(state);
                        while ffi::lua_next(state, x) != 0 {
                            push(state); // the value
                            ffi::lua_pushvalue(state, -1);
                            push(state); // the key (it stays for lua_next)
                        }
                        if ffi::lua_getmetatable(state, x) != 0 {
                            push(state);
                        }
                        ffi::lua_setreadonly(state, x, 1);
                    } else {
                        let mut i = 1;
                        while !ffi::lua_getupvalue(state, x, i).is_null() {
                            push(state);
                            i += 1;
                        }
                        ffi::lua_getfenv(state, x);
                        push(state);
                    }
                }
                ffi::lua_settop(state, x - 1);
            }
            ffi::lua_settop(state, top);
        })
    }
}

/// Records the value at `x` in the `seen` table (stack slot 1); true if it was there already.
unsafe fn mark(state: *mut ffi::lua_State, x: i32) -> bool {
    unsafe {
        ffi::lua_pushvalue(state, x);
        ffi::lua_rawget(state, 1);
        let was = ffi::lua_toboolean(state, -1) != 0;
        ffi::lua_pop(state, 1);
        if !was {
            ffi::lua_pushvalue(state, x);
            ffi::lua_pushboolean(state, 1);
            ffi::lua_rawset(state, 1);
        }
        was
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freezes_nested_tables_metatables_and_upvalues() {
        let lua = Lua::new();
        let root: Table = lua
            .load(
                r#"
                local hidden = { list = { 1, 2 } }
                local meta = { __call = function() return 1 end }
                return {
                    nested = { deep = {} },
                    obj = setmetatable({}, meta),
                    get = function() return hidden end,
                }
                "#,
            )
            .eval()
            .unwrap();
        lua.globals().set("root", root.clone()).unwrap();
        let seen = lua.create_table().unwrap();
        freeze(&lua, &seen, vec![Value::Table(root)]).unwrap();
        for write in [
            "root.x = 1",
            "root.nested.deep.x = 1",
            "getmetatable(root.obj).__call = nil",
            "root.get().list[1] = 5",
            "setmetatable(root.obj, nil)",
            "rawset(root.nested, 'y', 1)",
            // A function's environment is reachable from it: the globals froze too.
            "x = 1",
        ] {
            let err = lua.load(write).exec().unwrap_err().to_string();
            assert!(err.contains("readonly"), "{write}: {err}");
        }
        // Reads still work.
        let n: i64 = lua.load("return root.get().list[2]").eval().unwrap();
        assert_eq!(n, 2);
    }
}
