//! A scenario's starting position: players' zones and values, then the start of a phase.

use std::rc::Rc;

use riffle_core::{Builder, Engine, Game, ObjId, Place};
use serde_json::Value;

/// Builds the game a scenario describes.
pub fn build(engine: &Rc<Engine>, sc: &Value) -> Result<Game, String> {
    let players = sc.get("players").and_then(Value::as_object).ok_or("a scenario needs `players:` (1: {...}, 2: {...})")?;
    let mut seats = Vec::new();
    for k in players.keys() {
        let n: u8 = k.parse().map_err(|_| format!("players: '{k}' is not a player number (1, 2, ...)"))?;
        seats.push(n);
    }
    let nplayers = seats.iter().copied().max().unwrap_or(0).max(engine.manifest().players.min);
    let seed = sc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let start = sc.get("start").cloned().unwrap_or(Value::Null);
    let turn = start.get("turn").and_then(Value::as_u64).unwrap_or(3) as u32;
    let tp = start.get("player").and_then(Value::as_u64).unwrap_or(1) as u8;
    let phase = start.get("phase").and_then(Value::as_str).unwrap_or("main").to_string();
    let mut b = Builder::new(engine.clone(), nplayers, seed)?;
    let mut keys: Vec<(&String, &Value)> = players.iter().collect();
    keys.sort_by_key(|(k, _)| k.parse::<u8>().unwrap_or(0));
    for (k, pv) in keys {
        let p = k.parse::<u8>().expect("checked") - 1;
        let zones = pv.as_object().ok_or_else(|| format!("players.{k}: a map of zones"))?;
        for (zone, items) in zones {
            if zone == "values" {
                for (name, v) in items.as_object().ok_or("values: a map")? {
                    b.set_value(p, name, v.as_i64().ok_or_else(|| format!("values.{name}: an integer"))?)?;
                }
                continue;
            }
            place_all(&mut b, p, zone, items, None, turn).map_err(|e| format!("players.{k}.{zone}: {e}"))?;
        }
    }
    if let Some(gv) = sc.get("game_values").and_then(Value::as_object) {
        for (name, v) in gv {
            b.set_game_value(name, v.as_i64().ok_or_else(|| format!("game_values.{name}: an integer"))?)?;
        }
    }
    b.start(turn, tp.saturating_sub(1), &phase)
}

fn place_all(b: &mut Builder, p: u8, zone: &str, items: &Value, host: Option<ObjId>, turn: u32) -> Result<(), String> {
    let list: Vec<Value> = match items {
        Value::Array(a) => a.clone(),
        Value::Null => Vec::new(),
        one => vec![one.clone()],
    };
    for item in list {
        let (card, count, opts, attach) = match &item {
            Value::String(s) => {
                let (id, n) = match s.split_once(" x") {
                    Some((id, n)) => (id.trim().to_string(), n.trim().parse::<u32>().map_err(|_| format!("'{s}': write `ID xN`"))?),
                    None => (s.trim().to_string(), 1),
                };
                (id, n, Place { attach_to: host, ..Place::default() }, Value::Null)
            }
            Value::Object(m) => {
                let card = m.get("card").and_then(Value::as_str).ok_or("each card needs `card: ID`")?.to_string();
                let count = m.get("count").and_then(Value::as_u64).unwrap_or(1) as u32;
                let mut opts = Place { attach_to: host, ..Place::default() };
                opts.orientation = m.get("orientation").and_then(Value::as_str).map(String::from);
                opts.face_up = m.get("face").and_then(Value::as_str).map(|f| f == "up");
                if let Some(c) = m.get("counters").and_then(Value::as_object) {
                    opts.counters = c.iter().map(|(k, v)| (k.clone(), v.as_i64().unwrap_or(0))).collect();
                }
                if let Some(f) = m.get("flags").and_then(Value::as_array) {
                    opts.flags = f.iter().filter_map(|v| v.as_str().map(String::from)).collect();
                }
                match m.get("entered").and_then(Value::as_str) {
                    Some("this_turn") => opts.entered_turn = Some(turn),
                    Some("earlier") | None => {}
                    Some(other) => return Err(format!("entered: 'this_turn' or 'earlier', not '{other}'")),
                }
                (card, count, opts, m.get("attach").cloned().unwrap_or(Value::Null))
            }
            other => return Err(format!("a card is `ID`, `ID xN` or a map, not {other}")),
        };
        for _ in 0..count {
            let id = b.place(p, zone, &card, &opts)?;
            if !attach.is_null() {
                place_all(b, p, zone, &attach, Some(id), turn)?;
            }
        }
    }
    Ok(())
}
