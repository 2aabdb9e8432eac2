//! The handle scripts hold for a card object: nothing but its id. What reading it does
//! (`card.power`) is the script API's business (`crate::script::card`).

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{AnyUserData, FromLua, IntoLua, Lua, Result, Value};

use crate::state::ObjId;

/// A card object as seen by scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardUd(pub ObjId);

impl FromLua for CardUd {
    fn from_lua(value: Value, lua: &Lua) -> Result<Self> {
        match value {
            // A cached handle is known by its address; any other userdata is asked its type.
            Value::UserData(ud) => match handle_id(lua, &ud) {
                Some(id) => Ok(CardUd(id)),
                None => Ok(*ud.borrow::<CardUd>()?),
            },
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

/// The handles made so far, by object id (the VM's app data), their ids by address, and a
/// Lua table of them by object id + 1 (for `raw_args`, which pushes them without mlua).
pub struct Handles(
    RefCell<Vec<Option<AnyUserData>>>,
    Rc<HandleIds>,
    mlua::Table,
);

impl Handles {
    /// An empty cache for the VM `lua`.
    pub fn new(lua: &Lua) -> Result<Handles> {
        Ok(Handles(
            Default::default(),
            Default::default(),
            lua.create_table()?,
        ))
    }

    /// Keeps the new handle `ud` of object `id` (below [`CACHED_IDS`]).
    fn keep(&self, v: &mut Vec<Option<AnyUserData>>, ud: &AnyUserData, id: ObjId) -> Result<()> {
        let i = id.0 as usize;
        self.1.learn(ud, id);
        self.2.raw_set(i + 1, ud)?;
        if v.len() <= i {
            v.resize(i + 1, None);
        }
        v[i] = Some(ud.clone());
        Ok(())
    }
}

/// The cached handles' userdata addresses (`lua_touserdata`, `AnyUserData::to_pointer`), to
/// their object ids: a cached handle lives as long as the VM, so an address here is never
/// another value's.
#[derive(Default)]
pub struct HandleIds(RefCell<rustc_hash::FxHashMap<usize, u32>>);

impl HandleIds {
    /// The object id of the cached handle at `address`.
    pub fn get(&self, address: usize) -> Option<ObjId> {
        self.0.try_borrow().ok()?.get(&address).map(|i| ObjId(*i))
    }

    fn learn(&self, ud: &AnyUserData, id: ObjId) {
        self.0.borrow_mut().insert(ud.to_pointer() as usize, id.0);
    }
}

/// The VM's table of cached handles by address.
pub fn handle_ids(lua: &Lua) -> Option<Rc<HandleIds>> {
    lua.app_data_ref::<Handles>().map(|h| h.1.clone())
}

/// The Lua table of the VM's cached handles by object id + 1.
pub fn handle_table(lua: &Lua) -> Option<mlua::Table> {
    lua.app_data_ref::<Handles>().map(|h| h.2.clone())
}

/// The object id of `ud` if it is a cached handle.
fn handle_id(lua: &Lua, ud: &AnyUserData) -> Option<ObjId> {
    lua.app_data_ref::<Handles>()?
        .1
        .get(ud.to_pointer() as usize)
}

/// Object ids past this get a fresh userdata each time instead of a cache entry.
const CACHED_IDS: usize = 1 << 16;

/// A list of the handles of `ids`, in order (the cache looked up once, the table made in one
/// go).
pub fn card_table(lua: &Lua, ids: impl ExactSizeIterator<Item = ObjId>) -> Result<mlua::Table> {
    let Some(cache) = lua.app_data_ref::<Handles>() else {
        return lua.create_sequence_from(ids.map(Handle));
    };
    let mut v = cache.0.borrow_mut();
    let ids: Vec<ObjId> = ids.collect();
    // Handles past the cache, made fresh, in order.
    let mut fresh: Vec<AnyUserData> = Vec::new();
    for &id in &ids {
        let i = id.0 as usize;
        if i >= CACHED_IDS {
            fresh.push(lua.create_userdata(CardUd(id))?);
            continue;
        }
        if v.get(i).is_none_or(|h| h.is_none()) {
            let ud = lua.create_userdata(CardUd(id))?;
            cache.keep(&mut v, &ud, id)?;
        }
    }
    let mut fresh = fresh.iter();
    // (Every cached entry was made above: none is nil.)
    lua.create_sequence_from(ids.iter().map(|id| match v.get(id.0 as usize) {
        Some(ud) if (id.0 as usize) < CACHED_IDS => ud.as_ref(),
        _ => fresh.next(),
    }))
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
            cache.keep(&mut v, &ud, self.0)?;
            return Ok(Value::UserData(ud));
        }
        Ok(Value::UserData(lua.create_userdata(CardUd(self.0))?))
    }
}
