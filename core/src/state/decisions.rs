//! Decisions: whenever a player must choose, the kernel stops with a [`Request`] that lists
//! every legal option, and resumes with a [`Response`]. Both are serializable; an illegal
//! response is rejected with a [`ResponseError`] and changes nothing.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;
use crate::state::values::Val;
use crate::state::{ObjId, PlayerId};

/// One option of a choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// What the option is, for people ("Play Tidecaller Nami (cost 3)").
    pub label: String,
    /// A machine-readable kind (`play`, `attack`, `pass`, `card`, `yes`...).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kind: Option<String>,
    /// The card the option is about.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub card: Option<ObjId>,
    /// A second card (an attack's target, a host).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target: Option<ObjId>,
    /// Anything else the ruleset attaches.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub data: Vec<(String, Val)>,
}

/// What a player is asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Choose between `min` and `max` of the options (distinct indices).
    Choose {
        /// Who decides.
        player: PlayerId,
        /// What for (`main_action`, `choose_target`...; scripts set it).
        prompt: String,
        /// The options, in a fixed order.
        options: Vec<Choice>,
        /// Fewest options to pick.
        min: u32,
        /// Most options to pick.
        max: u32,
    },
    /// Choose an integer in `min..=max`.
    Number {
        /// Who decides.
        player: PlayerId,
        /// What for.
        prompt: String,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
}

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    /// The chosen option indices (0-based, into `options`).
    Choose {
        /// Indices, distinct.
        indices: Vec<u32>,
    },
    /// The chosen number.
    Number {
        /// The value.
        value: i64,
    },
}

/// Why a response was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResponseError {
    /// No decision is pending (the game is over or not started).
    NothingPending,
    /// The response came from a player who is not deciding.
    WrongPlayer {
        /// Who must decide.
        expected: PlayerId,
        /// Who answered.
        got: PlayerId,
    },
    /// The response does not fit the request.
    Illegal(String),
    /// No such seat (players are 0..players).
    NoSuchPlayer {
        /// The seat given.
        player: PlayerId,
        /// How many seats the game has.
        players: u8,
    },
}

impl std::fmt::Display for ResponseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResponseError::NothingPending => write!(f, "no decision is pending"),
            ResponseError::WrongPlayer { expected, got } => write!(
                f,
                "player {} answered, but player {} is deciding",
                got + 1,
                expected + 1
            ),
            ResponseError::Illegal(m) => write!(f, "illegal response: {m}"),
            ResponseError::NoSuchPlayer { player, players } => write!(
                f,
                "there is no player {} (players are 1..{players})",
                *player as u32 + 1
            ),
        }
    }
}

impl std::error::Error for ResponseError {}

impl Request {
    /// The player who decides.
    pub fn player(&self) -> PlayerId {
        match self {
            Request::Choose { player, .. } | Request::Number { player, .. } => *player,
        }
    }

    /// The prompt.
    pub fn prompt(&self) -> &str {
        match self {
            Request::Choose { prompt, .. } | Request::Number { prompt, .. } => prompt,
        }
    }

    /// Checks a response against this request.
    pub fn check(&self, r: &Response) -> Result<(), ResponseError> {
        match (self, r) {
            (
                Request::Choose {
                    options, min, max, ..
                },
                Response::Choose { indices },
            ) => {
                let n = indices.len() as u32;
                if n < *min || n > *max {
                    return Err(ResponseError::Illegal(format!(
                        "choose between {min} and {max} options, not {n}"
                    )));
                }
                for (k, i) in indices.iter().enumerate() {
                    if *i as usize >= options.len() {
                        return Err(ResponseError::Illegal(format!(
                            "option {i} does not exist ({} options)",
                            options.len()
                        )));
                    }
                    if indices[..k].contains(i) {
                        return Err(ResponseError::Illegal(format!("option {i} chosen twice")));
                    }
                }
                Ok(())
            }
            (Request::Number { min, max, .. }, Response::Number { value }) => {
                if value < min || value > max {
                    Err(ResponseError::Illegal(format!(
                        "{value} is not in {min}..={max}"
                    )))
                } else {
                    Ok(())
                }
            }
            _ => Err(ResponseError::Illegal(
                "the response is of the wrong type".into(),
            )),
        }
    }

