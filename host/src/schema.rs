//! The protocol's JSON Schemas, generated from the message types into `schema/protocol/`
//! (`riffle schema --write`); a test fails when the files there are stale.

use std::path::Path;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

use crate::protocol::{ClientMessage, ServerMessage};

/// The folder of the protocol's schemas, under `schema/`.
pub const PROTOCOL_DIR: &str = "protocol";
/// What clients send.
pub const CLIENT_SCHEMA: &str = "client-message.schema.json";
/// What the host sends.
pub const SERVER_SCHEMA: &str = "server-message.schema.json";

fn generate<T: JsonSchema>(file: &str, deserialize: bool) -> Value {
    let settings = SchemaSettings::draft2020_12();
    let settings = if deserialize {
        settings.for_deserialize()
    } else {
        settings.for_serialize()
    };
    let mut v = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Value::Object(m) = &mut v {
        m.insert(
            "$id".into(),
            Value::String(riffle_content::schema::schema_id(&format!(
                "{PROTOCOL_DIR}/{file}"
            ))),
        );
    }
    v
}

/// Every protocol schema: its file name in `schema/protocol/` and its text.
pub fn protocol_schemas() -> Vec<(&'static str, String)> {
    use riffle_content::schema::render;
    vec![
        (
            CLIENT_SCHEMA,
            render(&generate::<ClientMessage>(CLIENT_SCHEMA, true)),
        ),
        (
            SERVER_SCHEMA,
            render(&generate::<ServerMessage>(SERVER_SCHEMA, false)),
        ),
    ]
}

/// The protocol schemas under `protocol_dir` that are missing or differ from the types.
pub fn stale_protocol_schemas(protocol_dir: &Path) -> Vec<String> {
    protocol_schemas()
        .into_iter()
        .filter(|(name, text)| {
            std::fs::read_to_string(protocol_dir.join(name))
                .ok()
                .as_deref()
                != Some(text)
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Refuses, before anything is written, a stale protocol schema whose destination is not a
/// regular file (a symbolic link...): `riffle schema --write` writes all or nothing.
pub fn check_protocol_destinations(protocol_dir: &Path) -> std::io::Result<()> {
    for name in stale_protocol_schemas(protocol_dir) {
        let path = protocol_dir.join(name);
        if std::fs::symlink_metadata(&path).is_ok() {
            riffle_content::write::check_destination(&path)?;
        }
    }
    Ok(())
}

/// Writes the stale protocol schemas into `protocol_dir` (created if needed); returns them.
pub fn write_protocol_schemas(protocol_dir: &Path) -> std::io::Result<Vec<String>> {
    check_protocol_destinations(protocol_dir)?;
    std::fs::create_dir_all(protocol_dir)?;
    let stale = stale_protocol_schemas(protocol_dir);
    for (name, text) in protocol_schemas() {
        if stale.iter().any(|s| s == name) {
            riffle_content::write::write_file(&protocol_dir.join(name), text.as_bytes())?;
        }
    }
    Ok(stale)
}
