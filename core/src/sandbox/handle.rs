//! The handle scripts hold for a card object: nothing but its id. What reading it does
//! (`card.power`) is the script API's business (`crate::sandbox::card`).

use mlua::{FromLua, Lua, Result, Value};

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
