//! Decisions as a fixed set of actions, for learning agents and game-tree APIs (OpenSpiel,
//! PettingZoo, Gymnasium): action `i` picks option `i` of the pending choice; a choice of
//! several cards is made one pick at a time, ended by [`DONE`] (or by the last pick
//! allowed); a number is picked among at most [`NUMBER_ACTIONS`] values from its bounds.

use riffle_core::{Game, PlayerId, Request, Response};

/// Distinct actions: options 0 to `DONE - 1`, and `DONE`.
pub const ACTIONS: usize = 512;
/// "No more picks": legal once the picks made reach the choice's minimum.
pub const DONE: usize = ACTIONS - 1;
/// Most values a number request offers as actions (its bounds always among them).
pub const NUMBER_ACTIONS: usize = 64;

/// A game stepped by actions: the picks of a several-card choice wait here until the
/// choice is complete, then go to the game as one answer.
pub struct Stepper {
    /// The game.
    pub game: Game,
    /// Options picked so far in the pending choice.
    pub picks: Vec<u32>,
}

impl Stepper {
    /// Steps `game`.
    pub fn new(game: Game) -> Stepper {
        Stepper {
            game,
            picks: Vec::new(),
        }
    }

    /// A copy that goes on independently (`Game::fork`, with the picks so far).
    pub fn fork(&self) -> Stepper {
        Stepper {
            game: self.game.fork(),
            picks: self.picks.clone(),
        }
    }

    /// Who acts next (None: the game is over, or stuck).
    pub fn current_player(&self) -> Option<PlayerId> {
        self.game.request().map(Request::player)
    }

    /// The legal actions, ascending.
    pub fn legal_actions(&self) -> Vec<usize> {
        let Some(req) = self.game.request() else {
            return Vec::new();
        };
        match req {
            Request::Choose {
                options, min, max, ..
            } => {
                let picked = self.picks.len() as u32;
                let mut out: Vec<usize> = if picked < *max {
                    (0..options.len().min(DONE))
                        .filter(|i| !self.picks.contains(&(*i as u32)))
                        .collect()
                } else {
                    Vec::new()
                };
                if picked >= (*min).min(options.len() as u32) {
                    out.push(DONE);
                }
                out
            }
            Request::Number { .. } => (0..number_values(req).len()).collect(),
        }
    }

    /// Takes action `a`: a pick (sent with the others once the choice is full), `DONE`, or
    /// a number's value. An illegal action is refused and changes nothing. The answer the
    /// game was given, when the action completed one.
    pub fn apply(&mut self, a: usize) -> Result<Option<Response>, String> {
        let Some(req) = self.game.request().cloned() else {
            return Err("the game is over".into());
        };
        if !self.legal_actions().contains(&a) {
            return Err(format!(
                "action {a} is not legal here (legal: {:?})",
                self.legal_actions()
            ));
        }
        let p = req.player();
        let response = match &req {
            Request::Choose { max, .. } => {
                if a != DONE {
                    self.picks.push(a as u32);
                    if (self.picks.len() as u32) < *max {
                        return Ok(None);
                    }
                }
                let mut indices = std::mem::take(&mut self.picks);
                indices.sort_unstable();
                Response::Choose { indices }
            }
            Request::Number { .. } => Response::Number {
                value: number_values(&req)[a],
            },
        };
        self.game
            .respond(p, response.clone())
            .map_err(|e| e.to_string())?;
        Ok(Some(response))
    }

    /// What action `a` means now, for people.
    pub fn action_label(&self, a: usize) -> String {
        match self.game.request() {
            Some(Request::Choose { options, .. }) if a < options.len() => options[a].label.clone(),
            Some(Request::Number { .. }) => number_values(self.game.request().unwrap())
                .get(a)
                .map_or_else(|| format!("action {a}"), |v| v.to_string()),
            _ if a == DONE => "done".into(),
            _ => format!("action {a}"),
        }
    }
}

/// The values a number request offers: every value when they are few, else
/// [`NUMBER_ACTIONS`] spread evenly from the lowest to the highest.
pub fn number_values(req: &Request) -> Vec<i64> {
    let Request::Number { min, max, .. } = req else {
        return Vec::new();
    };
    spread(*min, *max, NUMBER_ACTIONS)
}

/// At most `count` values from `lo` to `hi`, evenly spread, both bounds among them (every
/// value when there are fewer). In i128: `hi - lo` overflows i64 for a range past half of it.
pub(crate) fn spread(lo: i64, hi: i64, count: usize) -> Vec<i64> {
    let (lo, hi) = (lo as i128, hi as i128);
    let span = hi - lo;
    let steps = (count as i128 - 1).min(span.max(0));
    (0..=steps)
        .map(|i| {
            if steps == 0 {
                lo as i64
            } else {
                (lo + span * i / steps) as i64
            }
        })
        .collect()
}
