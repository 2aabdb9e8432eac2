//! What the kernel tests share. Each test file describes its own made-up game (an inline
//! manifest, rules in Lua, a few cards); these build it, start it and answer its requests by
//! label.

// Each test file is its own crate and uses only a part of this.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::rc::Rc;

use riffle_core::*;

/// Rules for `BOARD_GAME` whose only actions are the turn player's activated `main`
/// abilities and "end turn" (the card read tests share it).
pub const BOARD_ACTIVATE_RULES: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local out = {}
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = ctx.turn_player }) do
    out[#out + 1] = { label = "use " .. ab.source.name, run = function(ctx)
      activate(ctx:with{ source = ab.source }, ab, {})
    end }
  end
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// The manifest of a made-up game the hot reload and card loading tests share: each player
/// has a board (in play, where the decks are put), one timing (`main`), one event (`said`),
/// one phase whose actions `main_actions` lists; the rules' script is `board.lua` (each test
/// file writes its own).
pub const BOARD_GAME: &str = r#"{
  "game": "board", "name": {"en": "Board"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true}
  ],
  "categories": ["unit"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "events": ["said"],
  "timings": ["main"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}]},
  "scripts": ["board.lua"]
}"#;

/// A card with an English name equal to its id, the printed `fields` (a JSON object, e.g.
/// `json!({"power": 2})`) and an optional script (named `cards/<id>.lua` in errors).
pub fn card(id: &str, category: &str, fields: serde_json::Value, script: Option<&str>) -> CardDef {
    let fields: BTreeMap<String, serde_json::Value> = match fields {
        serde_json::Value::Object(m) => m.into_iter().collect(),
        serde_json::Value::Null => BTreeMap::new(),
        other => panic!("card {id}: fields must be a JSON object, not {other}"),
    };
    CardDef {
        id: id.into(),
        category: category.into(),
        name: [("en".to_string(), id.to_string())].into(),
        text: Localized::new(),
        fields: fields.into(),
        keywords: Vec::new(),
        script: script.map(|s| Source {
            name: format!("cards/{id}.lua"),
            text: s.into(),
        }),
    }
}

/// The card with these plain keywords.
pub fn with_keywords(mut c: CardDef, keywords: &[&str]) -> CardDef {
    c.keywords = keywords
        .iter()
        .map(|k| KeywordUse::Plain(k.to_string()))
        .collect();
    c
}

/// The card with these names (language, name) instead of its id in English.
pub fn with_names(mut c: CardDef, names: &[(&str, &str)]) -> CardDef {
    c.name = names
        .iter()
        .map(|(l, n)| (l.to_string(), n.to_string()))
        .collect();
    c
}

/// Content from a manifest in JSON (changed by `tweak` first), the rules' script files
/// (name, text) and cards.
pub fn content(
    manifest: &str,
    tweak: impl FnOnce(&mut serde_json::Value),
    scripts: &[(&str, &str)],
    cards: Vec<CardDef>,
) -> Content {
    let mut raw: serde_json::Value = serde_json::from_str(manifest).expect("manifest JSON");
    tweak(&mut raw);
    let manifest: RulesetManifest = serde_json::from_value(raw).expect("manifest fields");
    Content {
        ruleset: Ruleset {
            manifest,
            scripts: scripts
                .iter()
                .map(|(name, text)| Source {
                    name: name.to_string(),
                    text: text.to_string(),
                })
                .collect(),
        },
        cards,
        libraries: Vec::new(),
    }
}

/// The engine for this content; a load error fails the test, every error listed.
pub fn engine_of(c: &Content) -> Rc<Engine> {
    match Engine::new(c) {
        Ok(e) => e,
        Err(es) => panic!("{}", joined(&es)),
    }
}

/// The load errors of content that must not load, one per line.
pub fn load_errors(c: &Content) -> String {
    match Engine::new(c) {
        Ok(_) => panic!("the content loaded"),
        Err(es) => joined(&es),
    }
}

fn joined(es: &[LoadError]) -> String {
    es.iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A deck list with one section.
pub fn deck(section: &str, cards: &[(&str, u32)]) -> DeckList {
    let mut d = DeckList::default();
    d.sections.insert(
        section.into(),
        cards.iter().map(|(c, n)| (c.to_string(), *n)).collect(),
    );
    d
}

/// A game from deck lists with the options' defaults, its log kept.
pub fn new_game(e: &Rc<Engine>, seed: u64, decks: Vec<DeckList>) -> Game {
    Game::new(
        e.clone(),
        GameConfig {
            seed,
            decks,
            keep_log: true,
        },
    )
    .expect("game starts")
}

/// The labels of the options of the pending choice (none for a number or no request).
pub fn labels(g: &Game) -> Vec<String> {
    request_labels(g.request())
}

/// The labels of a request's options (a view's request too).
pub fn request_labels(req: Option<&Request>) -> Vec<String> {
    match req {
        Some(Request::Choose { options, .. }) => options.iter().map(|o| o.label.clone()).collect(),
        _ => Vec::new(),
    }
}

/// Answers the pending choice with the first option labelled `label`, or else the first
/// whose label starts with it; fails the test, listing the labels, when there is none.
pub fn pick(g: &mut Game, label: &str) {
    let all = labels(g);
    let i = all
        .iter()
        .position(|l| l == label)
        .or_else(|| all.iter().position(|l| l.starts_with(label)))
        .unwrap_or_else(|| panic!("no option '{label}' in {all:?} ({:?})", g.request()));
    let player = g.request().expect("a request").player();
    g.respond(
        player,
        Response::Choose {
            indices: vec![i as u32],
        },
    )
    .unwrap_or_else(|e| panic!("'{label}' refused: {e}"));
}

/// The `said` events (a made-up game's event that scripts emit with a key and an amount)
/// logged since entry `from`: (key, amount).
pub fn said(g: &Game, from: usize) -> Vec<(String, i64)> {
    g.log()[from..]
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "said" => {
                Some((e.key.clone().unwrap_or_default(), e.amount))
            }
            _ => None,
        })
        .collect()
}
