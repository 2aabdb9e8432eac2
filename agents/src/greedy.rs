//! `greedy`: one ply. Each candidate answer is given on a fork of the game, which plays on
//! to the seat's next decision (the other players answering as `first` does, which is
//! mostly a pass) and the position there is scored from the seat's own view: an answer
//! whose harm shows only when the turn ends (not bringing a Seal in) is seen as such. The
//! fork is of a copy with what the seat cannot see dealt again (`Game::redeal`) wherever the
//! game allows it (no script suspended), so what an answer reveals is a guess, not a peek.

use riffle_core::{Game, Request, Response, Rng};

use crate::{Agent, Evaluation, candidates};

/// Picks the candidate answer whose next position scores best for its seat; ties go to
/// the earliest candidate after a seeded shuffle, so equal answers are not always the first.
pub struct GreedyAgent {
    rng: Rng,
    evaluation: Evaluation,
}

impl GreedyAgent {
    /// A greedy agent scoring with `evaluation`, breaking ties with `seed`.
    pub fn new(evaluation: Evaluation, seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: Rng::new(seed),
            evaluation,
        }
    }

    /// The best of the candidate answers and its score (`None` when no fork took an answer).
    pub fn best(&mut self, game: &Game, req: &Request) -> Option<(Response, f64)> {
        let seat = req.player();
        let mut answers = candidates(req, &mut self.rng);
        if answers.len() == 1 {
            return answers.pop().map(|r| (r, 0.0));
        }
        self.rng.shuffle(&mut answers);
        // Tried on a copy with the hidden cards dealt again, so a draw an answer leads to
        // is not the real one; where a script is suspended, on the game itself.
        let dealt = game.redeal(seat, self.rng.next_u64()).ok();
        let world = dealt.as_ref().unwrap_or(game);
        let mut best: Option<(Response, f64)> = None;
        for r in answers {
            let mut fork = world.fork();
            if fork.respond(seat, r.clone()).is_err() {
                continue;
            }
            others_answer(&mut fork, seat);
            let s = self.evaluation.score(&fork, seat);
            if best.as_ref().is_none_or(|(_, b)| s > *b) {
                best = Some((r, s));
            }
        }
        best
    }
}

impl Agent for GreedyAgent {
    fn respond(&mut self, game: &Game, req: &Request) -> Result<Response, String> {
        Ok(self
            .best(game, req)
            .map(|(r, _)| r)
            .unwrap_or_else(|| req.first_legal()))
    }
}

/// Most answers of other players a greedy look ahead plays before it scores.
const MOST_OTHERS: u32 = 64;

/// Plays `game` on to `seat`'s next decision, the others answering with their first legal
/// answer, for at most [`MOST_OTHERS`] answers.
fn others_answer(game: &mut riffle_core::Game, seat: riffle_core::PlayerId) {
    for _ in 0..MOST_OTHERS {
        let Some(req) = game.request() else {
            return;
        };
        if req.player() == seat {
            return;
        }
        let (p, r) = (req.player(), req.first_legal());
        if game.respond(p, r).is_err() {
            return;
        }
    }
}
