//! A scenario's starting position: players' zones and values, then the start of a phase.
//! Every player number and count is checked against the game and the limits before anything
//! is made; a problem names the place in the scenario.

use std::rc::Rc;

use riffle_core::{
    Builder, DeckList, Engine, Game, GameConfig, GameResult, MatchContext, ObjId, OptionValue,
    Options, Place, PlayerId,
};
use serde_json::Value;

use super::limits::{MAX_CARDS_PER_LINE, add_to_zone, split_count};
use super::problem::{Checked, Problem, token};

/// A deck list from `{section: [cards]}` (a card is `ID` or `ID xN`) or `{section: {ID: n}}`.
/// `at` is where `v` is in the scenario.
pub fn deck_list(v: &Value, at: &str) -> Checked<DeckList> {
    let mut out = DeckList::default();
    let sections = v.as_object().ok_or_else(|| {
        Problem::new(
            at,
            "a deck is a map of sections: {leader: [...], main: [...]}",
        )
    })?;
    for (section, cards) in sections {
        let sat = format!("{at}/{}", token(section));
        let entry = out.sections.entry(section.clone()).or_default();
        let mut total = 0usize;
        let mut add = |id: &str, n: u32, at: &str| -> Checked<()> {
            add_to_zone(&mut total, n, &format!("section {section}"))
                .map_err(|e| Problem::new(at, e))?;
            let c = entry.entry(id.to_string()).or_insert(0);
            *c = c.saturating_add(n);
            Ok(())
        };
        match cards {
            Value::Array(list) => {
                for (i, c) in list.iter().enumerate() {
                    let cat = format!("{sat}/{i}");
                    let s = c.as_str().ok_or_else(|| {
                        Problem::new(&cat, format!("a card is `ID` or `ID xN`, not {c}"))
                    })?;
                    let (id, n) = split_count(s).map_err(|e| Problem::new(&cat, e))?;
                    add(&id, n, &cat)?;
                }
            }
            Value::Object(m) => {
                for (id, n) in m {
                    let cat = format!("{sat}/{}", token(id));
                    let n = n
                        .as_u64()
                        .filter(|n| (1..=u64::from(MAX_CARDS_PER_LINE)).contains(n))
                        .ok_or_else(|| {
                            Problem::new(
                                &cat,
                                format!("{id}: give 1 to {MAX_CARDS_PER_LINE} copies, not {n}"),
                            )
                        })?;
                    add(id, n as u32, &cat)?;
                }
            }
            Value::String(s) => {
                let (id, n) = split_count(s).map_err(|e| Problem::new(&sat, e))?;
                add(&id, n, &sat)?;
            }
            other => {
                return Err(Problem::new(
                    sat,
                    format!("a list of cards or a map of counts, not {other}"),
                ));
            }
        }
    }
    Ok(out)
}

/// The player numbers of `players:`, sorted: each from 1 to the ruleset's most players.
fn seats<'a>(
    engine: &Engine,
    players: &'a serde_json::Map<String, Value>,
) -> Checked<Vec<(u8, &'a Value)>> {
    let max = engine.manifest().players.max;
    let mut out = Vec::new();
    for (k, v) in players {
        let n = k
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| {
                Problem::new(
                    format!("/players/{}", token(k)),
                    format!("no player '{k}': players are numbered 1 to {max} in this game"),
                )
            })?;
        out.push((n, v));
    }
    out.sort_by_key(|(n, _)| *n);
    Ok(out)
}

/// `options:`: the game's options by name, each a name or an integer.
pub fn options(sc: &Value) -> Checked<Options> {
    let mut out = Options::new();
    let Some(map) = sc.get("options") else {
        return Ok(out);
    };
    let map = map
        .as_object()
        .ok_or_else(|| Problem::new("/options", "options: a map of names to values"))?;
    for (k, v) in map {
        let value = match v {
            Value::String(s) => OptionValue::Name(s.clone()),
            Value::Number(n) if n.as_i64().is_some() => OptionValue::Int(n.as_i64().unwrap_or(0)),
            other => {
                return Err(Problem::new(
                    format!("/options/{}", token(k)),
                    format!("options.{k}: a name or an integer, not {other}"),
                ));
            }
        };
        out.insert(k.clone(), value);
    }
    Ok(out)
}

