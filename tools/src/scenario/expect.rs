//! Assertions of a scenario: result, request, zones, cards, values, events, errors, and what
//! one player sees (their view and their filtered log).
//! Each failed assertion is one line: what was expected, and what the game has. Player
//! numbers and counts are checked, never trusted: `player: 0` is a failure, not a panic.

use riffle_core::events::Event;
use riffle_core::values::Val;
use std::collections::BTreeMap;

use riffle_core::vocabulary::prompt_name;
use riffle_core::{CardView, Entry, Game, PlayerId, Request};
use serde_json::Value;

use super::limits::split_count;
use super::option_matches;
use super::problem::{Problem, token};
use crate::reference::usage::{all_option_templates, option_templates};

/// Checks `exp` against the game; returns the failures, each at its key (`/zones`).
pub fn check(game: &Game, exp: &Value) -> Vec<Problem> {
    let Some(map) = exp.as_object() else {
        return vec![Problem::new("", "expect: a map")];
    };
    let mut out = Vec::new();
    for (key, v) in map {
        let mut f = Vec::new();
        match key.as_str() {
            "winner" => winner(game, v, &mut f),
            "over" => {
                let over = game.result().is_some();
                if Some(over) != v.as_bool() {
                    f.push(format!("over: expected {v}, got {over} ({})", result_text(game)));
                }
            }
            "reason" => {
                let got = game.result().map(|r| r.reason);
                if got.as_deref() != v.as_str() {
                    f.push(format!("reason: expected {v}, got {}", result_text(game)));
                }
            }
            "request" => request(game, v, &mut f),
            "zones" => zones(game, v, &mut f),
            "cards" => {
                for c in v.as_array().into_iter().flatten() {
                    card(game, c, &mut f);
                }
            }
            "values" => values(game, v, &mut f),
            "events" => events(game, &all_events(game), v, true, &mut f),
            "no_events" => events(game, &all_events(game), v, false, &mut f),
            "event_counts" => event_counts(game, &all_events(game), v, &mut f),
            "view" => each(v, |w| view(game, w, &mut f)),
            "events_for" => each(v, |w| events_for(game, w, &mut f)),
            "errors" => {
                let want: Vec<&str> = v.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                for w in &want {
                    if !game.errors().iter().any(|e| e.contains(w)) {
                        f.push(format!("errors: expected one containing '{w}', got {:?}", game.errors()));
                    }
                }
            }
            other => f.push(format!(
                "unknown expectation '{other}' (winner, over, reason, request, zones, cards, values, events, no_events, event_counts, view, events_for, errors)"
            )),
        }
        let at = format!("/{}", token(key));
        out.extend(f.into_iter().map(|m| Problem::new(&at, m)));
    }
    out
}

/// Whether an expectation map asserts anything. A key whose value is an empty list or map
/// (or nothing) checks nothing, except `deck_errors: []` (the deck is legal) and
/// `request: {}` (something is asked).
pub fn asserts_something(exp: Option<&Value>) -> bool {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    exp.and_then(Value::as_object).is_some_and(|m| {
        m.iter().any(|(k, v)| match k.as_str() {
            "deck_errors" | "request" => !v.is_null(),
            _ => !empty(v),
        })
    })
}

/// A 1-based player number as a seat, when the game has it.
fn player_number(game: &Game, n: u64) -> Option<PlayerId> {
    (1..=u64::from(game.players()))
        .contains(&n)
        .then(|| (n - 1) as PlayerId)
}

fn winner(game: &Game, v: &Value, f: &mut Vec<String>) {
    let r = game.result();
    let got = match &r {
        None => "none".to_string(), // the game is not over
        Some(r) if r.winners.is_empty() => "draw".to_string(),
        Some(r) => r
            .winners
            .iter()
            .map(|p| (p + 1).to_string())
            .collect::<Vec<_>>()
            .join(","),
    };
    let want = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if got != want {
        f.push(format!(
            "winner: expected {want}, got {got} ({})",
            r.map(|r| r.reason).unwrap_or_default()
        ));
    }
}

