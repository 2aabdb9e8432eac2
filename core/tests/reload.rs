//! Hot reload on a made-up game (`common::BOARD_GAME`): an engine with changed cards is made
//! from a running one (`Engine::reload`), and games move to it at their next quiescent
//! decision (`Game::follow_reloads`), logging each change.
//!
//! Each player has a board (in play). Every activated ability on the turn player's board is
//! offered as "use <name>"; "show" says each board card's power. A "bench" unit's
//! ability asks its player to pick a word before it speaks (a script suspended mid-effect).

mod common;

use common::{card, deck, engine_of, labels, new_game, pick, said};
use riffle_core::*;

const RULES_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    out[#out + 1] = { label = "use " .. ab.source.name, run = function(ctx)
      activate(ctx:with{ source = ab.source }, ab, {})
    end }
  end
  out[#out + 1] = { label = "show", run = function(ctx)
    for _, c in ipairs(ctx:cards("board", p)) do
      ctx:emit("said", { key = c.name, amount = c.power })
    end
  end }
  out[#out + 1] = { label = "ids", run = function(ctx)
    ctx:emit("said", { key = table.concat(card_ids(), ","), amount = 0 })
  end }
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// A unit whose activated ability says `word`.
fn speaker(id: &str, power: i64, word: &str) -> CardDef {
    let script = format!(
        r#"return {{ {{ kind = "activated", timing = "main",
          operate = function(ctx) ctx:emit("said", {{ key = "{word}", amount = 1 }}) end }} }}"#
    );
    card(
        id,
        "unit",
        serde_json::json!({ "power": power }),
        Some(&script),
    )
}

/// A unit whose ability asks its player for a word (`a` or `b`), then says `prefix` and it.
fn bench(prefix: &str) -> CardDef {
    let script = format!(
        r#"return {{ {{ kind = "activated", timing = "main",
          operate = function(ctx)
            local w = ctx:choose(ctx.player, {{ {{ label = "a" }}, {{ label = "b" }} }})
            ctx:emit("said", {{ key = "{prefix} " .. w.label, amount = 1 }})
          end }} }}"#
    );
    card(
        "bench",
        "unit",
        serde_json::json!({ "power": 1 }),
        Some(&script),
    )
}

fn engine() -> std::rc::Rc<Engine> {
    engine_of(&common::content(
        common::BOARD_GAME,
        |_| {},
        &[("board.lua", RULES_LUA)],
        vec![
            speaker("smith", 3, "clang"),
            bench("bench says"),
            speaker("spare", 1, "hm"),
        ],
    ))
}

fn game(e: &std::rc::Rc<Engine>) -> Game {
    let d = deck("board", &[("smith", 1), ("bench", 1)]);
    new_game(e, 1, vec![d.clone(), d])
}

/// Picks `label` and returns the `said` events it made: (key, amount).
fn run(g: &mut Game, label: &str) -> Vec<(String, i64)> {
    let from = g.log().len();
    pick(g, label);
    said(g, from)
}

fn reloads(g: &Game) -> Vec<(String, String, bool)> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::CardReloaded {
                card,
                version,
                removed,
            } => Some((card.clone(), version.clone(), *removed)),
            _ => None,
        })
        .collect()
}

fn set(def: CardDef, version: &str) -> CardChange {
    CardChange::Set {
        def,
        version: version.into(),
    }
}

fn said_pairs(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn a_changed_card_on_the_board_plays_its_new_version_from_the_next_decision() {
    let e = engine();
    let mut g = game(&e);
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("clang", 1)]));
    let e2 = e
        .reload(&[set(speaker("smith", 5, "CLANG"), "v2")])
        .expect("reloads");
    assert!(g.follow_reloads(), "the game waits at a quiescent decision");
    assert!(std::rc::Rc::ptr_eq(g.engine(), &e2));
    assert_eq!(reloads(&g), [("smith".into(), "v2".into(), false)]);
    // The card already on the board: its ability and its printed power are the new ones.
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("CLANG", 1)]));
    assert_eq!(
        run(&mut g, "show"),
        said_pairs(&[("bench", 1), ("smith", 5)])
    );
    // The engine a game came from is unchanged for the content it was made of.
    assert_eq!(e.reloaded(), []);
    assert_eq!(e2.reloaded().len(), 1);
}

