//! The card database as JSON: one object (`schema/card-database.schema.json`), pretty with
//! two-space indents, keys in a fixed order, a trailing newline: the same database always
//! gives the same bytes.

use super::{CardDatabase, FORMAT, FORMAT_VERSION};

/// The JSON text of `db`.
pub fn to_bytes(db: &CardDatabase) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(db).expect("a card database serializes");
    out.push(b'\n');
    out
}

/// Reads a card database back, refusing another format or a version this Riffle does not
/// know. Errors say where (line and column) and what.
pub fn from_slice(bytes: &[u8]) -> Result<CardDatabase, String> {
    let head: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    match head.get("format").and_then(|v| v.as_str()) {
        Some(FORMAT) => {}
        other => {
            return Err(format!(
                "not a Riffle card database: `format` is {other:?}, not \"{FORMAT}\""
            ));
        }
    }
    match head.get("format_version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(FORMAT_VERSION) => {}
        other => {
            return Err(format!(
                "card database format version {other:?}: this Riffle reads version {FORMAT_VERSION}"
            ));
        }
    }
    serde_json::from_slice(bytes).map_err(|e| format!("{e}"))
}
