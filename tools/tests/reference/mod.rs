//! Each game's reference of names (`docs/reference/<game>.md`) is what the code generates,
//! and the rulesets declare what their games really use: every prompt asked and option
//! offered in the scenarios and in seeded games is declared, every declared prompt, option
//! and event (with each of its fields) is used.

use std::path::PathBuf;

use riffle::reference::usage::Usage;
use riffle::reference::{games_with_rulesets, manifest_of, stale_references};
use riffle::scenario::{File, discover};
use riffle_core::{Engine, Game, GameConfig, Response};

use crate::common::{Fixture, game_content, repo, seeded_game, seeded_game_of};

#[test]
fn references_are_fresh() {
    let root = repo();
    let games = games_with_rulesets(&root);
    assert!(games.contains(&"onepiece".to_string()), "{games:?}");
    let stale = stale_references(&root, &games).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
    assert!(
        stale.is_empty(),
        "{} out of date with game.yaml or the kernel's tables: run `cargo run -p riffle -- docs --write`",
        names.join(", ")
    );
}

#[test]
fn riffle_docs_prints_checks_and_writes_a_reference() {
    let f = Fixture::mini();
    let riffle = |args: &[&str]| f.riffle(args);
    let printed = riffle(&["docs", "--game", "mini"]);
    assert!(printed.status.success(), "{printed:?}");
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    assert!(
        text.starts_with("# Mini: names for scripts and scenarios\n"),
        "{text}"
    );
    assert!(text.contains("| `played` | "), "its event: {text}");
    assert!(
        text.contains("| `repair` | Repair N. |"),
        "its keywords: {text}"
    );
    let check = riffle(&["docs", "--check"]);
    assert_eq!(check.status.code(), Some(1), "none written yet: {check:?}");
    assert!(
        String::from_utf8_lossy(&check.stderr).contains("cargo run -p riffle -- docs --write"),
        "it says what fixes it: {check:?}"
    );
    let write = riffle(&["docs", "--write"]);
    assert!(write.status.success(), "{write:?}");
    let written = std::fs::read_to_string(f.path("docs/reference/mini.md")).unwrap();
    assert_eq!(written, text);
    assert_eq!(riffle(&["docs", "--check"]).status.code(), Some(0));
    let unknown = riffle(&["docs", "--game", "nope"]);
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
}

/// 30 seeded games of random agents over the sample decks.
fn seeded_games(engine: &std::rc::Rc<Engine>, decks: &[riffle_core::DeckList]) -> Vec<Game> {
    (1..=30u64)
        .map(|seed| seeded_game(engine, decks, seed, true, false).0)
        .collect()
}

