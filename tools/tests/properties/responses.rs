//! Any response, from any seat, at any decision of a real One Piece game, of a real Gundam
//! game in each of its formats (two players, Battle Royal for 3 and 4, Team Battle), and of a
//! real Summoner Master game at each of its play levels:
//! an illegal one is refused and changes nothing, a legal one is accepted and advances the
//! game. Concessions
//! from any seat (0..=255) and forks are mixed in; the kernel's invariants hold after every
//! step and nothing panics. Most steps are random legal answers so that games go deep.

use std::rc::Rc;

use proptest::prelude::*;
use proptest::sample::Index;
use riffle_core::{
    DeckList, Engine, Game, GameConfig, MatchContext, OptionValue, Options, Request, Response,
    ResponseError, Rng,
};

thread_local! {
    // Built once per test thread: loading the content and compiling the scripts dominates.
    static ONEPIECE: (Rc<Engine>, Vec<DeckList>) = super::onepiece();
    static GUNDAM: (Rc<Engine>, Vec<DeckList>) = super::game("gundam");
    static SUMMONER_MASTER: (Rc<Engine>, Vec<DeckList>) = super::game("summoner-master");
}

/// One thing done to the game.
#[derive(Clone, Debug)]
enum Step {
    /// The deciding player answers with a random legal response (drawn from this seed).
    Legal(u64),
    /// A random legal response bent towards the edge of legality, from the deciding player.
    Bent(Bend, u64),
    /// Any response from any seat.
    Any(u8, Response),
    /// A seat concedes.
    Concede(u8),
    /// The game is forked; the fork and the original answer the same and must agree, and
    /// the fork plays on.
    Fork(u64),
}

#[derive(Clone, Copy, Debug)]
enum Bend {
    /// An index chosen twice.
    Duplicate,
    /// One index past the last option.
    PastTheEnd,
    /// u32::MAX as an index.
    HugeIndex,
    /// Every option, and one more.
    TooMany,
    /// No index at all.
    Empty,
    /// The number just above the range (saturating).
    Above,
    /// The number just below the range (saturating).
    Below,
    /// A number for a choice, a choice for a number.
    WrongType,
    /// The right answer from the next seat.
    OtherSeat,
}

fn index() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..8, 1 => any::<u32>(), 1 => Just(u32::MAX)]
}

fn number() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -3i64..40,
        2 => any::<i64>(),
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
    ]
}

fn response() -> impl Strategy<Value = Response> {
    prop_oneof![
        3 => prop_oneof![
            6 => prop::collection::vec(index(), 0..4),
            1 => prop::collection::vec(index(), 0..64),
        ]
        .prop_map(|indices| Response::Choose { indices }),
        1 => number().prop_map(|value| Response::Number { value }),
    ]
}

/// Mostly the game's seats (and the first one past them), sometimes any u8.
fn seat() -> impl Strategy<Value = u8> {
    prop_oneof![3 => 0u8..3, 1 => any::<u8>()]
}

fn bend() -> impl Strategy<Value = Bend> {
    use Bend::*;
    prop::sample::select(vec![
        Duplicate, PastTheEnd, HugeIndex, TooMany, Empty, Above, Below, WrongType, OtherSeat,
    ])
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        60 => any::<u64>().prop_map(Step::Legal),
        12 => (bend(), any::<u64>()).prop_map(|(b, s)| Step::Bent(b, s)),
        20 => (seat(), response()).prop_map(|(p, r)| Step::Any(p, r)),
        // Rare, and usually a seat the game does not have: a real concession ends the game.
        1 => prop_oneof![1 => 0u8..2, 3 => any::<u8>()].prop_map(Step::Concede),
        3 => any::<u64>().prop_map(Step::Fork),
    ]
}

/// Whether `r` from `player` answers `req`, decided here independently of the kernel's
/// own check: the right seat, the right type, a count in `min..=max` of distinct indices
/// that exist, or a number in `min..=max`.
fn legal(req: &Request, player: u8, r: &Response) -> bool {
    if req.player() != player {
        return false;
    }
    match (req, r) {
        (
            Request::Choose {
                options, min, max, ..
            },
            Response::Choose { indices },
        ) => {
            let mut seen = std::collections::BTreeSet::new();
            (*min as usize..=*max as usize).contains(&indices.len())
                && indices
                    .iter()
                    .all(|i| (*i as usize) < options.len() && seen.insert(*i))
        }
        (Request::Number { min, max, .. }, Response::Number { value }) => {
            (*min..=*max).contains(value)
        }
        _ => false,
    }
}

