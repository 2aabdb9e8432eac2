//! The game log as a file a reader needs no engine for (`riffle play --log`): JSON lines, a
//! header first, then one line per entry with every card named (its object, card id and
//! name), every zone by name and owner, and players counted from 1 as everywhere else.
//! The format is versioned by the header's `version` (docs/log-format.md); the log's hash
//! is the kernel's and does not depend on it.

use riffle_core::values::Val;
use riffle_core::{Entry, Game, ObjId, Request, Response, ZoneId};
use serde_json::{Map, Value, json};

/// This format's version: 1 was the kernel's entries as they are (object and zone numbers,
/// players from 0); 2 names them.
pub const VERSION: u32 = 2;

/// The file's lines: the header, then the log's entries.
pub fn lines(game: &Game, game_name: &str, seed: u64) -> Vec<String> {
    let header = json!({
        "kind": "header",
        "format": "riffle-log",
        "version": VERSION,
        "game": game_name,
        "seed": seed,
        "players": game.players(),
        "log_hash": game.log_hash(),
        "result": game.result().map(|r| json!({
            "winners": r.winners.iter().map(|p| p + 1).collect::<Vec<_>>(),
            "reason": r.reason,
        })),
    });
    std::iter::once(header)
        .chain(game.log().iter().map(|e| entry(game, e)))
        .map(|v| v.to_string())
        .collect()
}

fn entry(game: &Game, e: &Entry) -> Value {
    match e {
        Entry::Event(ev) => {
            let mut o = Map::new();
            o.insert("kind".into(), "event".into());
            o.insert("name".into(), ev.name.clone().into());
            put(&mut o, "card", ev.card.map(|c| card(game, c)));
            put(&mut o, "old", ev.old.map(|c| card(game, c)));
            put(&mut o, "from", ev.from.map(|z| zone(game, z)));
            put(&mut o, "to", ev.to.map(|z| zone(game, z)));
            put(&mut o, "player", ev.player.map(|p| json!(p + 1)));
            put(&mut o, "reason", ev.reason.clone().map(Value::from));
            put(&mut o, "key", ev.key.clone().map(Value::from));
            if ev.amount != 0 {
                o.insert("amount".into(), ev.amount.into());
            }
            if !ev.data.is_empty() {
                let data = ev.data.iter().map(|(k, v)| (k.clone(), val(game, v)));
                o.insert("data".into(), Value::Object(data.collect()));
            }
            Value::Object(o)
        }
        Entry::Decision {
            player,
            request,
            response,
        } => {
            let mut o =
                json!({ "kind": "decision", "player": player + 1, "prompt": request.prompt() });
            match (request, response) {
                (
                    Request::Choose {
                        options, min, max, ..
                    },
                    Response::Choose { indices },
                ) => {
                    let options: Vec<Value> = options
                        .iter()
                        .map(|c| {
                            let mut m = Map::new();
                            m.insert("label".into(), c.label.clone().into());
                            put(&mut m, "kind", c.kind.clone().map(Value::from));
                            put(&mut m, "card", c.card.map(|id| card(game, id)));
                            put(&mut m, "target", c.target.map(|id| card(game, id)));
                            Value::Object(m)
                        })
                        .collect();
                    o["options"] = options.into();
                    o["min"] = (*min).into();
                    o["max"] = (*max).into();
                    o["chosen"] = json!(indices);
                }
                (Request::Number { min, max, .. }, Response::Number { value }) => {
                    o["number"] = json!({ "min": min, "max": max });
                    o["chosen"] = (*value).into();
                }
                // A response that does not fit its request is never logged; shown whole.
                _ => o["response"] = serde_json::to_value(response).unwrap_or_default(),
            }
            o
        }
        Entry::ScriptError { message } => json!({ "kind": "script_error", "message": message }),
        Entry::CardReloaded {
            card,
            version,
            removed,
        } => {
            json!({ "kind": "card_reloaded", "card": card, "version": version, "removed": removed })
        }
    }
}

fn put(o: &mut Map<String, Value>, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        o.insert(key.into(), v);
    }
}

/// A card object: its number in this game (objects change at each zone change), its card id
/// and its name for people (printed language).
fn card(game: &Game, id: ObjId) -> Value {
    if id.0 as usize >= game.object_count() {
        return json!({ "object": id.0 });
    }
    json!({ "object": id.0, "id": game.card_id(id), "name": game.card_label(id, None) })
}

/// A zone: its declared name and its owner's seat from 1 (none for a shared zone).
fn zone(game: &Game, z: ZoneId) -> Value {
    match game.zone_of(z) {
        (name, Some(p)) => json!({ "zone": name, "player": p + 1 }),
        (name, None) => json!({ "zone": name }),
    }
}

fn val(game: &Game, v: &Val) -> Value {
    match v {
        Val::Bool(b) => (*b).into(),
        Val::Int(i) => (*i).into(),
        Val::Str(s) => s.clone().into(),
        Val::Card(c) => card(game, c.card),
        Val::Player(p) => json!({ "player": p.player as u32 + 1 }),
        Val::List(l) => l.iter().map(|x| val(game, x)).collect::<Vec<_>>().into(),
    }
}