/// The game's result for people, seats counted from 1: "not over", "a draw (loop)",
/// "player 2 won (defeat)", "players 1 and 3 won (defeat)".
pub(super) fn result_text(game: &Game) -> String {
    match game.result() {
        None => "the game is not over".to_string(),
        Some(r) if r.winners.is_empty() => format!("the game ended in a draw ({})", r.reason),
        Some(r) => {
            let seats: Vec<String> = r.winners.iter().map(|p| (p + 1).to_string()).collect();
            match seats.as_slice() {
                [one] => format!("the game is over: player {one} won ({})", r.reason),
                many => format!(
                    "the game is over: players {} won ({})",
                    many.join(" and "),
                    r.reason
                ),
            }
        }
    }
}

fn request(game: &Game, v: &Value, f: &mut Vec<String>) {
    let Some(req) = game.request() else {
        f.push(format!(
            "request: expected {v}, but nothing is asked ({})",
            result_text(game)
        ));
        return;
    };
    let labels: Vec<String> = match req {
        Request::Choose { options, .. } => options.iter().map(|o| o.label.clone()).collect(),
        Request::Number { .. } => Vec::new(),
    };
    if let Some(p) = v.get("player").and_then(Value::as_u64)
        && p != u64::from(req.player()) + 1
    {
        f.push(format!(
            "request.player: expected {p}, got {}",
            req.player() + 1
        ));
    }
    // How many may be chosen: `min: 0` is an "up to" choice, `min: 1` a compulsory one.
    let (min, max) = match req {
        Request::Choose { min, max, .. } => (*min as i64, *max as i64),
        Request::Number { min, max, .. } => (*min, *max),
    };
    for (key, actual) in [("min", min), ("max", max)] {
        if let Some(n) = v.get(key).and_then(Value::as_i64)
            && n != actual
        {
            f.push(format!("request.{key}: expected {n}, got {actual}"));
        }
    }
    if let Some(p) = v.get("prompt").and_then(Value::as_str)
        && p != req.prompt()
    {
        f.push(format!(
            "request.prompt: expected {p}, got {}",
            req.prompt()
        ));
    }
    let Request::Choose { options, .. } = req else {
        for key in ["options", "not_options"] {
            if v.get(key)
                .is_some_and(|l| l.as_array().is_some_and(|a| !a.is_empty()))
            {
                f.push(format!(
                    "request.{key}: the request asks for a number, not a choice"
                ));
            }
        }
        return;
    };
    for w in v
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Err(why) = pattern_usable(game, w) {
            f.push(format!("request.options: {why}"));
        } else if !options.iter().any(|o| option_matches(game, o, w, false)) {
            f.push(format!(
                "request.options: expected one matching {w}, got {labels:?}"
            ));
        }
    }
    let manifest = game.engine().manifest();
    // Held to the labels of the whole game, not this prompt's: "no attack in this window"
    // guards against a ruleset change that would list one there.
    let declared = !option_templates(manifest, prompt_name(req.prompt())).is_empty();
    let templates = all_option_templates(manifest);
    for w in v
        .get("not_options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Err(why) = pattern_usable(game, w) {
            f.push(format!("request.not_options: {why}"));
        } else if options.iter().any(|o| option_matches(game, o, w, false)) {
            f.push(format!(
                "request.not_options: did not expect {w}, got {labels:?}"
            ));
        } else if let Some(why) = declared
            .then(|| never_matches(game, &templates, w))
            .flatten()
        {
            f.push(format!("request.not_options: {w} {why}"));
        }
    }
}

/// Whether an option pattern of `options`/`not_options` can be checked: a card id the content
/// has, and no `nth` (which means something only to `choose`).
fn pattern_usable(game: &Game, w: &Value) -> Result<(), String> {
    let Some(m) = w.as_object() else {
        return Ok(());
    };
    if m.contains_key("nth") {
        return Err(format!(
            "{w}: `nth` picks among options to choose; here every option is looked at"
        ));
    }
    for key in ["card", "target"] {
        if let Some(id) = m.get(key).and_then(Value::as_str)
            && !game.engine().has_card(id)
        {
            return Err(format!("{w}: no card `{id}` in the content"));
        }
    }
    Ok(())
}

