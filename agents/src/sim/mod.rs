//! Batch simulation (`riffle sim`, `riffle.simulate` in Python): a [`Job`] names the
//! content, the decks (one pairing, or a league where every ordered pair of decks meets),
//! the options, a range of seeds and the agents; [`run`] plays every game on worker threads,
//! one engine each, and gives one [`GameRecord`] per game in the job's order, whatever the
//! number of threads, then a [`Summary`]: win rates per deck and seat with confidence
//! intervals, and the league's deck-against-deck matrix.

mod compare;
mod job;
mod run;
mod summary;

pub use compare::{Change, Comparison, change, compare};
pub use job::{Job, Pairing, Record, Table};
pub use run::{GameRecord, Termination, play_one, run, run_with, summarize};
pub use summary::{DeckRecord, Rate, Summary, wilson};