fn bent(req: &Request, how: Bend, seed: u64) -> (u8, Response) {
    let mut rng = Rng::new(seed);
    let legal = req.random_legal(&mut rng);
    let n = req.option_count() as u32;
    let player = req.player();
    let r = match (how, legal) {
        (Bend::OtherSeat, r) => return (player.wrapping_add(1), r),
        (Bend::WrongType, Response::Choose { .. }) => Response::Number { value: 0 },
        (Bend::WrongType, Response::Number { .. }) => Response::Choose { indices: vec![0] },
        (Bend::Duplicate, Response::Choose { mut indices }) => {
            indices.push(indices.first().copied().unwrap_or(0));
            indices.push(indices[0]);
            Response::Choose { indices }
        }
        (Bend::PastTheEnd, Response::Choose { mut indices }) => {
            indices.push(n);
            Response::Choose { indices }
        }
        (Bend::HugeIndex, Response::Choose { mut indices }) => {
            indices.push(u32::MAX);
            Response::Choose { indices }
        }
        (Bend::TooMany, Response::Choose { .. }) => Response::Choose {
            indices: (0..=n).collect(),
        },
        (Bend::Empty, Response::Choose { .. }) => Response::Choose { indices: vec![] },
        (Bend::Above | Bend::Below, Response::Choose { mut indices }) => {
            indices.pop();
            Response::Choose { indices }
        }
        (Bend::Above, Response::Number { .. }) => match req {
            Request::Number { max, .. } => Response::Number {
                value: max.saturating_add(1),
            },
            _ => unreachable!("a number answers a number request"),
        },
        (Bend::Below, Response::Number { .. }) => match req {
            Request::Number { min, .. } => Response::Number {
                value: min.saturating_sub(1),
            },
            _ => unreachable!("a number answers a number request"),
        },
        (_, Response::Number { value }) => Response::Choose {
            indices: vec![value as u32],
        },
    };
    (player, r)
}

/// What must not change when a response is refused.
#[derive(Debug, PartialEq)]
struct Seen {
    hash: String,
    request: Option<Request>,
    result: Option<riffle_core::GameResult>,
    turn: u32,
    errors: usize,
    objects: usize,
}

fn seen(g: &Game) -> Seen {
    Seen {
        hash: g.log_hash(),
        request: g.request().cloned(),
        result: g.result(),
        turn: g.turn(),
        errors: g.errors().len(),
        objects: g.object_count(),
    }
}

/// Sends `r` from `player` and checks the outcome against [`legal`].
fn answer(g: &mut Game, player: u8, r: Response) -> Result<(), TestCaseError> {
    let before = seen(g);
    let expected = g.request().map(|q| legal(q, player, &r));
    let got = g.respond(player, r.clone());
    match expected {
        None => prop_assert_eq!(got, Err(ResponseError::NothingPending)),
        Some(true) => {
            prop_assert!(got.is_ok(), "legal {:?} refused: {:?}", r, got);
            // The decision is logged, so the hash moves.
            prop_assert_ne!(g.log_hash(), before.hash);
        }
        Some(false) => {
            let err = got.expect_err("an illegal response was accepted");
            let deciding = before.request.as_ref().map(Request::player);
            match err {
                ResponseError::WrongPlayer { expected, got } => {
                    prop_assert_eq!(Some(expected), deciding);
                    prop_assert_eq!(got, player);
                    prop_assert_ne!(got, expected);
                }
                ResponseError::Illegal(m) => {
                    prop_assert_eq!(deciding, Some(player));
                    prop_assert!(!m.is_empty());
                }
                other => prop_assert!(false, "unexpected error {:?}", other),
            }
            prop_assert_eq!(seen(g), before, "a refused response changed the game");
        }
    }
    Ok(())
}

fn run(seed: u64, decks: (Index, Index), steps: Vec<Step>) -> Result<(), TestCaseError> {
    let (engine, lists) = ONEPIECE.with(|(e, d)| (e.clone(), d.clone()));
    let decks = vec![
        lists[decks.0.index(lists.len())].clone(),
        lists[decks.1.index(lists.len())].clone(),
    ];
    run_game(engine, decks, &Options::new(), seed, steps)
}

/// The formats of Gundam a case may play: seats and the `mode` option.
const GUNDAM_FORMATS: &[(usize, &str)] = &[
    (2, "standard"),
    (3, "battle-royal"),
    (4, "battle-royal"),
    (4, "team"),
];

fn run_gundam(
    seed: u64,
    format: Index,
    first: Index,
    steps: Vec<Step>,
) -> Result<(), TestCaseError> {
    let (engine, lists) = GUNDAM.with(|(e, d)| (e.clone(), d.clone()));
    let (n, mode) = GUNDAM_FORMATS[format.index(GUNDAM_FORMATS.len())];
    let start = first.index(lists.len());
    let decks = (0..n)
        .map(|k| lists[(start + k) % lists.len()].clone())
        .collect();
    let options: Options = [("mode".to_string(), OptionValue::Name(mode.to_string()))].into();
    run_game(engine, decks, &options, seed, steps)
}