/// The earlier games of the match (`match: {previous: [{winners: [1], reason: ...}]}`,
/// players numbered from 1), for a setup that reads `ctx:match()`.
pub fn match_context(sc: &Value, nplayers: u8) -> Checked<MatchContext> {
    let mut out = MatchContext::default();
    let Some(m) = sc.get("match") else {
        return Ok(out);
    };
    let Some(previous) = m.get("previous").and_then(Value::as_array) else {
        return Err(Problem::new(
            "/match",
            "match: {previous: [{winners: [player, ...], reason: why}, ...]}, the earlier games oldest first",
        ));
    };
    for (g, r) in previous.iter().enumerate() {
        let at = format!("/match/previous/{g}");
        let mut winners = Vec::new();
        let listed = r.get("winners").and_then(Value::as_array).ok_or_else(|| {
            Problem::new(
                &at,
                "a game: {winners: [player, ...]} (no winners for a draw)",
            )
        })?;
        for (i, w) in listed.iter().enumerate() {
            let p = w
                .as_u64()
                .filter(|p| (1..=u64::from(nplayers)).contains(p))
                .ok_or_else(|| {
                    Problem::new(
                        format!("{at}/winners/{i}"),
                        format!(
                            "winners: no player {w}: this scenario has players 1 to {nplayers}"
                        ),
                    )
                })?;
            winners.push(p as PlayerId - 1);
        }
        let reason = match r.get("reason") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(Problem::new(
                    format!("{at}/reason"),
                    format!("reason: a word, not {other}"),
                ));
            }
        };
        out.previous.push(GameResult { winners, reason });
    }
    Ok(out)
}

/// The options checked against the ruleset for `nplayers` (their values, the teams they
/// make): a problem at `/options` otherwise.
fn checked_options(engine: &Engine, sc: &Value, nplayers: u8) -> Checked<Options> {
    let opts = options(sc)?;
    engine
        .seats(nplayers, &opts)
        .map_err(|e| Problem::new("/options", e))?;
    Ok(opts)
}

fn players(sc: &Value) -> Checked<&serde_json::Map<String, Value>> {
    sc.get("players")
        .and_then(Value::as_object)
        .ok_or_else(|| Problem::new("", "a scenario needs `players:` (1: {...}, 2: {...})"))
}

/// `start: setup`: a game made from deck lists by the ruleset's own setup procedure. Each
/// player's cards are listed under the zones the ruleset's deck sections start in
/// (One Piece: `leader`, `deck`, `don_deck`); other zones and values cannot be given.
pub fn build_from_decks(engine: &Rc<Engine>, sc: &Value) -> Checked<Game> {
    let keys = seats(engine, players(sc)?)?;
    let sections = &engine.manifest().deck.sections;
    let mut decks = Vec::new();
    for (i, (k, pv)) in keys.iter().enumerate() {
        let pat = format!("/players/{k}");
        if *k as usize != i + 1 {
            return Err(Problem::new(
                "/players",
                format!(
                    "start: setup needs players 1..n, player {} is missing",
                    i + 1
                ),
            ));
        }
        let zones = pv
            .as_object()
            .ok_or_else(|| Problem::new(&pat, format!("player {k}: a map of zones")))?;
        let mut list = serde_json::Map::new();
        for (zone, cards) in zones {
            let Some(sec) = sections.iter().find(|s| &s.zone == zone) else {
                let names: Vec<&str> = sections.iter().map(|s| s.zone.as_str()).collect();
                return Err(Problem::new(
                    format!("{pat}/{}", token(zone)),
                    format!(
                        "with `start: setup` only the zones decks start in can be given ({})",
                        names.join(", ")
                    ),
                ));
            };
            list.insert(sec.name.clone(), cards.clone());
        }
        // Section names stand for the zones they start in: map a problem's place back.
        let deck = deck_list(&Value::Object(list), "").map_err(|p| {
            let mut rest = p.at.trim_start_matches('/').splitn(2, '/');
            let section = rest.next().unwrap_or_default();
            let zone = sections
                .iter()
                .find(|s| token(&s.name) == section)
                .map_or(section.to_string(), |s| token(&s.zone));
            let tail = rest.next().map(|t| format!("/{t}")).unwrap_or_default();
            Problem::new(format!("{pat}/{zone}{tail}"), p.message)
        })?;
        decks.push(deck);
    }
    let seed = sc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let opts = checked_options(engine, sc, decks.len() as u8)?;
    let context = match_context(sc, decks.len() as u8)?;
    Game::in_match(
        engine.clone(),
        GameConfig {
            seed,
            decks,
            keep_log: true,
        },
        &opts,
        &context,
    )
    .map_err(|e| Problem::new("/players", e.to_string()))
}