/// Why a `not_options` pattern could be no option of this game, so that the check passes
/// whatever is offered (a label or kind the ruleset renamed, a misspelt card name); None
/// when it could be one.
fn never_matches(game: &Game, templates: &BTreeMap<&str, Vec<&str>>, w: &Value) -> Option<String> {
    let (label, kind) = match w {
        Value::String(s) => (Some(s.as_str()), None),
        Value::Object(m) => (
            m.get("label").and_then(Value::as_str),
            m.get("kind").and_then(Value::as_str),
        ),
        _ => return None,
    };
    if let Some(kind) = kind
        && !templates.contains_key(kind)
    {
        let kinds: Vec<&str> = templates.keys().copied().collect();
        return Some(format!(
            "names a kind no option of this game has, so this check cannot fail: the kinds \
             are {}",
            kinds.join(", ")
        ));
    }
    let label = label?;
    // What `{card}`-like holes may hold: card labels, and players (an attack on one).
    let players: Vec<String> = (1..=game.players()).map(|p| format!("P{p}")).collect();
    let names: Vec<&str> = game
        .engine()
        .card_labels()
        .chain(players.iter().map(String::as_str))
        .collect();
    let mut all: Vec<&str> = Vec::new();
    for (k, ts) in templates {
        if kind.is_none_or(|kind| kind == *k) {
            all.extend(ts.iter().copied());
        }
    }
    if all.iter().any(|t| label_may_start(t, label, &names)) {
        return None;
    }
    all.sort_unstable();
    all.dedup();
    Some(format!(
        "can be no option's label in this game, so this check cannot fail: the labels are \
         {} ({{card}}: a card's name); give the start of one of them, or match by card \
         (`{{card: ID}}`)",
        all.join(", ")
    ))
}

/// Whether some label fitting `template` starts with `prefix`. `{card}`, `{target}` and
/// `{name}` stand for one of `names` (cards' labels, players) or a hidden card's "hidden
/// card ...", any other `{...}` for any text.
fn label_may_start(template: &str, prefix: &str, names: &[&str]) -> bool {
    let Some(open) = template.find('{') else {
        return template.starts_with(prefix);
    };
    let literal = &template[..open];
    if prefix.len() <= literal.len() {
        return literal.starts_with(prefix);
    }
    let Some(rest) = prefix.strip_prefix(literal) else {
        return false;
    };
    let Some(close) = template[open..].find('}') else {
        return true;
    };
    let hole = &template[open + 1..open + close];
    let after = &template[open + close + 1..];
    if !matches!(hole, "card" | "target" | "name") {
        return true; // any text: it can take the rest of the prefix
    }
    const HIDDEN: &str = "hidden card ";
    if HIDDEN.starts_with(rest) || rest.starts_with(HIDDEN) {
        return true;
    }
    names.iter().any(|n| {
        n.starts_with(rest)
            || rest
                .strip_prefix(n)
                .is_some_and(|r| label_may_start(after, r, names))
    })
}

fn ids(cards: &[CardView]) -> Vec<String> {
    let mut v: Vec<String> = cards
        .iter()
        .map(|c| c.card.clone().unwrap_or_else(|| "?".into()))
        .collect();
    v.sort();
    v
}

/// `ID` / `ID xN` lines as a sorted list of ids; a count out of bounds is an error, found
/// before the list is made.
fn expand(list: &[Value]) -> Result<Vec<String>, String> {
    let mut out = in_order(list)?;
    out.sort();
    Ok(out)
}

/// `ID` / `ID xN` lines as a list of ids, in the order given.
fn in_order(list: &[Value]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for x in list.iter().filter_map(Value::as_str) {
        let (id, n) = split_count(x)?;
        out.extend(std::iter::repeat_n(id, n as usize));
    }
    Ok(out)
}