/// The play levels of Summoner Master (SM 101.1), the `level` option.
const SUMMONER_MASTER_LEVELS: &[&str] = &["caller", "summoner", "beginner"];

fn run_summoner_master(
    seed: u64,
    level: Index,
    decks: (Index, Index),
    steps: Vec<Step>,
) -> Result<(), TestCaseError> {
    let (engine, lists) = SUMMONER_MASTER.with(|(e, d)| (e.clone(), d.clone()));
    let level = SUMMONER_MASTER_LEVELS[level.index(SUMMONER_MASTER_LEVELS.len())];
    let decks = vec![
        lists[decks.0.index(lists.len())].clone(),
        lists[decks.1.index(lists.len())].clone(),
    ];
    let options: Options = [("level".to_string(), OptionValue::Name(level.to_string()))].into();
    run_game(engine, decks, &options, seed, steps)
}

fn run_game(
    engine: Rc<Engine>,
    decks: Vec<DeckList>,
    options: &Options,
    seed: u64,
    steps: Vec<Step>,
) -> Result<(), TestCaseError> {
    let config = GameConfig {
        seed,
        decks,
        keep_log: false,
    };
    let mut g = Game::in_match(engine, config, options, &MatchContext::default())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    g.check_invariants().map_err(TestCaseError::fail)?;
    for (k, step) in steps.into_iter().enumerate() {
        match step {
            Step::Legal(s) => match g.request().cloned() {
                Some(req) => {
                    let r = req.random_legal(&mut Rng::new(s));
                    answer(&mut g, req.player(), r)?;
                }
                None => answer(&mut g, 0, Response::Choose { indices: vec![] })?,
            },
            Step::Bent(how, s) => match g.request().cloned() {
                Some(req) => {
                    let (p, r) = bent(&req, how, s);
                    answer(&mut g, p, r)?;
                }
                None => answer(&mut g, 0, Response::Number { value: 0 })?,
            },
            Step::Any(p, r) => answer(&mut g, p, r)?,
            Step::Concede(p) => {
                let before = seen(&g);
                let players = g.players();
                let got = g.concede(p);
                if p >= players {
                    prop_assert_eq!(got, Err(ResponseError::NoSuchPlayer { player: p, players }));
                    prop_assert_eq!(seen(&g), before);
                } else {
                    prop_assert_eq!(got, Ok(()));
                    if before.result.is_some() {
                        prop_assert_eq!(seen(&g), before, "conceding after the end changed it");
                    } else if players == 2 {
                        let result = g.result().expect("a two-player game ends on a concession");
                        prop_assert_eq!(result.winners, vec![1 - p]);
                        prop_assert!(g.request().is_none());
                    }
                    // Conceding again does nothing.
                    let again = seen(&g);
                    prop_assert_eq!(g.concede(p), Ok(()));
                    prop_assert_eq!(seen(&g), again);
                }
            }
            Step::Fork(s) => {
                let mut f = g.fork();
                prop_assert_eq!(seen(&f), seen(&g), "a fork differs from its original");
                if let Some(req) = g.request().cloned() {
                    let r = req.random_legal(&mut Rng::new(s));
                    prop_assert!(g.respond(req.player(), r.clone()).is_ok());
                    prop_assert!(f.respond(req.player(), r).is_ok());
                    prop_assert_eq!(
                        seen(&f),
                        seen(&g),
                        "answered alike, fork and original differ"
                    );
                }
                g = f;
            }
        }
        g.check_invariants()
            .map_err(|e| TestCaseError::fail(format!("after step {k}: {e}")))?;
        if g.result().is_some() {
            prop_assert!(g.request().is_none(), "the game is over but asks something");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(super::config(32))]

    #[test]
    fn any_response_is_refused_unchanged_or_accepted(
        seed in any::<u64>(),
        decks in (any::<Index>(), any::<Index>()),
        steps in prop::collection::vec(step(), 1..400),
    ) {
        run(seed, decks, steps)?;
    }

    #[test]
    fn any_response_in_a_gundam_game_of_any_format_is_refused_unchanged_or_accepted(
        seed in any::<u64>(),
        format in any::<Index>(),
        first in any::<Index>(),
        steps in prop::collection::vec(step(), 1..400),
    ) {
        run_gundam(seed, format, first, steps)?;
    }

    #[test]
    fn any_response_in_a_summoner_master_game_at_any_level_is_refused_unchanged_or_accepted(
        seed in any::<u64>(),
        level in any::<Index>(),
        decks in (any::<Index>(), any::<Index>()),
        steps in prop::collection::vec(step(), 1..400),
    ) {
        run_summoner_master(seed, level, decks, steps)?;
    }
}
