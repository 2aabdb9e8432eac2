//! Benchmarks: random playouts (games/s, decisions/s), fork cost at a quiescent decision
//! early and late in a game, and load + validate + compile time for 1,000 synthetic cards.
//! Run: `cargo bench -p riffle`. Figures go to docs/performance.md.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use riffle::play::{Agent, RandomAgent, play_game};
use riffle_content::load_game;
use riffle_core::{DeckList, Engine, Game, GameConfig, Rng};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn onepiece(root: &Path) -> (Rc<Engine>, Vec<DeckList>) {
    let loaded = load_game(&[root.to_path_buf()], "onepiece")
        .into_result()
        .expect("content loads");
    let engine = Engine::new(&loaded.content).expect("engine compiles");
    (
        engine,
        loaded.decks.iter().map(|d| d.list.clone()).collect(),
    )
}

fn random_game(engine: &Rc<Engine>, decks: &[DeckList], seed: u64) -> u64 {
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent(Rng::new(seed))),
        Box::new(RandomAgent(Rng::new(seed + 1))),
    ];
    let config = GameConfig {
        seed,
        decks: vec![decks[0].clone(), decks[1].clone()],
        keep_log: false,
    };
    play_game(engine, config, &mut agents, false, |_| {})
        .expect("game runs")
        .1
        .decisions
}

/// A game advanced by `decisions` random answers, stopped at a main-phase action.
fn game_at(engine: &Rc<Engine>, decks: &[DeckList], decisions: usize) -> Game {
    let config = GameConfig {
        seed: 5,
        decks: vec![decks[0].clone(), decks[1].clone()],
        keep_log: true,
    };
    let mut g = Game::new(engine.clone(), config).expect("starts");
    let mut rng = Rng::new(9);
    let mut n = 0;
    while let Some(req) = g.request().cloned() {
        if n >= decisions && req.prompt() == "main" {
            break;
        }
        g.respond(req.player(), req.random_legal(&mut rng))
            .expect("legal");
        n += 1;
    }
    g
}

fn playouts(c: &mut Criterion) {
    let (engine, decks) = onepiece(&repo());
    let mut seed = 0;
    c.bench_function("random_game", |b| {
        b.iter(|| {
            seed += 1;
            random_game(&engine, &decks, seed)
        })
    });
}

fn forks(c: &mut Criterion) {
    let (engine, decks) = onepiece(&repo());
    for at in [10usize, 120] {
        let g = game_at(&engine, &decks, at);
        c.bench_function(&format!("fork_quiescent_after_{at}_decisions"), |b| {
            b.iter(|| g.fork())
        });
    }
}

fn load(c: &mut Criterion) {
    let root = synthetic_root(1000);
    c.bench_function("load_validate_compile_1000_cards", |b| {
        b.iter(|| {
            let loaded = load_game(std::slice::from_ref(&root), "onepiece")
                .into_result()
                .expect("loads");
            Engine::new(&loaded.content).expect("compiles");
        })
    });
}

/// A repo copy with one synthetic set of `n` scripted cards.
fn synthetic_root(n: usize) -> PathBuf {
    let root = std::env::temp_dir().join(format!("riffle-bench-{n}"));
    let _ = std::fs::remove_dir_all(&root);
    let set = root.join("cardsets/onepiece/syn");
    copy_dir(&repo().join("scripts"), &root.join("scripts"));
    copy_dir(&repo().join("schema"), &root.join("schema"));
    copy_dir(
        &repo().join("cardsets/onepiece/rf01"),
        &root.join("cardsets/onepiece/rf01"),
    );
    riffle::synthetic::write_onepiece_set(&set, n).expect("write");
    root
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("dir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(8));
    targets = playouts, forks, load
}
criterion_main!(benches);