fn zones(game: &Game, v: &Value, f: &mut Vec<String>) {
    for (p, zs) in v.as_object().into_iter().flatten() {
        let Some(seat) = p.parse::<u64>().ok().and_then(|n| player_number(game, n)) else {
            f.push(format!(
                "zones: no player '{p}': this game has players 1 to {}",
                game.players()
            ));
            continue;
        };
        for (zone, want) in zs.as_object().into_iter().flatten() {
            let Some(cards) = game.inspect_zone(seat, zone) else {
                f.push(format!("zones.{p}.{zone}: no such zone or player"));
                continue;
            };
            let got = ids(&cards);
            match want {
                Value::Number(n) => {
                    if Some(got.len() as u64) != n.as_u64() {
                        f.push(format!(
                            "player {p} {zone}: expected {n} cards, got {} {got:?}",
                            got.len()
                        ));
                    }
                }
                Value::Array(list) => match expand(list) {
                    Ok(want) if want != got => {
                        f.push(format!("player {p} {zone}: expected {want:?}, got {got:?}"));
                    }
                    Ok(_) => {}
                    Err(e) => f.push(format!("zones.{p}.{zone}: {e}")),
                },
                Value::Object(m) => {
                    if let Some(n) = m.get("count").and_then(Value::as_u64)
                        && got.len() as u64 != n
                    {
                        f.push(format!(
                            "player {p} {zone}: expected {n} cards, got {} {got:?}",
                            got.len()
                        ));
                    }
                    for (key, present) in [("contains", true), ("excludes", false)] {
                        let list = m
                            .get(key)
                            .and_then(Value::as_array)
                            .map(Vec::as_slice)
                            .unwrap_or(&[]);
                        let ids = match expand(list) {
                            Ok(ids) => ids,
                            Err(e) => {
                                f.push(format!("zones.{p}.{zone}.{key}: {e}"));
                                continue;
                            }
                        };
                        for c in ids {
                            if got.contains(&c) != present {
                                f.push(format!(
                                    "player {p} {zone}: expected {}to contain {c}, got {got:?}",
                                    if present { "" } else { "not " }
                                ));
                            }
                        }
                    }
                    if let Some(top) = m.get("top").and_then(Value::as_str) {
                        let t = cards.last().and_then(|c| c.card.clone());
                        if t.as_deref() != Some(top) {
                            f.push(format!(
                                "player {p} {zone}: expected {top} on top, got {t:?}"
                            ));
                        }
                    }
                    if let Some(bottom) = m.get("bottom").and_then(Value::as_str) {
                        let b = cards.first().and_then(|c| c.card.clone());
                        if b.as_deref() != Some(bottom) {
                            f.push(format!(
                                "player {p} {zone}: expected {bottom} at the bottom, got {b:?}"
                            ));
                        }
                    }
                    if let Some(order) = m.get("order").and_then(Value::as_array) {
                        let want = match in_order(order) {
                            Ok(w) => w,
                            Err(e) => {
                                f.push(format!("zones.{p}.{zone}.order: {e}"));
                                continue;
                            }
                        };
                        let in_order: Vec<String> = cards
                            .iter()
                            .map(|c| c.card.clone().unwrap_or_else(|| "?".into()))
                            .collect();
                        if want != in_order {
                            f.push(format!("player {p} {zone}: expected, bottom to top, {want:?}, got {in_order:?}"));
                        }
                    }
                }
                other => f.push(format!(
                    "zones.{p}.{zone}: a count, a list of ids or a map, not {other}"
                )),
            }
        }
    }
}

fn card(game: &Game, c: &Value, f: &mut Vec<String>) {
    let p = c.get("player").and_then(Value::as_u64).unwrap_or(1);
    let Some(seat) = player_number(game, p) else {
        f.push(format!(
            "cards: no player {p}: this game has players 1 to {}",
            game.players()
        ));
        return;
    };
    let Some(zone) = c.get("zone").and_then(Value::as_str) else {
        f.push("cards: each needs `zone`".into());
        return;
    };
    let Some(id) = c.get("card").and_then(Value::as_str) else {
        f.push("cards: each needs `card`".into());
        return;
    };
    let nth = c.get("nth").and_then(Value::as_u64).unwrap_or(1);
    if nth == 0 {
        f.push(format!("card {id}: nth counts from 1"));
        return;
    }
    let cards = game.inspect_zone(seat, zone).unwrap_or_default();
    // The zone's cards, then the cards attached to them (at any depth, depth first): an
    // attached card is in its host's zone; the cards of the zone itself come first, so `nth`
    // counts them as before.
    let mut attached = Vec::new();
    fn walk<'a>(c: &'a CardView, out: &mut Vec<&'a CardView>) {
        for a in &c.attachments {
            out.push(a);
            walk(a, out);
        }
    }
    for c in &cards {
        walk(c, &mut attached);
    }
    let Some(cv) = cards
        .iter()
        .chain(attached)
        .filter(|x| x.card.as_deref() == Some(id))
        .nth(usize::try_from(nth - 1).unwrap_or(usize::MAX))
    else {
        f.push(format!(
            "card {id}: not in player {p}'s {zone} ({:?})",
            ids(&cards)
        ));
        return;
    };
    for (k, want) in c.as_object().into_iter().flatten() {
        let got: Value = match k.as_str() {
            "player" | "zone" | "card" | "nth" => continue,
            "orientation" => Value::String(cv.orientation.clone()),
            "face_up" => Value::Bool(cv.face_up),
            "attachments" => Value::from(cv.attachments.len()),
            "has" => {
                for w in want
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !cv.sets.values().any(|s| s.iter().any(|x| x == w)) {
                        f.push(format!(
                            "card {id}: expected to have '{w}', has {:?}",
                            cv.sets
                        ));
                    }
                }
                continue;
            }
            "lacks" => {
                for w in want
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if cv.sets.values().any(|s| s.iter().any(|x| x == w)) {
                        f.push(format!(
                            "card {id}: expected not to have '{w}', has {:?}",
                            cv.sets
                        ));
                    }
                }
                continue;
            }
            name => match cv.values.get(name).or_else(|| cv.counters.get(name)) {
                Some(v) => Value::from(*v),
                None => Value::from(0),
            },
        };
        if &got != want {
            f.push(format!(
                "card {id} in player {p}'s {zone}: {k} expected {want}, got {got}"
            ));
        }
    }
}

