//! `riffle bench`'s figures for agents and simulation: what one `mcts` answer costs
//! (playouts per second), and the memory a live game and a fork hold.

use std::rc::Rc;
use std::time::Instant;

use riffle::play::{Agent, RandomAgent, game_seed, seat_seed};
use riffle_agents::{Budget, Evaluation, MctsAgent};
use riffle_core::{DeckList, Engine, Game, GameConfig, Options, Rng};
use serde_json::{Value, json};

/// Decisions played into a game before it is held for the memory figure: past the setup,
/// with cards in play.
const MEMORY_DECISIONS: u32 = 40;

/// Most decisions of one searched game (a long game's end adds little to the figure).
const SEARCH_DECISIONS: u32 = 400;

/// What the search timing measured.
pub struct Search {
    games: u64,
    budget: u32,
    /// Each searched answer: milliseconds, and playouts per second.
    answer_ms: Vec<f64>,
    playouts_per_second: Vec<f64>,
    playouts: u64,
    seconds: f64,
    /// Answers given as greedy would (the game not dealable there), and forced ones.
    greedy: u64,
    forced: u64,
}

/// In `games` games (seeds as the playouts'), seat 0 is `mcts` with `budget` playouts an
/// answer and the other seats random; every searched answer is timed. The games keep their
/// log (a search deals again from what the log showed its seat). At most
/// [`SEARCH_DECISIONS`] decisions a game.
pub fn search(
    engine: &Rc<Engine>,
    decks: &[DeckList],
    options: &Options,
    seed: u64,
    games: u64,
    budget: u32,
) -> anyhow::Result<Search> {
    let mut s = Search {
        games,
        budget,
        answer_ms: Vec::new(),
        playouts_per_second: Vec::new(),
        playouts: 0,
        seconds: 0.0,
        greedy: 0,
        forced: 0,
    };
    for k in 0..games {
        let gs = game_seed(seed, k);
        let mut game = Game::with_options(engine.clone(), config(gs, decks), options)
            .map_err(|e| anyhow::anyhow!("seed {gs}: {e}"))?;
        let mut mcts = MctsAgent::new(
            Evaluation::of(engine),
            Budget::Playouts(budget),
            seat_seed(gs, 0),
        );
        let mut others: Vec<RandomAgent> = (0..decks.len())
            .map(|i| RandomAgent(Rng::new(seat_seed(gs, i))))
            .collect();
        for _ in 0..SEARCH_DECISIONS {
            let Some(req) = game.request().cloned() else {
                break;
            };
            let seat = req.player();
            let answer = if seat == 0 {
                let before = mcts.stats();
                let t = Instant::now();
                let r = mcts.respond(&game, &req).map_err(anyhow::Error::msg)?;
                let took = t.elapsed().as_secs_f64();
                let after = mcts.stats();
                if after.searched > before.searched {
                    let n = after.playouts - before.playouts;
                    s.answer_ms.push(took * 1e3);
                    s.playouts_per_second.push(n as f64 / took);
                    s.playouts += n;
                    s.seconds += took;
                }
                r
            } else {
                others[usize::from(seat)]
                    .respond(&game, &req)
                    .map_err(anyhow::Error::msg)?
            };
            game.respond(seat, answer)
                .map_err(|e| anyhow::anyhow!("seed {gs}: an agent's answer was refused: {e}"))?;
        }
        let st = mcts.stats();
        s.greedy += st.greedy;
        s.forced += st.forced;
    }
    Ok(s)
}

impl Search {
    pub fn json(&self) -> Value {
        json!({
            "games": self.games,
            "playouts_per_answer": self.budget,
            "answers": self.answer_ms.len(),
            "answer_ms": super::bench::stats(&self.answer_ms),
            "playouts_per_second": super::bench::stats(&self.playouts_per_second),
            "playouts_per_second_overall": self.playouts as f64 / self.seconds.max(1e-9),
            "greedy_answers": self.greedy,
            "forced_answers": self.forced,
        })
    }
}

/// Memory held by live games and by forks.
pub struct Memory {
    games: u64,
    /// Bytes held per live game with its log kept, without it, and per fork.
    per_game: f64,
    per_game_no_log: f64,
    per_fork: f64,
}