    /// The first legal response (what the `first` agent answers).
    pub fn first_legal(&self) -> Response {
        match self {
            Request::Choose { min, .. } => Response::Choose {
                indices: (0..(*min).max(1)).collect(),
            },
            Request::Number { min, .. } => Response::Number { value: *min },
        }
        .fit(self)
    }

    /// A uniformly random legal response: a random count in `min..=max`, then a random
    /// subset of that size.
    pub fn random_legal(&self, rng: &mut Rng) -> Response {
        match self {
            Request::Choose {
                options, min, max, ..
            } => {
                let hi = (*max).min(options.len() as u32);
                let lo = (*min).min(hi);
                let k = lo + rng.below((hi - lo + 1) as u64) as u32;
                let mut all: Vec<u32> = (0..options.len() as u32).collect();
                rng.shuffle(&mut all);
                all.truncate(k as usize);
                all.sort();
                Response::Choose { indices: all }
            }
            Request::Number { min, max, .. } => {
                // In i128: `max - min` overflows i64 for a range wider than half of it.
                let span = *max as i128 - *min as i128 + 1;
                let offset = rng.below(u64::try_from(span).unwrap_or(u64::MAX)) as i128;
                Response::Number {
                    value: (*min as i128 + offset) as i64,
                }
            }
        }
    }

    /// Number of options of a choice (0 for a number).
    pub fn option_count(&self) -> usize {
        match self {
            Request::Choose { options, .. } => options.len(),
            Request::Number { .. } => 0,
        }
    }
}

impl Response {
    // Clamp a drafted response to what the request allows.
    fn fit(self, req: &Request) -> Response {
        match (self, req) {
            (Response::Choose { mut indices }, Request::Choose { options, max, .. }) => {
                indices.truncate((*max as usize).min(options.len()));
                Response::Choose { indices }
            }
            (r, _) => r,
        }
    }
}

/// A choice of player 0 between `n` plain options "o0", "o1", ..., for unit tests.
#[cfg(test)]
pub(crate) fn test_choice(n: usize, min: u32, max: u32) -> Request {
    Request::Choose {
        player: 0,
        prompt: "t".into(),
        options: (0..n)
            .map(|i| Choice {
                label: format!("o{i}"),
                kind: None,
                card: None,
                target: None,
                data: vec![],
            })
            .collect(),
        min,
        max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use test_choice as choice;

    #[test]
    fn check_rejects_out_of_range_duplicates_and_counts() {
        let r = choice(3, 1, 2);
        assert!(r.check(&Response::Choose { indices: vec![0] }).is_ok());
        assert!(r.check(&Response::Choose { indices: vec![3] }).is_err());
        assert!(
            r.check(&Response::Choose {
                indices: vec![1, 1]
            })
            .is_err()
        );
        assert!(r.check(&Response::Choose { indices: vec![] }).is_err());
        assert!(
            r.check(&Response::Choose {
                indices: vec![0, 1, 2]
            })
            .is_err()
        );
        assert!(r.check(&Response::Number { value: 1 }).is_err());
    }

    #[test]
    fn random_and_first_are_legal() {
        let mut rng = Rng::new(9);
        for (n, min, max) in [(3, 1, 1), (5, 0, 3), (4, 2, 4), (1, 0, 1)] {
            let r = choice(n, min, max);
            assert!(r.check(&r.first_legal()).is_ok());
            for _ in 0..50 {
                assert!(r.check(&r.random_legal(&mut rng)).is_ok());
            }
        }
        let num = Request::Number {
            player: 0,
            prompt: "n".into(),
            min: -2,
            max: 2,
        };
        for _ in 0..20 {
            assert!(num.check(&num.random_legal(&mut rng)).is_ok());
        }
    }
}