/// What `game`'s scenarios and `games` use, against what its `game.yaml` declares.
fn declared_and_used(
    game: &str,
    // The fewest scenario files the game has: a check that they were found.
    min_files: usize,
    games: impl FnOnce(&std::rc::Rc<Engine>, &[riffle_core::DeckList]) -> Vec<Game>,
) {
    let root = repo();
    let (content, decks) = game_content(std::slice::from_ref(&root), game);
    let manifest = content.ruleset.manifest.clone();
    let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
    let mut usage = Usage::new();
    let files: Vec<PathBuf> = discover(&root, game);
    assert!(files.len() >= min_files, "{} scenario files", files.len());
    for path in &files {
        let file = File::read(path).unwrap_or_else(|e| panic!("{e:?}"));
        file.run_observed(&engine, None, &mut |g| usage.observe(g));
    }
    for g in games(&engine, &decks) {
        usage.observe(&g);
    }
    let problems = usage.problems(&manifest);
    assert!(
        problems.is_empty(),
        "scripts/{game}/game.yaml and what its scenarios and games do differ:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_one_piece_ruleset_declares_every_prompt_option_and_event_its_games_use() {
    declared_and_used("onepiece", 100, seeded_games);
}

#[test]
fn the_gundam_ruleset_declares_every_prompt_option_and_event_its_games_use() {
    // Ten seeded games of each format, their logs kept.
    declared_and_used("gundam", 100, |engine, decks| {
        let mut out = Vec::new();
        for (n, m) in [(2, "standard"), (4, "battle-royal"), (4, "team")] {
            let opts: riffle_core::Options = [(
                "mode".to_string(),
                riffle_core::OptionValue::Name(m.to_string()),
            )]
            .into();
            for seed in 1..=10u64 {
                out.push(seeded_game_of(engine, decks, seed, n, &opts, false, true).0);
            }
        }
        out
    });
}

#[test]
fn the_summoner_master_ruleset_declares_every_prompt_option_and_event_its_games_use() {
    // Ten seeded games at each play level, their logs kept.
    declared_and_used("summoner-master", 20, |engine, decks| {
        let mut out = Vec::new();
        for l in ["caller", "summoner", "beginner"] {
            let opts: riffle_core::Options = [(
                "level".to_string(),
                riffle_core::OptionValue::Name(l.to_string()),
            )]
            .into();
            for seed in 1..=10u64 {
                out.push(seeded_game_of(engine, decks, seed, 2, &opts, false, true).0);
            }
        }
        out
    });
}

/// The mini game with declared prompts and a documented event, and rules that ask an
/// undeclared prompt, offer an undeclared option kind and never emit a declared field.
fn drifted_mini() -> Fixture {
    let f = Fixture::mini();
    let yaml = std::fs::read_to_string(f.path("scripts/mini/game.yaml")).unwrap();
    let yaml = yaml.replace(
        "events: [played]\n",
        "events:\n  - {name: played, doc: a card was played, fields: {card: the card, size: how big}}\n\
         prompts:\n  - {name: main, doc: the main phase, options: [{kind: end, label: end}]}\n  - {name: unused, doc: never asked}\n",
    );
    f.write("scripts/mini/game.yaml", &yaml);
    f.write(
        "scripts/mini/rules.lua",
        r#"-- The mini game's procedures, drifted from their declarations.
function setup(ctx) ctx:yes_no(1, "ready") end
function main_actions(ctx)
  return {
    { label = "wave", kind = "wave", run = function(ctx) ctx:emit("played", { card = ctx:cards("leader", ctx.player)[1] }) end },
    { label = "end", kind = "end", ends_phase = true },
  }
end
function activate(ctx, ability, args) return true end
function validate_deck(deck) return {} end
"#,
    );
    f
}

#[test]
fn the_usage_check_names_what_drifted_from_the_declarations() {
    let f = drifted_mini();
    let roots = [f.dir.clone()];
    let manifest = manifest_of(&roots, "mini").unwrap_or_else(|e| panic!("{e}"));
    let loaded = riffle_content::load_game(&roots, "mini")
        .into_result()
        .unwrap_or_else(|d| panic!("{d:?}"));
    let engine = Engine::new(&loaded.content).unwrap_or_else(|e| panic!("{e:?}"));
    let deck = loaded.decks[0].list.clone();
    let mut g = Game::new(
        engine,
        GameConfig {
            seed: 1,
            decks: vec![deck.clone(), deck],
            keep_log: true,
        },
    )
    .unwrap();
    // "ready": yes; then "wave" in the main phase, and the request after it stays pending.
    for _ in 0..2 {
        let p = g.request().expect("a request").player();
        g.respond(p, Response::Choose { indices: vec![0] }).unwrap();
    }
    let mut usage = Usage::new();
    usage.observe(&g);
    let problems = usage.problems(&manifest);
    let expected = [
        "prompt 'main': option kind 'wave' (labels: wave) is not declared",
        "prompt 'ready' was asked (options of kinds: no, yes) but is not declared",
        "prompt 'unused' is declared in game.yaml `prompts` but no scenario or game asked it",
        "event 'played': field 'size' is declared but was never emitted",
    ];
    for want in expected {
        assert!(
            problems.iter().any(|p| p.starts_with(want)),
            "{want}\n{problems:#?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
}
