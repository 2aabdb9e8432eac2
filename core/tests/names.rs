//! Card names on a made-up game, "Relay", printed in Thai: the rules read each card's name in
//! the ruleset's printed language (`names.printed`), whatever other languages the card has;
//! names in other languages are for people (`Game::view_in`, `c:name_in`). The shape of the
//! manifest and helpers follows the "Sprint" game of `kernel.rs`.

mod common;

use std::rc::Rc;

use common::{engine_of, labels, pick, request_labels, with_names};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "relay", "name": {"th": "รีเลย์"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true}
  ],
  "categories": ["unit"],
  "names": {"printed": "th"},
  "characteristics": [
    {"name": "power", "kind": "int"},
    {"name": "names", "kind": "set", "field": "name"}
  ],
  "orientations": ["ready"],
  "events": ["probed"],
  "timings": ["main"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": true},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}]},
  "scripts": ["relay.lua"]
}"#;

/// Relay's one rule: a card cannot be played while a card with the same name is on its
/// player's board ("same name" is `c:has("names", name)`).
const RULES_LUA: &str = r#"
function setup(ctx) end

function main_actions(ctx)
  local out = {}
  local p = ctx.turn_player
  for _, c in ipairs(ctx:cards("hand", p)) do
    local taken = false
    for _, b in ipairs(ctx:cards("board", p)) do
      if b:has("names", c.name) then taken = true end
    end
    if not taken then
      out[#out + 1] = { label = "play " .. c.name, kind = "play", card = c,
        run = function(ctx, o) ctx:move(o.card, "board", { reason = "play" }) end }
    end
  end
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    out[#out + 1] = { label = "use " .. ab.source.name, kind = "activate", card = ab.source,
      run = function(ctx, o) activate(ctx:with{ source = ab.source }, ab, {}) end }
  end
  out[#out + 1] = { label = "end turn", kind = "end", ends_phase = true }
  return out
end

function activate(ctx, ab, args)
  ab.def.operate(ctx, args)
  return true
end

function validate_deck(deck) return {} end
"#;

/// Silver Knight, printed in Thai, with an English name for people.
const KNIGHT_TH: &str = "อัศวินเงิน";
/// Archer: another Thai name, but its English name is the same as the Knight's.
const ARCHER_TH: &str = "นักธนู";
/// The observer: a Thai name only.
const OBSERVER_TH: &str = "ผู้สังเกตการณ์";
const SENTRY_TH: &str = "ยามเฝ้า";
const TOWER_TH: &str = "หอคอย";

/// Reads names every way a script can and reports them in a `probed` event.
const PROBE: &str = r#"return { { kind = "activated", timing = "main",
  operate = function(ctx)
    local knight = ctx:cards("board", ctx.player)[1]
    local me = ctx.source
    local parts = {
      knight.name,
      tostring(knight:has("names", "อัศวินเงิน")),
      tostring(knight:has("names", "Silver Knight")),
      knight:name_in("en"),
      knight:name_in("ja"),
      me:name_in("en"),
      card_info("R-03").name,
      card_info("R-02").name,
      knight.names[1],
    }
    ctx:emit("probed", { text = table.concat(parts, "|") })
  end } }"#;

/// Triggers when another card enters its player's board.
const WATCH: &str = r#"return { { kind = "triggered", on = "moved", zones = {"board"},
   when = function(ctx, ev) return ev.to == "board" and ev.card ~= ctx.source end,
   operate = function(ctx) end } }"#;

fn card(id: &str, names: &[(&str, &str)], script: Option<&str>) -> CardDef {
    with_names(
        common::card(id, "unit", serde_json::json!({ "power": 1 }), script),
        names,
    )
}

fn cards() -> Vec<CardDef> {
    vec![
        card("R-01", &[("th", KNIGHT_TH), ("en", "Silver Knight")], None),
        // Another card id with the same Thai name, and nothing but Thai.
        card("R-02", &[("th", KNIGHT_TH)], None),
        card("R-03", &[("th", ARCHER_TH), ("en", "Silver Knight")], None),
        card("R-04", &[("th", OBSERVER_TH)], Some(PROBE)),
        card("R-05", &[("en", "Sentry"), ("th", SENTRY_TH)], Some(WATCH)),
        card("R-06", &[("th", TOWER_TH)], Some(WATCH)),
    ]
}