fn values(game: &Game, v: &Value, f: &mut Vec<String>) {
    let view = game.view(0);
    for (p, vals) in v.as_object().into_iter().flatten() {
        let seat = p.parse::<u64>().ok().and_then(|n| player_number(game, n));
        let Some(pv) = seat.and_then(|s| view.values.get(s as usize)) else {
            f.push(format!("values: no player {p}"));
            continue;
        };
        for (name, want) in vals.as_object().into_iter().flatten() {
            let got = pv.get(name).copied();
            if got != want.as_i64() {
                f.push(format!(
                    "player {p} value {name}: expected {want}, got {}",
                    got.map_or("no such value".to_string(), |n| n.to_string())
                ));
            }
        }
    }
}

/// A map, or a list of maps each checked.
fn each(v: &Value, mut check: impl FnMut(&Value)) {
    match v {
        Value::Array(list) => list.iter().for_each(check),
        other => check(other),
    }
}

/// The events of a log.
fn only_events(log: Vec<Entry>) -> Vec<Event> {
    log.into_iter()
        .filter_map(|e| match e {
            Entry::Event(ev) => Some(ev),
            _ => None,
        })
        .collect()
}

fn all_events(game: &Game) -> Vec<Event> {
    only_events(game.log())
}

/// A seat from a 1-based `player` number.
fn seat(game: &Game, w: &Value, key: &str) -> Option<PlayerId> {
    w.get(key)
        .and_then(Value::as_u64)
        .filter(|p| *p >= 1 && *p <= game.players() as u64)
        .map(|p| (p - 1) as PlayerId)
}

/// `view: {player, of, zone, count, hidden, cards, contains, excludes, order}`: what `player`
/// sees of `of`'s zone (default: their own). A card they may not see is `"?"`.
fn view(game: &Game, w: &Value, f: &mut Vec<String>) {
    let Some(viewer) = seat(game, w, "player") else {
        f.push(format!("view: {w} needs `player: N` (a seat)"));
        return;
    };
    let of = if w.get("of").is_some() {
        seat(game, w, "of")
    } else {
        Some(viewer)
    };
    let (Some(of), Some(zone)) = (of, w.get("zone").and_then(Value::as_str)) else {
        f.push(format!("view: {w} needs `zone` (and `of: N`, a seat)"));
        return;
    };
    let v = game.view(viewer);
    let Some(z) = v
        .zones
        .iter()
        .find(|z| z.name == zone && z.owner == Some(of))
        .or_else(|| v.zones.iter().find(|z| z.name == zone && z.owner.is_none()))
    else {
        f.push(format!("view: no zone {zone}"));
        return;
    };
    let who = format!("player {} sees player {}'s {zone}", viewer + 1, of + 1);
    let got = ids(&z.cards);
    if let Some(n) = w.get("count").and_then(Value::as_u64)
        && z.count as u64 != n
    {
        f.push(format!("{who}: expected {n} cards, got {}", z.count));
    }
    if let Some(h) = w.get("hidden").and_then(Value::as_bool) {
        let hidden = z.cards.iter().filter(|c| c.card.is_none()).count();
        let ok = if h {
            hidden == z.cards.len()
        } else {
            hidden == 0
        };
        if !ok {
            f.push(format!(
                "{who}: expected every card {}, got {got:?}",
                if h { "hidden" } else { "visible" }
            ));
        }
    }
    if let Some(list) = w.get("cards").and_then(Value::as_array) {
        match expand(list) {
            Ok(want) if want != got => f.push(format!("{who}: expected {want:?}, got {got:?}")),
            Ok(_) => {}
            Err(e) => f.push(format!("{who}: cards: {e}")),
        }
    }
    for (key, present) in [("contains", true), ("excludes", false)] {
        let list = w
            .get(key)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let ids = match expand(list) {
            Ok(ids) => ids,
            Err(e) => {
                f.push(format!("{who}: {key}: {e}"));
                continue;
            }
        };
        for c in ids {
            if got.contains(&c) != present {
                f.push(format!(
                    "{who}: expected {}{c}, got {got:?}",
                    if present { "" } else { "no " }
                ));
            }
        }
    }
    if let Some(order) = w.get("order").and_then(Value::as_array) {
        let want: Vec<String> = order
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect();
        let in_order: Vec<String> = z
            .cards
            .iter()
            .map(|c| c.card.clone().unwrap_or_else(|| "?".into()))
            .collect();
        if want != in_order {
            f.push(format!(
                "{who}: expected, bottom to top, {want:?}, got {in_order:?}"
            ));
        }
    }
}

