//! A scenario's starting position: players' zones and values, then the start of a phase.

use std::rc::Rc;

use riffle_core::{Builder, DeckList, Engine, Game, GameConfig, ObjId, Place};
use serde_json::Value;

/// A deck list from `{section: [cards]}` (a card is `ID` or `ID xN`) or `{section: {ID: n}}`.
pub fn deck_list(v: &Value) -> Result<DeckList, String> {
    let mut out = DeckList::default();
    for (section, cards) in v
        .as_object()
        .ok_or("a deck is a map of sections: {leader: [...], main: [...]}")?
    {
        let entry = out.sections.entry(section.clone()).or_default();
        let mut add = |id: &str, n: u32| *entry.entry(id.to_string()).or_insert(0) += n;
        match cards {
            Value::Array(list) => {
                for c in list {
                    let s = c
                        .as_str()
                        .ok_or_else(|| format!("{section}: a card is `ID` or `ID xN`, not {c}"))?;
                    let (id, n) = split_count(s)?;
                    add(&id, n);
                }
            }
            Value::Object(m) => {
                for (id, n) in m {
                    add(
                        id,
                        n.as_u64()
                            .ok_or_else(|| format!("{section}.{id}: a number of copies"))?
                            as u32,
                    );
                }
            }
            Value::String(s) => {
                let (id, n) = split_count(s)?;
                add(&id, n);
            }
            other => {
                return Err(format!(
                    "{section}: a list of cards or a map of counts, not {other}"
                ));
            }
        }
    }
    Ok(out)
}

fn split_count(s: &str) -> Result<(String, u32), String> {
    Ok(match s.split_once(" x") {
        Some((id, n)) => (
            id.trim().to_string(),
            n.trim()
                .parse::<u32>()
                .map_err(|_| format!("'{s}': write `ID xN`"))?,
        ),
        None => (s.trim().to_string(), 1),
    })
}

/// `start: setup`: a game made from deck lists by the ruleset's own setup procedure. Each
/// player's cards are listed under the zones the ruleset's deck sections start in
/// (One Piece: `leader`, `deck`, `don_deck`); other zones and values cannot be given.
pub fn build_from_decks(engine: &Rc<Engine>, sc: &Value) -> Result<Game, String> {
    let players = sc
        .get("players")
        .and_then(Value::as_object)
        .ok_or("a scenario needs `players:` (1: {...}, 2: {...})")?;
    let sections = &engine.manifest().deck.sections;
    let mut keys: Vec<(u8, &Value)> = Vec::new();
    for (k, v) in players {
        keys.push((
            k.parse()
                .map_err(|_| format!("players: '{k}' is not a player number (1, 2, ...)"))?,
            v,
        ));
    }
    keys.sort_by_key(|(k, _)| *k);
    let mut decks = Vec::new();
    for (i, (k, pv)) in keys.iter().enumerate() {
        if *k as usize != i + 1 {
            return Err(format!(
                "players: start: setup needs players 1..n, player {} is missing",
                i + 1
            ));
        }
        let zones = pv
            .as_object()
            .ok_or_else(|| format!("players.{k}: a map of zones"))?;
        let mut list = serde_json::Map::new();
        for (zone, cards) in zones {
            let Some(sec) = sections.iter().find(|s| &s.zone == zone) else {
                let names: Vec<&str> = sections.iter().map(|s| s.zone.as_str()).collect();
                return Err(format!(
                    "players.{k}.{zone}: with `start: setup` only the zones decks start in can be given ({})",
                    names.join(", ")
                ));
            };
            list.insert(sec.name.clone(), cards.clone());
        }
        decks.push(deck_list(&Value::Object(list)).map_err(|e| format!("players.{k}: {e}"))?);
    }
    let seed = sc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    Game::new(
        engine.clone(),
        GameConfig {
            seed,
            decks,
            keep_log: true,
        },
    )
    .map_err(|e| e.to_string())
}