fn content_with(cards: Vec<CardDef>, tweak: impl FnOnce(&mut serde_json::Value)) -> Content {
    common::content(MANIFEST, tweak, &[("relay.lua", RULES_LUA)], cards)
}

fn engine() -> Rc<Engine> {
    engine_of(&content_with(cards(), |_| {}))
}

/// Errors of content that must not load, as lines.
fn refused(c: Content) -> Vec<String> {
    match Engine::new(&c) {
        Ok(_) => panic!("should be refused"),
        Err(es) => es.iter().map(|e| e.to_string()).collect(),
    }
}

/// Player 1's main phase with these cards on the board and in hand.
fn position(board: &[&str], hand: &[&str]) -> Game {
    let mut b = Builder::new(engine(), 2, 1).unwrap();
    for p in 0..2 {
        for _ in 0..3 {
            b.place(p, "deck", "R-02", &Place::default()).unwrap();
        }
    }
    for c in board {
        b.place(0, "board", c, &Place::default()).unwrap();
    }
    for c in hand {
        b.place(0, "hand", c, &Place::default()).unwrap();
    }
    b.start(1, 0, "main").unwrap()
}

/// Names of player 1's cards in `zone` as a view shows them.
fn names_in(v: &PlayerView, zone: &str) -> Vec<Option<String>> {
    v.zones
        .iter()
        .find(|z| z.name == zone && z.owner == Some(0))
        .expect("zone")
        .cards
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn same_name_is_the_printed_thai_name() {
    // The Knight is on the board. The other Knight (R-02, Thai only) has the same Thai name:
    // it may not be played. The Archer's English name is the Knight's, but its Thai name is
    // not: the rules do not read English, so it may be played.
    let g = position(&["R-01"], &["R-02", "R-03"]);
    assert_eq!(
        labels(&g),
        [format!("play {ARCHER_TH}"), "end turn".to_string()]
    );
    // With the board empty, both are offered, each under its Thai name.
    let g = position(&[], &["R-02", "R-03"]);
    assert_eq!(
        labels(&g),
        [
            format!("play {KNIGHT_TH}"),
            format!("play {ARCHER_TH}"),
            "end turn".to_string()
        ]
    );
}

#[test]
fn scripts_read_the_printed_name_and_may_ask_for_another_language() {
    let mut g = position(&["R-01", "R-04"], &[]);
    pick(&mut g, &format!("use {OBSERVER_TH}"));
    let text = g
        .log()
        .iter()
        .find_map(|e| match e {
            Entry::Event(ev) if ev.name == "probed" => {
                ev.data.iter().find_map(|(k, v)| match (k.as_str(), v) {
                    ("text", values::Val::Str(s)) => Some(s.clone()),
                    _ => None,
                })
            }
            _ => None,
        })
        .expect("a probed event");
    let parts: Vec<&str> = text.split('|').collect();
    assert_eq!(
        parts,
        [
            KNIGHT_TH,       // card.name: the rules name, in Thai
            "true",          // has("names", <Thai>)
            "false",         // has("names", <English>): English is not a rules name
            "Silver Knight", // name_in("en")
            KNIGHT_TH,       // name_in("ja"): none, so the printed name
            OBSERVER_TH,     // a Thai-only card has no English name: the printed one
            ARCHER_TH,       // card_info(id).name
            KNIGHT_TH,       // card_info of a Thai-only card
            KNIGHT_TH,       // the `names` characteristic
        ]
    );
}

#[test]
fn views_show_printed_names_unless_asked_for_a_language() {
    let g = position(&["R-01", "R-04"], &["R-03"]);
    let printed = g.view(0);
    assert_eq!(
        names_in(&printed, "board"),
        [Some(KNIGHT_TH.to_string()), Some(OBSERVER_TH.to_string())]
    );
    let english = g.view_in(0, "en");
    assert_eq!(
        names_in(&english, "board"),
        [
            Some("Silver Knight".to_string()),
            Some(OBSERVER_TH.to_string()) // no English name: the printed one
        ]
    );
    assert_eq!(
        names_in(&english, "hand"),
        [Some("Silver Knight".to_string())]
    );
    // Asking for the printed language is the plain view.
    assert_eq!(g.view_in(0, "th"), printed);
    // Hidden cards have no name in any language.
    let theirs = g.view_in(1, "en");
    assert_eq!(names_in(&theirs, "hand"), [None]);
    // Labels written by the ruleset are its own text, but the name of the option's own card
    // in it is shown in the view's language (the observer has no English name).
    let printed_labels = labels(&g);
    let english_labels = request_labels(english.request.as_ref());
    assert_eq!(
        english_labels[0], "play Silver Knight",
        "{printed_labels:?}"
    );
    assert_eq!(english_labels[1..], printed_labels[1..]);
    assert_ne!(english_labels[0], printed_labels[0]);
}

#[test]
fn trigger_order_labels_use_the_printed_name_and_views_translate_them() {
    let mut g = position(&["R-05", "R-06"], &["R-03"]);
    pick(&mut g, &format!("play {ARCHER_TH}"));
    assert_eq!(g.request().unwrap().prompt(), "order_triggers");
    let mut printed = labels(&g);
    printed.sort();
    assert_eq!(
        printed,
        [
            format!("{SENTRY_TH} (moved)"),
            format!("{TOWER_TH} (moved)")
        ]
    );
    let mut english = request_labels(g.view_in(0, "en").request.as_ref());
    english.sort();
    assert_eq!(
        english,
        ["Sentry (moved)".to_string(), format!("{TOWER_TH} (moved)")]
    );
    // The plain view shows the request as it is, and the game's log records it in Thai
    // whatever language clients read: a client's language never changes the game.
    assert_eq!(g.view(0).request.as_ref(), g.request());
    pick(&mut g, &format!("{SENTRY_TH} (moved)"));
    let logged: Vec<String> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Decision {
                request: Request::Choose {
                    prompt, options, ..
                },
                ..
            } if prompt == "order_triggers" => Some(options.iter().map(|o| o.label.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(
        logged.contains(&format!("{SENTRY_TH} (moved)")),
        "{logged:?}"
    );
    assert!(!logged.iter().any(|l| l.contains("Sentry")), "{logged:?}");
}

#[test]
fn a_card_without_the_printed_language_is_refused() {
    let mut cs = cards();
    cs.push(card("R-09", &[("en", "Stray Dog")], None));
    cs.push(card("R-10", &[("th", "  "), ("en", "Blank")], None));
    let errors = refused(content_with(cs, |_| {}));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        errors[0],
        "it has no `th` name (only en): this game's cards are named for the rules in `th` \
         (the ruleset's `names.printed`); add `th: <the printed name>` under `name` (card R-09)"
    );
    assert!(
        errors[1].starts_with("its `th` name is blank:") && errors[1].ends_with("(card R-10)"),
        "{errors:?}"
    );
}

#[test]
fn the_printed_language_defaults_to_english() {
    // Without `names`, the rules read English names: the Thai-only cards are refused...
    let without = |m: &mut serde_json::Value| {
        m.as_object_mut().unwrap().remove("names");
    };
    let errors = refused(content_with(cards(), without));
    assert_eq!(errors.len(), 3, "{errors:?}");
    for (e, id) in errors.iter().zip(["R-02", "R-04", "R-06"]) {
        assert!(
            e.starts_with("it has no `en` name (only th)") && e.ends_with(&format!("(card {id})")),
            "{e}"
        );
    }
    // ...and the bilingual ones are known by their English names.
    let bilingual: Vec<CardDef> = cards()
        .into_iter()
        .filter(|c| c.name.contains_key("en"))
        .collect();
    let e = Engine::new(&content_with(bilingual, without)).expect("loads");
    let mut b = Builder::new(e, 2, 1).unwrap();
    b.place(0, "board", "R-01", &Place::default()).unwrap();
    b.place(0, "hand", "R-03", &Place::default()).unwrap();
    let g = b.start(1, 0, "main").unwrap();
    // Now the Archer is "Silver Knight" too, the same name as the Knight on the board.
    assert_eq!(labels(&g), ["end turn"]);
    assert_eq!(
        names_in(&g.view(0), "board"),
        [Some("Silver Knight".to_string())]
    );
    assert_eq!(
        names_in(&g.view_in(0, "th"), "board"),
        [Some(KNIGHT_TH.to_string())]
    );
}

#[test]
fn the_printed_language_must_be_a_language_tag() {
    for bad in ["", "-th", "thai language"] {
        let errors = refused(content_with(cards(), |m| {
            m["names"]["printed"] = serde_json::json!(bad)
        }));
        assert!(
            errors
                .iter()
                .any(|e| e.contains(&format!("names.printed: '{bad}' is not a language tag"))),
            "{bad:?}: {errors:?}"
        );
    }
}
