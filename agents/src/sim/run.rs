//! Playing a job's games on worker threads, each with its own engine, and handing their
//! records on in the job's order.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use riffle_core::{Game, GameConfig, PlayerId};
use serde::{Deserialize, Serialize};

use riffle_content::replay::{Header, Replay};

use super::{Job, Record, Summary, Table};
use crate::play::{Stopped, game_seed, play_game_with, seat_seed};
use crate::{Agent, AgentSpec};

/// How a game ended. Only `win` and `draw` count in win rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// A side won.
    Win,
    /// Nobody won.
    Draw,
    /// A script failed during the game (whoever won, the game says nothing of the decks).
    ScriptError,
    /// The decision cap was reached, or the kernel had nothing left to do.
    Unfinished,
}

/// One game of a job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Its place in the job (pairing by pairing, seed by seed), from 0.
    pub index: u64,
    /// The pairing's place in the job.
    pub pairing: usize,
    /// The deck ids, by seat.
    pub decks: Vec<String>,
    /// The game's seed.
    pub seed: u64,
    /// How it ended.
    pub termination: Termination,
    /// The winning seats (from 0; every member of a winning team).
    pub winners: Vec<PlayerId>,
    /// The ruleset's reason (`defeat`, `concession`...), or why it stopped.
    pub reason: String,
    /// Turns played.
    pub turns: u32,
    /// Decisions answered.
    pub decisions: u64,
    /// The log hash: the same content, seed and agents give the same hash.
    pub log_hash: String,
    /// The first script error, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The game's replay, as text, when the job records replays (not in the JSON line:
    /// `riffle sim --replays DIR` writes each to its own file).
    #[serde(skip)]
    pub replay: Option<String>,
}

/// Plays every game of `job` on `threads` worker threads; `each` sees every record in the
/// job's order. The summary covers them all.
pub fn run(job: &Job, threads: usize, each: impl FnMut(&GameRecord)) -> Result<Summary, String> {
    run_with(job, threads, 0..job.total_games(), each)
}

/// [`run`] for the games of `slice` only (their indices in the job): a shard of a job
/// split between machines plays exactly what the whole job would at those indices.
pub fn run_with(
    job: &Job,
    threads: usize,
    slice: Range<u64>,
    mut each: impl FnMut(&GameRecord),
) -> Result<Summary, String> {
    if slice.end > job.total_games() || slice.start > slice.end {
        return Err(format!(
            "games {}..{}: the job has {}",
            slice.start,
            slice.end,
            job.total_games()
        ));
    }
    // Checked here first, so a bad job fails once, not on every thread.
    let table = job.table()?;
    let mut summary = Summary::new(&job.game, &table);
    drop(table);
    let next = AtomicU64::new(slice.start);
    let threads = threads.clamp(1, 256);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
    let hash = summary.content_hash.clone();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, slice, hash) = (&next, slice.clone(), hash.clone());
            s.spawn(move || {
                let table = match job.table() {
                    Ok(t) if t.content_hash == hash => t,
                    Ok(_) => {
                        let _ = tx.send(Err("the content changed while the job started".into()));
                        return;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= slice.end {
                        return;
                    }
                    if tx.send(play_one(job, &table, i)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Records arrive in any order; they are handed on in the job's.
        let mut waiting: BTreeMap<u64, GameRecord> = BTreeMap::new();
        let mut due = slice.start;
        let mut failed = None;
        for r in rx {
            match r {
                Ok(rec) => {
                    waiting.insert(rec.index, rec);
                    while let Some(rec) = waiting.remove(&due) {
                        summary.add(&rec);
                        each(&rec);
                        due += 1;
                    }
                }
                Err(e) => {
                    // The others stop at their next game.
                    next.store(slice.end, Ordering::Relaxed);
                    failed.get_or_insert(e);
                }
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })?;
    summary.finish();
    Ok(summary)
}

/// The summary of `records` (games of `job` played anywhere, in any order): the same as
/// [`run`] gives for the same games.
pub fn summarize(job: &Job, table: &Table, records: &[GameRecord]) -> Summary {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    let mut summary = Summary::new(&job.game, table);
    for r in sorted {
        summary.add(r);
    }
    summary.finish();
    summary
}

/// Game `index` of the job, on a table the caller made ([`Job::table`]): a worker that
/// loads the content once plays many slices so (the Python bindings' Ray actors).
pub fn play_one(job: &Job, table: &Table, index: u64) -> Result<GameRecord, String> {
    let pairing = (index / job.games) as usize;
    let k = index % job.games;
    let seed = game_seed(job.seed, k);
    let p = &table.pairings[pairing];
    let searching = table
        .agents
        .iter()
        .any(|a| !matches!(a, AgentSpec::Random | AgentSpec::First));
    let replays = job.record == Record::Replays;
    let config = GameConfig {
        seed,
        decks: p.lists.clone(),
        // A searching agent deals again from what the log showed its seat; a replay is
        // read off the log. (Keeping it leaves the log hash as it is.)
        keep_log: searching || replays,
    };
    let mut agents: Vec<Box<dyn Agent>> = table
        .agents
        .iter()
        .enumerate()
        .map(|(seat, a)| a.build(&table.engine, seat_seed(seed, seat)))
        .collect();
    let (game, played) = play_game_with(
        &table.engine,
        config,
        &table.options,
        &Default::default(),
        &mut agents,
        false,
        |_: &Game| {},
    )
    .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
    let replay = if replays {
        let header = Header::new(
            &job.game,
            &table.manifest,
            seed,
            p.lists.clone(),
            table.options.clone(),
        );
        let r = Replay::of_game(header, &game)
            .map_err(|e| format!("game {index} (seed {seed}): its replay: {e}"))?;
        Some(r.to_text())
    } else {
        None
    };
    drop(game);
    let error = played.errors.first().cloned();
    let (termination, winners, reason) = match (&played.result, &played.stopped) {
        _ if error.is_some() => (
            Termination::ScriptError,
            Vec::new(),
            "script error".to_string(),
        ),
        (Some(r), _) if r.winners.is_empty() => (Termination::Draw, Vec::new(), r.reason.clone()),
        (Some(r), _) => (Termination::Win, r.winners.clone(), r.reason.clone()),
        (None, s) => (
            Termination::Unfinished,
            Vec::new(),
            s.as_ref().unwrap_or(&Stopped::Stuck).to_string(),
        ),
    };
    Ok(GameRecord {
        index,
        pairing,
        decks: p.ids.clone(),
        seed,
        termination,
        winners,
        reason,
        turns: played.turns,
        decisions: played.decisions,
        log_hash: played.hash,
        error,
        replay,
    })
}