/// The card ids an event names (card, old, and cards in its data).
fn named_cards(game: &Game, e: &Event) -> Vec<String> {
    let mut out: Vec<String> = e
        .card
        .into_iter()
        .chain(e.old)
        .map(|c| game.card_id(c))
        .collect();
    let mut stack: Vec<&Val> = e.data.iter().map(|(_, v)| v).collect();
    while let Some(v) = stack.pop() {
        match v {
            Val::Card(c) => out.push(game.card_id(c.card)),
            Val::List(l) => stack.extend(l),
            _ => {}
        }
    }
    out
}

/// `events_for: {player, shows: [ids], hides: [ids], events, no_events, event_counts}`: the log
/// as `player` may see it (`Game::events_for`). `shows`: some event names that card; `hides`:
/// none does. Event patterns are those of `events`; `card: "?"` matches a card hidden from them.
fn events_for(game: &Game, w: &Value, f: &mut Vec<String>) {
    let Some(viewer) = seat(game, w, "player") else {
        f.push(format!("events_for: {w} needs `player: N` (a seat)"));
        return;
    };
    let evs = only_events(game.events_for(viewer));
    let named: Vec<String> = evs.iter().flat_map(|e| named_cards(game, e)).collect();
    let mut inner = Vec::new();
    for (key, v) in w.as_object().into_iter().flatten() {
        match key.as_str() {
            "player" => {}
            "shows" | "hides" => {
                for id in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                    let seen = named.iter().any(|n| n == id);
                    if seen != (key == "shows") {
                        inner.push(format!(
                            "{} {id} in its log, but it {}",
                            if seen { "expected no" } else { "expected" },
                            if seen { "does" } else { "does not" }
                        ));
                    }
                }
            }
            "events" => events(game, &evs, v, true, &mut inner),
            "no_events" => events(game, &evs, v, false, &mut inner),
            "event_counts" => event_counts(game, &evs, v, &mut inner),
            other => inner.push(format!(
                "unknown key '{other}' (player, shows, hides, events, no_events, event_counts)"
            )),
        }
    }
    f.extend(
        inner
            .into_iter()
            .map(|m| format!("events_for player {}: {m}", viewer + 1)),
    );
}

fn events(game: &Game, evs: &[Event], v: &Value, want_present: bool, f: &mut Vec<String>) {
    let mut from = 0;
    for w in v.as_array().into_iter().flatten() {
        let pos = evs[from..].iter().position(|e| event_matches(game, e, w));
        match (pos, want_present) {
            (Some(i), true) => from += i + 1, // in order
            (None, true) => f.push(format!("events: expected {w} (in order), not found")),
            (Some(_), false) => f.push(format!("no_events: {w} happened")),
            (None, false) => {}
        }
        if !want_present {
            from = 0;
        }
    }
}