/// Bytes held in live allocations (blocks in use times their size),
/// after the engine's script garbage is collected. Unlike the memory mimalloc has
/// committed, which grows in steps and keeps freed pages for reuse, this counts what is
/// held to the block, so the figures hold for a few games as for thousands.
fn live_bytes(engine: &Engine) -> usize {
    engine.collect_garbage();
    unsafe extern "C" fn area(
        _heap: *const libmimalloc_sys::mi_heap_t,
        area: *const libmimalloc_sys::mi_heap_area_t,
        _block: *mut std::ffi::c_void,
        _size: usize,
        sum: *mut std::ffi::c_void,
    ) -> bool {
        // SAFETY: mimalloc passes a valid area; `sum` is the `usize` given below.
        unsafe {
            let a = &*area;
            // `used` counts blocks (mimalloc's theap.c: "number of blocks in use").
            *(sum as *mut usize) += a.used * a.block_size;
        }
        true
    }
    let mut sum = 0usize;
    // SAFETY: a null heap is mimalloc 3's main heap, all of whose pages are visited; the
    // bench runs no other thread meanwhile (mimalloc asks that). The visitor only reads
    // each area and adds to `sum`, which outlives the call. Areas only, not each block.
    unsafe {
        libmimalloc_sys::mi_collect(false);
        libmimalloc_sys::mi_heap_visit_blocks(
            std::ptr::null_mut(),
            false,
            Some(area),
            &mut sum as *mut usize as *mut std::ffi::c_void,
        );
    }
    sum
}

/// Plays `decisions` decisions of `game` at random.
fn advance(game: &mut Game, seed: u64, decisions: u32) -> anyhow::Result<()> {
    let mut agent = RandomAgent(Rng::new(seed));
    for _ in 0..decisions {
        let Some(req) = game.request().cloned() else {
            break;
        };
        let r = agent.respond(game, &req).map_err(anyhow::Error::msg)?;
        game.respond(req.player(), r)
            .map_err(|e| anyhow::anyhow!("an answer was refused: {e}"))?;
    }
    Ok(())
}

/// Memory per fork, then per live game: `n` forks of a game [`MEMORY_DECISIONS`] decisions
/// in, each answered once (a fork shares the parts of the state it has not changed); then
/// `n` games (seeds as the playouts') each played [`MEMORY_DECISIONS`] decisions at random
/// and held at once, without their logs, then `n` more with them.
pub fn memory(
    engine: &Rc<Engine>,
    decks: &[DeckList],
    options: &Options,
    seed: u64,
    n: u64,
) -> anyhow::Result<Memory> {
    let start = |seed: u64, keep_log: bool| -> anyhow::Result<Game> {
        let mut c = config(seed, decks);
        c.keep_log = keep_log;
        let mut game = Game::with_options(engine.clone(), c, options)
            .map_err(|e| anyhow::anyhow!("seed {seed}: {e}"))?;
        advance(&mut game, seed, MEMORY_DECISIONS)?;
        Ok(game)
    };
    // The first game also loads the decks' card scripts into the engine, for all games.
    let first = start(seed, true)?;
    // Everything measured stays held until the end, so no figure reuses another's memory.
    let mut held = Vec::with_capacity(3 * n as usize);
    let mut per = |make: &mut dyn FnMut(u64) -> anyhow::Result<Game>| -> anyhow::Result<f64> {
        let before = live_bytes(engine);
        for k in 0..n {
            held.push(make(k)?);
        }
        Ok(live_bytes(engine).saturating_sub(before) as f64 / n as f64)
    };
    let per_fork = per(&mut |k| {
        let mut f = first.fork();
        advance(&mut f, k, 1)?;
        Ok(f)
    })?;
    let per_game_no_log = per(&mut |k| start(game_seed(seed, k), false))?;
    let per_game = per(&mut |k| start(game_seed(seed, k), true))?;
    Ok(Memory {
        games: n,
        per_game,
        per_game_no_log,
        per_fork,
    })
}

impl Memory {
    pub fn json(&self) -> Value {
        json!({
            "games": self.games,
            "decisions_in": MEMORY_DECISIONS,
            "bytes_per_game": self.per_game,
            "bytes_per_game_no_log": self.per_game_no_log,
            "bytes_per_fork": self.per_fork,
        })
    }
}

/// The playouts' game config, with the log kept, as the Python package's games and a
/// searching agent's keep it.
fn config(seed: u64, decks: &[DeckList]) -> GameConfig {
    GameConfig {
        keep_log: true,
        ..super::bench::config(seed, decks)
    }
}