/// Builds the game a scenario describes.
pub fn build(engine: &Rc<Engine>, sc: &Value) -> Result<Game, String> {
    let players = sc
        .get("players")
        .and_then(Value::as_object)
        .ok_or("a scenario needs `players:` (1: {...}, 2: {...})")?;
    let mut seats = Vec::new();
    for k in players.keys() {
        let n: u8 = k
            .parse()
            .map_err(|_| format!("players: '{k}' is not a player number (1, 2, ...)"))?;
        seats.push(n);
    }
    let nplayers = seats
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(engine.manifest().players.min);
    let seed = sc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let start = sc.get("start").cloned().unwrap_or(Value::Null);
    let turn = start.get("turn").and_then(Value::as_u64).unwrap_or(3) as u32;
    let tp = start.get("player").and_then(Value::as_u64).unwrap_or(1) as u8;
    let phase = start
        .get("phase")
        .and_then(Value::as_str)
        .unwrap_or("main")
        .to_string();
    let mut b = Builder::new(engine.clone(), nplayers, seed)?;
    let mut keys: Vec<(&String, &Value)> = players.iter().collect();
    keys.sort_by_key(|(k, _)| k.parse::<u8>().unwrap_or(0));
    for (k, pv) in keys {
        let p = k.parse::<u8>().expect("checked") - 1;
        let zones = pv
            .as_object()
            .ok_or_else(|| format!("players.{k}: a map of zones"))?;
        for (zone, items) in zones {
            if zone == "values" {
                for (name, v) in items.as_object().ok_or("values: a map")? {
                    b.set_value(
                        p,
                        name,
                        v.as_i64()
                            .ok_or_else(|| format!("values.{name}: an integer"))?,
                    )?;
                }
                continue;
            }
            place_all(&mut b, p, zone, items, None, turn)
                .map_err(|e| format!("players.{k}.{zone}: {e}"))?;
        }
    }
    if let Some(gv) = sc.get("game_values").and_then(Value::as_object) {
        for (name, v) in gv {
            b.set_game_value(
                name,
                v.as_i64()
                    .ok_or_else(|| format!("game_values.{name}: an integer"))?,
            )?;
        }
    }
    b.start(turn, tp.saturating_sub(1), &phase)
}

fn place_all(
    b: &mut Builder,
    p: u8,
    zone: &str,
    items: &Value,
    host: Option<ObjId>,
    turn: u32,
) -> Result<(), String> {
    let list: Vec<Value> = match items {
        Value::Array(a) => a.clone(),
        Value::Null => Vec::new(),
        one => vec![one.clone()],
    };
    for item in list {
        let (card, count, opts, attach) = match &item {
            Value::String(s) => {
                let (id, n) = match s.split_once(" x") {
                    Some((id, n)) => (
                        id.trim().to_string(),
                        n.trim()
                            .parse::<u32>()
                            .map_err(|_| format!("'{s}': write `ID xN`"))?,
                    ),
                    None => (s.trim().to_string(), 1),
                };
                (
                    id,
                    n,
                    Place {
                        attach_to: host,
                        ..Place::default()
                    },
                    Value::Null,
                )
            }
            Value::Object(m) => {
                let card = m
                    .get("card")
                    .and_then(Value::as_str)
                    .ok_or("each card needs `card: ID`")?
                    .to_string();
                let count = m.get("count").and_then(Value::as_u64).unwrap_or(1) as u32;
                let mut opts = Place {
                    attach_to: host,
                    ..Place::default()
                };
                opts.orientation = m
                    .get("orientation")
                    .and_then(Value::as_str)
                    .map(String::from);
                opts.face_up = m.get("face").and_then(Value::as_str).map(|f| f == "up");
                if let Some(c) = m.get("counters").and_then(Value::as_object) {
                    opts.counters = c
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_i64().unwrap_or(0)))
                        .collect();
                }
                if let Some(f) = m.get("flags").and_then(Value::as_array) {
                    opts.flags = f
                        .iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect();
                }
                match m.get("entered").and_then(Value::as_str) {
                    Some("this_turn") => opts.entered_turn = Some(turn),
                    Some("earlier") | None => {}
                    Some(other) => {
                        return Err(format!("entered: 'this_turn' or 'earlier', not '{other}'"));
                    }
                }
                (
                    card,
                    count,
                    opts,
                    m.get("attach").cloned().unwrap_or(Value::Null),
                )
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