#[test]
fn a_change_that_adds_an_ability_is_offered_at_the_decision_the_game_waits_at() {
    let e = engine();
    let mut g = game(&e);
    let plain = card("smith", "unit", serde_json::json!({ "power": 3 }), None);
    let e2 = e.reload(&[set(plain, "v2")]).expect("reloads");
    g.follow_reloads();
    assert!(
        !labels(&g).contains(&"use smith".to_string()),
        "the decision is asked again with the new cards: {:?}",
        labels(&g)
    );
    e2.reload(&[set(speaker("smith", 3, "back"), "v3")])
        .expect("reloads");
    g.follow_reloads();
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("back", 1)]));
    assert_eq!(
        reloads(&g),
        [
            ("smith".into(), "v2".into(), false),
            ("smith".into(), "v3".into(), false)
        ]
    );
}

#[test]
fn a_broken_change_is_refused_with_the_cards_file_and_line_and_nothing_changes() {
    let e = engine();
    let mut g = game(&e);
    let mut broken = speaker("smith", 3, "x");
    broken.script.as_mut().unwrap().text = "return {\n  { kind = \"activated\", timing = \"main\",\n    operate = function(ctx) sya(ctx) end }\n}\n".into();
    let errors = e.reload(&[set(broken, "bad")]).err().expect("refused");
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("cards/smith.lua:3:") && t.contains("(card smith)")),
        "{text:?}"
    );
    let mut syntax = speaker("smith", 3, "x");
    syntax.script.as_mut().unwrap().text = "return {\n  {\n".into();
    let errors = e.reload(&[set(syntax, "bad")]).err().expect("refused");
    assert!(
        errors[0].to_string().contains("cards/smith.lua"),
        "{errors:?}"
    );
    // Nothing moved: no successor, the game plays the old version.
    assert!(!g.follow_reloads());
    assert!(std::rc::Rc::ptr_eq(&e.latest(), &e));
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("clang", 1)]));
}

#[test]
fn a_script_suspended_in_an_effect_finishes_with_the_version_it_started_with() {
    let e = engine();
    let mut g = game(&e);
    pick(&mut g, "use bench");
    assert_eq!(labels(&g), ["a", "b"], "the bench's ability asks");
    assert!(!g.quiescent());
    e.reload(&[set(bench("new bench says"), "v2")])
        .expect("reloads");
    assert!(!g.follow_reloads(), "not while a script is suspended");
    let from = g.log().len();
    pick(&mut g, "b");
    assert_eq!(said(&g, from), said_pairs(&[("bench says b", 1)]));
    // The answer brought the game to a quiescent decision: it moved there.
    assert_eq!(reloads(&g), [("bench".into(), "v2".into(), false)]);
    pick(&mut g, "use bench");
    assert_eq!(run(&mut g, "a"), said_pairs(&[("new bench says a", 1)]));
}

#[test]
fn a_removed_card_stays_in_games_that_hold_it_and_new_games_cannot_use_it() {
    let e = engine();
    let mut g = game(&e);
    assert_eq!(run(&mut g, "ids"), said_pairs(&[("bench,smith,spare", 0)]));
    let e2 = e
        .reload(&[CardChange::Remove { id: "smith".into() }])
        .expect("reloads");
    g.follow_reloads();
    assert_eq!(reloads(&g), [("smith".into(), String::new(), true)]);
    assert_eq!(run(&mut g, "ids"), said_pairs(&[("bench,spare", 0)]));
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("clang", 1)]));
    assert!(!e2.has_card("smith"));
    assert_eq!(e2.card_ids().collect::<Vec<_>>(), ["bench", "spare"]);
    let d = deck("board", &[("smith", 1)]);
    let err = Game::new(
        e2.clone(),
        GameConfig {
            seed: 1,
            decks: vec![d.clone(), d],
            keep_log: true,
        },
    )
    .err()
    .expect("no smith any more");
    assert!(err.to_string().contains("no card 'smith'"), "{err}");
    // Added back, it takes its old place: the game's object plays the new version.
    e2.reload(&[set(speaker("smith", 3, "again"), "v3")])
        .expect("reloads");
    g.follow_reloads();
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("again", 1)]));
    assert_eq!(e.latest().card_ids().count(), 3);
}

