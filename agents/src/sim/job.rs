//! What a simulation plays: the job as given (JSON), and the tables it deals.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use riffle_content::{ContentManifest, LoadOptions, Loader, setup};
use riffle_core::{DeckList, Engine, OptionValue, Options};
use serde::{Deserialize, Serialize};

use crate::AgentSpec;

/// Most games one job may play (a typo of a few zeros would otherwise run for days).
pub const MOST_GAMES: u64 = 10_000_000;

/// A simulation job, as `riffle sim --job FILE` and `riffle.simulate` take it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The game (`onepiece`, `gundam`, `summoner-master`).
    pub game: String,
    /// Where the content is: the repository root first, then mods layered over it.
    #[serde(default)]
    pub paths: Vec<PathBuf>,
    /// One deck id per seat: every game of the job deals them so. Default: the game's deck
    /// lists dealt to the seats in turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<String>,
    /// A league instead: every ordered pair of these decks (two seats) plays `games` games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub league: Vec<String>,
    /// The number of seats (default: one per deck, else the game's fewest players).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// Game options by name (`mode: team`, `level: summoner`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// The first game's seed; game k of a pairing plays seed `seed + k`.
    #[serde(default = "one")]
    pub seed: u64,
    /// Games per pairing.
    pub games: u64,
    /// One agent per seat (docs/agents.md). Default: `random` everywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<String>,
    /// What each game leaves beside its record (default: the record alone).
    #[serde(default, skip_serializing_if = "Record::is_results")]
    pub record: Record,
}

/// What a job records of each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// One record per game (seed, winners, turns, decisions, log hash).
    #[default]
    Results,
    /// The record and the game's replay (docs/replays.md): `riffle replay` plays it again
    /// and its log, step by step. The games keep their logs to write it.
    Replays,
}

impl Record {
    fn is_results(&self) -> bool {
        *self == Record::Results
    }
}

fn one() -> u64 {
    1
}

/// Who sits where in one pairing: deck ids and lists, one per seat.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The deck ids, by seat.
    pub ids: Vec<String>,
    /// The deck lists, by seat.
    pub lists: Vec<DeckList>,
}

/// A job made ready on one thread: its engine, pairings, options and agents.
pub struct Table {
    /// The engine (one per thread: an engine is not `Send`).
    pub engine: Rc<Engine>,
    /// The content's hash (every file read): the same hash, the same cards and rules.
    pub content_hash: String,
    /// Every file of the content with its hash, for replays' headers.
    pub manifest: ContentManifest,
    /// The pairings, in the job's order.
    pub pairings: Vec<Pairing>,
    /// The options.
    pub options: Options,
    /// One agent per seat.
    pub agents: Vec<AgentSpec>,
}

impl Job {
    /// How many games the job plays.
    pub fn total_games(&self) -> u64 {
        let pairings = if self.league.is_empty() {
            1
        } else {
            (self.league.len() * (self.league.len() - 1)) as u64
        };
        pairings.saturating_mul(self.games)
    }

    /// Loads the content and checks the job against it: every deck exists and may sit
    /// down with the options, every agent is known, the counts are in range. An error says
    /// what to give instead.
    pub fn table(&self) -> Result<Table, String> {
        if self.games == 0 {
            return Err("games: give 1 or more".into());
        }
        if self.total_games() > MOST_GAMES {
            return Err(format!(
                "the job plays {} games, more than {MOST_GAMES}: split it by seeds",
                self.total_games()
            ));
        }
        if !self.decks.is_empty() && !self.league.is_empty() {
            return Err("give decks (one pairing) or league (every pair), not both".into());
        }
        if !self.league.is_empty() && self.league.len() < 2 {
            return Err("league: give two decks or more".into());
        }
        if self.paths.is_empty() {
            return Err("paths: give the content's folder (the repository root)".into());
        }
        let mut loaded = Loader::new(self.paths.clone())
            .load_valid(&self.game, LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let content_hash = loaded.manifest.hash.to_string();
        let manifest = loaded.manifest.clone();
        let mut options = Options::new();
        for (k, v) in &self.options {
            options.insert(k.clone(), OptionValue::Name(v.clone()));
        }
        // A league seats every ordered pair; else the decks given, or the game's deck lists
        // dealt to the seats in turn, as `riffle play` deals them.
        let pairings: Vec<Vec<String>> = if !self.league.is_empty() {
            let l = &self.league;
            (0..l.len())
                .flat_map(|a| (0..l.len()).filter(move |b| *b != a).map(move |b| (a, b)))
                .map(|(a, b)| vec![l[a].clone(), l[b].clone()])
                .collect()
        } else {
            vec![self.decks.clone()]
        };
        let smallest = loaded.content.ruleset.manifest.players.min;
        let seated = pairings
            .iter()
            .map(|ids| setup::seat_decks(&loaded.decks, smallest, ids, self.players))
            .collect::<Result<Vec<_>, _>>()?;
        let seats = seated[0].len();
        let agents: Vec<AgentSpec> = if self.agents.is_empty() {
            vec![AgentSpec::Random; seats]
        } else if self.agents.len() != seats {
            return Err(format!(
                "agents: give one per seat, {seats} (got {})",
                self.agents.len()
            ));
        } else {
            self.agents
                .iter()
                .map(|a| a.parse::<AgentSpec>().map_err(|e| format!("agents: {e}")))
                .collect::<Result<_, _>>()?
        };
        let engine = setup::engine(&mut loaded)?;
        let mut out = Vec::new();
        for seats in seated {
            let (ids, lists): (Vec<String>, Vec<_>) = seats.into_iter().unzip();
            setup::check_seating(&engine, &lists, &options)
                .map_err(|e| format!("decks {}: {e}", ids.join(" against ")))?;
            out.push(Pairing { ids, lists });
        }
        Ok(Table {
            engine,
            content_hash,
            manifest,
            pairings: out,
            options,
            agents,
        })
    }
}
