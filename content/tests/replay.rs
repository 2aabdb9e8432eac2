//! Replays through the library (`riffle_content::replay`, docs/replays.md): a game with a
//! concession in a multiplayer game records and plays again the same; a response the
//! recording never had parts at its step.

use std::path::PathBuf;

use riffle_content::replay::{Act, Header, Replay};
use riffle_content::{LoadOptions, Loader};
use riffle_core::{Engine, Game, GameConfig, OptionValue, Options, Rng};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Gundam's 4-player battle royal: player 2 concedes at the 30th decision, the others play on.
#[test]
fn a_concession_records_and_plays_again() {
    let loaded = Loader::new(vec![root()])
        .load_valid("gundam", LoadOptions::default())
        .expect("valid content");
    let engine = Engine::new(&loaded.content).expect("engine");
    let decks: Vec<_> = (0..4)
        .map(|i| loaded.decks[i % loaded.decks.len()].list.clone())
        .collect();
    let options: Options = [("mode".to_string(), OptionValue::Name("battle-royal".into()))].into();
    let config = GameConfig {
        seed: 11,
        decks: decks.clone(),
        keep_log: true,
    };
    let mut game = Game::with_options(engine.clone(), config, &options).expect("a game");
    let mut rng = Rng::new(11);
    let mut n = 0;
    while let Some(req) = game.request().cloned() {
        n += 1;
        if n == 30 {
            game.concede(1).expect("a seat");
            continue;
        }
        game.respond(req.player(), req.random_legal(&mut rng))
            .expect("legal");
        assert!(n < 100_000, "the game ends");
    }
    let header = Header::new("gundam", &loaded.manifest, 11, decks, options);
    let recorded = Replay::of_game(header, &game).expect("recorded");
    let concessions: Vec<_> = recorded
        .steps
        .iter()
        .filter(|s| s.act == Act::Concede(true))
        .map(|s| s.player)
        .collect();
    assert_eq!(concessions, [2]);
    // Through the file's text and back.
    let text = recorded.to_text();
    let read = Replay::parse(&text, "g.replay").expect("parses");
    assert_eq!(read.steps, recorded.steps);
    let again = read.rerun(engine.clone(), None).expect("starts");
    assert_eq!(again.diverged, None);
    assert_eq!(again.game.log_hash(), game.log_hash());
    // A step changed: it parts there, and the game shown is the one before it.
    let mut changed = read.clone();
    let k = changed
        .steps
        .iter()
        .position(|s| matches!(&s.act, Act::Response(riffle_core::Response::Choose { indices }) if indices.len() == 1 && indices[0] > 0))
        .expect("a step that chose another option than the first");
    changed.steps[k].act = Act::Response(riffle_core::Response::Choose { indices: vec![0] });
    let parted = changed.rerun(engine, None).expect("starts");
    let d = parted.diverged.expect("parts");
    assert_eq!(d.step, k + 1, "{}", d.what);
    assert_eq!(parted.steps, k);
}
