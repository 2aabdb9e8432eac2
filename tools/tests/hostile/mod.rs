//! The hostile corpus: cards written to break out of the sandbox, to exhaust the host or to
//! change what other cards and games see (`tools/tests/fixtures/hostile`, one scenario
//! each, and `tools/tests/fixtures/hostile-load`, cards that misbehave while loading).
//! Each must be stopped with the card named at its file:line, and a separate game
//! afterwards, in the same process and on the same engine, must play exactly as it does on
//! an engine that never saw the hostile cards (docs/security.md).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::common::{onepiece_content, repo};
use riffle::play::{Agent, RandomAgent, play_game};
use riffle::scenario;
use riffle_core::{CardDef, Content, DeckList, Engine, GameConfig, Rng, Source};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn content(roots: &[PathBuf]) -> (Content, Vec<DeckList>) {
    onepiece_content(roots)
}

/// The log hashes of a few random games between the sample decks.
fn reference_games(engine: &Rc<Engine>, decks: &[DeckList]) -> Vec<String> {
    (0..3u64)
        .map(|seed| {
            let mut agents: Vec<Box<dyn Agent>> = vec![
                Box::new(RandomAgent(Rng::new(seed * 2))),
                Box::new(RandomAgent(Rng::new(seed * 2 + 1))),
            ];
            let config = GameConfig {
                seed,
                decks: vec![decks[0].clone(), decks[1].clone()],
                keep_log: true,
            };
            let (_, played) = play_game(engine, config, &mut agents, true, |_| {})
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(played.errors.is_empty(), "seed {seed}: {:?}", played.errors);
            played.hash
        })
        .collect()
}

#[test]
fn every_hostile_card_is_stopped_and_a_later_game_is_unaffected() {
    let (clean_content, decks) = content(&[repo()]);
    let clean = Engine::new(&clean_content).expect("the repository's content loads");
    let expected = reference_games(&clean, &decks);

    let (hostile_content, _) = content(&[repo(), fixture("hostile")]);
    let hostile = Engine::new(&hostile_content).expect("the runtime corpus loads");
    // Loading them changed nothing (HX-001 redefines the shared constructors at its top level).
    assert_eq!(reference_games(&hostile, &decks), expected);

    let file = fixture("hostile/cardsets/onepiece/hx/hostile.test.yaml");
    let corpus = scenario::File::read(&file).unwrap_or_else(|e| panic!("{e:?}"));
    let ids: Vec<String> = hostile_content
        .cards
        .iter()
        .filter(|c| c.id.starts_with("HX-"))
        .map(|c| c.id.clone())
        .collect();
    assert!(ids.len() >= 25, "{ids:?}");
    for id in &ids {
        let outcomes = corpus.run(&hostile, Some(&format!("{id}:")));
        assert_eq!(outcomes.len(), 1, "{id} has one scenario");
        assert!(outcomes[0].passed(), "{id}: {:?}", outcomes[0].failures);
        assert_eq!(
            reference_games(&hostile, &decks),
            expected,
            "a game after {id} plays differently"
        );
    }

    // Every scenario of the repository still passes on the engine that ran them all.
    let mut files = Vec::new();
    scenario::walk(&repo().join("scripts/onepiece/tests"), &mut files);
    scenario::walk(&repo().join("cardsets/onepiece"), &mut files);
    assert!(files.len() > 50);
    for f in files {
        let file = scenario::File::read(&f).unwrap_or_else(|e| panic!("{e:?}"));
        for o in file.run(&hostile, None) {
            assert!(o.passed(), "{} {}: {:?}", o.at, o.name, o.failures);
        }
    }
}

/// A card of the load corpus, added alone to the repository's content.
fn with_load_case(path: &Path) -> (String, Result<Rc<Engine>, Vec<riffle_core::LoadError>>) {
    let (mut content, _) = content(&[repo()]);
    let id = path.file_stem().unwrap().to_string_lossy().into_owned();
    let mut def: CardDef = content
        .cards
        .iter()
        .find(|c| c.id == "RF01-008")
        .expect("a vanilla character")
        .clone();
    def.id = id.clone();
    def.script = Some(Source {
        name: format!("hostile-load/{id}.lua"),
        text: std::fs::read_to_string(path).unwrap(),
    });
    content.cards.push(def);
    (id, Engine::new(&content))
}

#[test]
fn cards_that_misbehave_while_loading_are_refused_at_their_line() {
    let expect = [
        ("LX-001", "attempt to modify a readonly table"),
        ("LX-002", "attempt to modify a readonly table"),
        ("LX-003", "work budget exceeded"),
        ("LX-004", "out of memory"),
        ("LX-005", "work budget exceeded"),
        (
            "LX-006",
            "`plays` (the local of line 2) is assigned inside a function",
        ),
        // Escapes through removed globals, read inside a function body: refused when the
        // card loads (a global nothing defines), not only when a game reaches the line.
        ("LX-007", "unknown name 'os'"),
        ("LX-008", "unknown name 'load'"),
        ("LX-009", "unknown name 'coroutine'"),
    ];
    for (id, what) in expect {
        let path = fixture("hostile-load").join(format!("{id}.lua"));
        let (id, loaded) = with_load_case(&path);
        let errors = loaded.err().unwrap_or_else(|| panic!("{id} loaded"));
        assert_eq!(errors.len(), 1, "{id}: {errors:?}");
        let e = &errors[0];
        assert_eq!(e.card.as_deref(), Some(id.as_str()), "{e}");
        assert_eq!(
            e.file.as_deref(),
            Some(format!("hostile-load/{id}.lua").as_str()),
            "{e}"
        );
        assert!(e.message.contains(what), "{id}: {e}");
        let line = match id.as_str() {
            "LX-004" => None, // an allocation has no line
            "LX-006" => Some(4),
            _ => Some(2),
        };
        if line.is_some() {
            assert_eq!(e.line, line, "{id}: {e}");
        }
    }
}