/// Builds the game a scenario describes.
pub fn build(engine: &Rc<Engine>, sc: &Value) -> Checked<Game> {
    let keys = seats(engine, players(sc)?)?;
    let nplayers = keys
        .iter()
        .map(|(n, _)| *n)
        .max()
        .unwrap_or(0)
        .max(engine.manifest().players.min);
    let seed = sc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let start = sc.get("start").cloned().unwrap_or(Value::Null);
    let turn = match start.get("turn") {
        None => 3,
        Some(t) => t
            .as_u64()
            .filter(|t| *t >= 1)
            .and_then(|t| u32::try_from(t).ok())
            .ok_or_else(|| {
                Problem::new(
                    "/start/turn",
                    format!("turn: a turn number from 1, not {t}"),
                )
            })?,
    };
    let tp = match start.get("player") {
        None => 1,
        Some(p) => p
            .as_u64()
            .filter(|p| (1..=u64::from(nplayers)).contains(p))
            .ok_or_else(|| {
                Problem::new(
                    "/start/player",
                    format!("player: no player {p}: this scenario has players 1 to {nplayers}"),
                )
            })? as u8,
    };
    let phase = start
        .get("phase")
        .and_then(Value::as_str)
        .unwrap_or("main")
        .to_string();
    let opts = checked_options(engine, sc, nplayers)?;
    let mut b = Builder::with_options(engine.clone(), nplayers, seed, &opts)
        .map_err(|e| Problem::new("/players", e))?;
    b.set_match(match_context(sc, nplayers)?)
        .map_err(|e| Problem::new("/match", e))?;
    for (k, pv) in keys {
        let pat = format!("/players/{k}");
        let p = k - 1;
        let zones = pv
            .as_object()
            .ok_or_else(|| Problem::new(&pat, format!("player {k}: a map of zones")))?;
        for (zone, items) in zones {
            let zat = format!("{pat}/{}", token(zone));
            if zone == "values" {
                let values = items
                    .as_object()
                    .ok_or_else(|| Problem::new(&zat, "values: a map of names to integers"))?;
                for (name, v) in values {
                    let vat = format!("{zat}/{}", token(name));
                    let n = v
                        .as_i64()
                        .ok_or_else(|| Problem::new(&vat, format!("values.{name}: an integer")))?;
                    b.set_value(p, name, n).map_err(|e| Problem::new(&vat, e))?;
                }
                continue;
            }
            let mut total = 0usize;
            place_all(&mut b, p, zone, items, None, turn, &zat, &mut total)?;
        }
    }
    if let Some(gv) = sc.get("game_values").and_then(Value::as_object) {
        for (name, v) in gv {
            let vat = format!("/game_values/{}", token(name));
            let n = v
                .as_i64()
                .ok_or_else(|| Problem::new(&vat, format!("game_values.{name}: an integer")))?;
            b.set_game_value(name, n)
                .map_err(|e| Problem::new(&vat, e))?;
        }
    }
    b.start(turn, tp - 1, &phase)
        .map_err(|e| Problem::new("/start", e))
}

/// Places the cards `items` (at `at` in the scenario) into `zone`, or under `host`;
/// `total` counts the zone's cards so far, attached ones included.
#[allow(clippy::too_many_arguments)]
fn place_all(
    b: &mut Builder,
    p: u8,
    zone: &str,
    items: &Value,
    host: Option<ObjId>,
    turn: u32,
    at: &str,
    total: &mut usize,
) -> Checked<()> {
    let list: Vec<(String, &Value)> = match items {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{at}/{i}"), v))
            .collect(),
        Value::Null => Vec::new(),
        one => vec![(at.to_string(), one)],
    };
    for (iat, item) in list {
        let (card, count, opts, attach) = match item {
            Value::String(s) => {
                let (id, n) = split_count(s).map_err(|e| Problem::new(&iat, e))?;
                let opts = Place {
                    attach_to: host,
                    ..Place::default()
                };
                (id, n, opts, Value::Null)
            }
            Value::Object(m) => placed(m, host, turn).map_err(|p| p.within(&iat))?,
            other => {
                return Err(Problem::new(
                    &iat,
                    format!("a card is `ID`, `ID xN` or a map, not {other}"),
                ));
            }
        };
        // Checked before anything is made: every card is an object the host allocates.
        add_to_zone(total, count, &format!("zone {zone} of player {}", p + 1))
            .map_err(|e| Problem::new(&iat, e))?;
        for _ in 0..count {
            let id = b
                .place(p, zone, &card, &opts)
                .map_err(|e| Problem::new(&iat, e))?;
            if !attach.is_null() {
                place_all(
                    b,
                    p,
                    zone,
                    &attach,
                    Some(id),
                    turn,
                    &format!("{iat}/attach"),
                    total,
                )?;
            }
        }
    }
    Ok(())
}

/// `{card, count, orientation, face, attach, counters, flags, entered}`.
fn placed(
    m: &serde_json::Map<String, Value>,
    host: Option<ObjId>,
    turn: u32,
) -> Checked<(String, u32, Place, Value)> {
    let card = m
        .get("card")
        .and_then(Value::as_str)
        .ok_or_else(|| Problem::new("", "each card needs `card: ID`"))?
        .to_string();
    let count = match m.get("count") {
        None => 1,
        Some(n) => n
            .as_u64()
            .filter(|n| (1..=u64::from(MAX_CARDS_PER_LINE)).contains(n))
            .ok_or_else(|| {
                Problem::new(
                    "/count",
                    format!("count: give 1 to {MAX_CARDS_PER_LINE} copies, not {n}"),
                )
            })? as u32,
    };
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
            return Err(Problem::new(
                "/entered",
                format!("entered: 'this_turn' or 'earlier', not '{other}'"),
            ));
        }
    }
    opts.token = m.get("token").and_then(Value::as_bool).unwrap_or(false);
    let attach = m.get("attach").cloned().unwrap_or(Value::Null);
    Ok((card, count, opts, attach))
}
