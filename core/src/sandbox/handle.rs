//! The handle scripts hold for a card object: nothing but its id. What reading it does
//! (`card.power`) is the script API's business (`crate::script::card`).

use std::cell::RefCell;

use mlua::{AnyUserData, FromLua, IntoLua, Lua, Result, Value};

use crate::state::ObjId;

/// A card object as seen by scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardUd(pub ObjId);

impl FromLua for CardUd {
    fn from_lua(value: Value, _: &Lua) -> Result<Self> {
        match value {
            Value::UserData(ud) => Ok(*ud.borrow::<CardUd>()?),
            other => Err(mlua::Error::runtime(format!(
                "expected a card, got a {}",
                other.type_name()
            ))),
        }
    }
}

/// Hands a script the handle of a card object: one userdata per object id, made once and
/// reused (by every game of the engine: a handle holds nothing but the id), so reading a zone
/// or an event does not allocate a userdata per card each time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(pub ObjId);

/// The handles made so far, by object id (the VM's app data).
#[derive(Default)]
pub struct Handles(RefCell<Vec<Option<AnyUserData>>>);

/// Object ids past this get a fresh userdata each time instead of a cache entry.
const CACHED_IDS: usize = 1 << 16;

/// A list of the handles of `ids`, in order (the cache looked up once).
pub fn card_table(lua: &Lua, ids: impl ExactSizeIterator<Item = ObjId>) -> Result<mlua::Table> {
    let t = lua.create_table_with_capacity(ids.len(), 0)?;
    let Some(cache) = lua.app_data_ref::<Handles>() else {
        for (i, id) in ids.enumerate() {
            t.raw_set(i + 1, Handle(id))?;
        }
        return Ok(t);
    };
    let mut v = cache.0.borrow_mut();
    for (k, id) in ids.enumerate() {
        let i = id.0 as usize;
        if i >= CACHED_IDS {
            t.raw_set(k + 1, lua.create_userdata(CardUd(id))?)?;
            continue;
        }
        if v.len() <= i {
            v.resize(i + 1, None);
        }
        if v[i].is_none() {
            v[i] = Some(lua.create_userdata(CardUd(id))?);
        }
        if let Some(ud) = &v[i] {
            t.raw_set(k + 1, ud)?;
        }
    }
    Ok(t)
}

impl IntoLua for Handle {
    fn into_lua(self, lua: &Lua) -> Result<Value> {
        let i = self.0.0 as usize;
        if i < CACHED_IDS
            && let Some(cache) = lua.app_data_ref::<Handles>()
        {
            let mut v = cache.0.borrow_mut();
            if let Some(Some(ud)) = v.get(i) {
                return Ok(Value::UserData(ud.clone()));
            }
            let ud = lua.create_userdata(CardUd(self.0))?;
            if v.len() <= i {
                v.resize(i + 1, None);
            }
            v[i] = Some(ud.clone());
            return Ok(Value::UserData(ud));
        }
        Ok(Value::UserData(lua.create_userdata(CardUd(self.0))?))
    }
}