/// `event_counts: [{name, ..., count: n}]`: exactly n events of the whole log match.
fn event_counts(game: &Game, evs: &[Event], v: &Value, f: &mut Vec<String>) {
    for w in v.as_array().into_iter().flatten() {
        let Some(want) = w.get("count").and_then(Value::as_u64) else {
            f.push(format!("event_counts: {w} needs `count: n`"));
            continue;
        };
        let mut pattern = w.clone();
        if let Some(m) = pattern.as_object_mut() {
            m.remove("count");
        }
        let got = evs
            .iter()
            .filter(|ev| event_matches(game, ev, &pattern))
            .count();
        if got as u64 != want {
            f.push(format!(
                "event_counts: expected {want} of {pattern}, got {got}"
            ));
        }
    }
}

/// `validate_deck` scenarios: `expect: {deck_errors: [texts]}`; every text must be part of an
/// error and every error must contain one of the texts (`[]`: the deck is legal).
pub fn deck(errors: &[String], exp: Option<&Value>) -> Vec<String> {
    let mut f = Vec::new();
    let Some(map) = exp.and_then(Value::as_object) else {
        return vec!["a validate_deck scenario needs `expect: {deck_errors: [...]}`".into()];
    };
    for (key, v) in map {
        match key.as_str() {
            "deck_errors" => {
                let want: Vec<&str> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                for w in &want {
                    if !errors.iter().any(|e| e.contains(w)) {
                        f.push(format!(
                            "deck_errors: expected one containing '{w}', got {errors:?}"
                        ));
                    }
                }
                for e in errors {
                    if !want.iter().any(|w| e.contains(w)) {
                        f.push(format!("deck_errors: unexpected error '{e}'"));
                    }
                }
            }
            other => f.push(format!(
                "unknown expectation '{other}' for validate_deck (deck_errors)"
            )),
        }
    }
    f
}

/// Whether a ruleset data value of an event matches an expected value: a card by its id, a
/// player by seat (from 1), text, numbers and yes/no as themselves. (A card hidden from the
/// player whose log it is was left out of the data: `events_for`.)
fn val_matches(game: &Game, v: &Val, w: &Value) -> bool {
    match (v, w) {
        (Val::Card(c), Value::String(x)) => game.card_id(c.card) == *x,
        (Val::Str(s), Value::String(x)) => s == x,
        (Val::Int(i), Value::Number(n)) => Some(*i) == n.as_i64(),
        (Val::Bool(b), Value::Bool(x)) => b == x,
        (Val::Player(p), Value::Number(n)) => Some(p.player as u64 + 1) == n.as_u64(),
        _ => false,
    }
}

fn event_matches(game: &Game, e: &Event, w: &Value) -> bool {
    let zone_name = |z: Option<riffle_core::state::ZoneId>| {
        z.and_then(|z| {
            game.with_state(|st| {
                game.engine()
                    .manifest()
                    .zones
                    .get(st.zone(z).decl as usize)
                    .map(|d| d.name.clone())
            })
        })
    };
    w.as_object()
        .into_iter()
        .flatten()
        .all(|(k, v)| match k.as_str() {
            "name" => v.as_str() == Some(e.name.as_str()),
            // "?": a card hidden from the player whose log this is (`events_for`).
            "card" if v.as_str() == Some("?") => e.card.is_none(),
            "old" if v.as_str() == Some("?") => e.old.is_none(),
            "card" => e
                .card
                .is_some_and(|c| Some(game.card_id(c).as_str()) == v.as_str()),
            "reason" => e.reason.as_deref() == v.as_str(),
            "key" => e.key.as_deref() == v.as_str(),
            "player" => e.player.map(|p| p as u64 + 1) == v.as_u64(),
            "amount" => Some(e.amount) == v.as_i64(),
            "from" => zone_name(e.from).as_deref() == v.as_str(),
            "to" => zone_name(e.to).as_deref() == v.as_str(),
            "old" => e
                .old
                .is_some_and(|c| Some(game.card_id(c).as_str()) == v.as_str()),
            "from_player" => {
                e.from
                    .and_then(|z| game.with_state(|st| st.zone(z).owner))
                    .map(|p| p as u64 + 1)
                    == v.as_u64()
            }
            "to_player" => {
                e.to.and_then(|z| game.with_state(|st| st.zone(z).owner))
                    .map(|p| p as u64 + 1)
                    == v.as_u64()
            }
            // Anything else: a ruleset data field of the event (`message` of a log entry...).
            other => e
                .data
                .iter()
                .any(|(k, x)| k == other && val_matches(game, x, v)),
        })
}