#[test]
fn an_added_card_can_be_used_by_new_games() {
    let e = engine();
    let e2 = e
        .reload(&[set(speaker("tinker", 2, "tick"), "v1")])
        .expect("reloads");
    let d = deck("board", &[("tinker", 1)]);
    let mut g = new_game(&e2, 3, vec![d.clone(), d]);
    assert_eq!(run(&mut g, "use tinker"), said_pairs(&[("tick", 1)]));
}

#[test]
fn two_games_of_one_chain_each_play_their_own_engines_cards() {
    let e = engine();
    let mut old = game(&e);
    pick(&mut old, "use bench");
    e.reload(&[set(speaker("smith", 3, "new"), "v2")])
        .expect("reloads");
    let mut new = game(&e.latest());
    // Interleaved: the new engine's game, then the old engine's suspended script.
    assert_eq!(run(&mut new, "use smith"), said_pairs(&[("new", 1)]));
    let from = old.log().len();
    pick(&mut old, "a");
    assert_eq!(said(&old, from), said_pairs(&[("bench says a", 1)]));
    assert_eq!(run(&mut old, "use smith"), said_pairs(&[("new", 1)]));
}

#[test]
fn the_same_reloads_at_the_same_decisions_give_the_same_log_and_forks_follow() {
    let play = || {
        let e = engine();
        let mut g = game(&e);
        pick(&mut g, "use smith");
        let before = g.fork();
        e.reload(&[set(speaker("smith", 4, "v2"), "h2")])
            .expect("reloads");
        g.follow_reloads();
        pick(&mut g, "use smith");
        pick(&mut g, "end turn");
        (g.log_hash(), before)
    };
    let (a, mut fork) = play();
    let (b, _) = play();
    assert_eq!(a, b);
    // A fork made before the reload moves at its next answer.
    let from = fork.log().len();
    pick(&mut fork, "use smith");
    assert_eq!(said(&fork, from), said_pairs(&[("clang", 1)]));
    assert_eq!(run(&mut fork, "use smith"), said_pairs(&[("v2", 1)]));
}

#[test]
fn a_hostile_reload_is_refused_like_a_hostile_load_and_nothing_changes() {
    let e = engine();
    let mut g = game(&e);
    let hostile = |text: &str| {
        let mut c = speaker("smith", 3, "x");
        c.script.as_mut().unwrap().text = text.into();
        set(c, "bad")
    };
    // A script that never ends at load is stopped by the work budget.
    let errors = e
        .reload(&[hostile("while true do end\nreturn {}")])
        .err()
        .expect("refused");
    assert!(
        errors.iter().all(|e| e.card.as_deref() == Some("smith")),
        "{errors:?}"
    );
    // Shared tables are frozen: a card cannot change what another card or the rules see.
    let errors = e
        .reload(&[hostile("string.upper = nil\nreturn {}")])
        .err()
        .expect("refused");
    assert!(
        errors
            .iter()
            .any(|e| e.to_string().contains("cards/smith.lua:1")
                && e.to_string().contains("readonly")),
        "{errors:?}"
    );
    // Memory: a load that grows without end is stopped by the allowance.
    let errors = e
        .reload(&[hostile(
            "local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 100) end\nreturn {}",
        )])
        .err()
        .expect("refused");
    assert!(!errors.is_empty());
    assert!(!g.follow_reloads());
    assert_eq!(run(&mut g, "use smith"), said_pairs(&[("clang", 1)]));
}
