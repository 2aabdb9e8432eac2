//! Loops that players can stop: a ruleset that sets `loops: {declare: true}` lets the kernel
//! recognise a loop that passes through decisions, ask the players who can stop it how many
//! more times it runs, run it that many times by itself, and bar the choice that would start
//! it again, as some card games' loop rules ask.
//!
//! - **Fingerprint.** At every decision with two or more legal answers the kernel hashes the
//!   state and the request. Card objects count by card id and place (zone and position, or
//!   host and attachment index; in a zone not declared `ordered`, by contents alone), never
//!   by object number; timestamps, the random generator,
//!   the log and the operation counter are left out. The driver's frames are in it, with how
//!   many times each coroutine has been resumed (so two questions asked one after the other
//!   by one procedure never look alike); a coroutine's locals are not. The hash is computed
//!   only when it can matter (`fingerprint.rs`): a decision first gets a cheap shape, and
//!   keeps a copy of what the fingerprint reads until a later one shares that shape.
//! - **Detection.** The fingerprints of the current turn are kept (forgotten when the turn
//!   changes). When one repeats, the answers given between the two occurrences are one
//!   *iteration*; every player who had a choice in it can stop it.
//! - **Declaration.** Those players, the turn player first, then in turn order, answer a
//!   `Number` request with the prompt [`DECLARE_PROMPT`] (`0..=loops.max_count`). The smallest
//!   count wins; on a tie the earlier declarer's (the turn player's).
//! - **Replay.** The kernel answers the iteration's recorded answers that many times, then
//!   up to the stopping player's first choice in the iteration, and hands control back
//!   there with the recorded (loop-continuing) answer barred. If the game stops matching the
//!   recording (a fingerprint differs, a different player is asked), it hands control back
//!   at once, with nothing barred.
//! - **Barring.** For the rest of the turn, at a decision with the same fingerprint that
//!   player may not give that answer, unless it is their only legal one. A single choice
//!   loses that option (indices are renumbered, and mapped back when answered); a number
//!   loses an end value of its range. Other answers (several options at once, a number
//!   inside its range) cannot be taken out of a request and stay allowed.
//!
//! Everything lives in [`State`], so forks and replays from a snapshot repeat it exactly.

use std::rc::Rc;
use std::sync::Arc;

use crate::game::Game;
use crate::game::driver::Frame;
use crate::state::decisions::{Choice, Request, Response};
use crate::state::loops::{Answer, Declaring, Print};
use crate::state::{ObjId, PlayerId};

mod fingerprint;

/// The prompt of the kernel's "how many more times does the loop run?" request.
pub use crate::vocabulary::DECLARE_PROMPT;

/// Whether a request has two or more legal answers.
fn has_choice(req: &Request) -> bool {
    match req {
        Request::Choose {
            options, min, max, ..
        } => {
            let n = options.len() as u32;
            let hi = (*max).min(n);
            hi > *min || (hi == *min && *min > 0 && *min < n)
        }
        Request::Number { min, max, .. } => max > min,
    }
}

/// The request with `barred` taken out, and the map from shown to own indices; None when
/// that answer cannot be taken out, or taking it out would leave no legal answer. Options
/// `same` as the barred one go too (another copy of the same card does the same thing).
fn bar(
    req: &Request,
    barred: &Response,
    same: &dyn Fn(&Choice, &Choice) -> bool,
) -> Option<(Request, Option<Vec<u32>>)> {
    match (req, barred) {
        (
            Request::Choose {
                player,
                prompt,
                options,
                min,
                max,
            },
            Response::Choose { indices },
        ) if *max <= 1 => match indices.as_slice() {
            [k] if (*k as usize) < options.len() => {
                let gone = &options[*k as usize];
                let keep: Vec<u32> = (0..options.len() as u32)
                    .filter(|i| !same(&options[*i as usize], gone))
                    .collect();
                if keep.is_empty() && *min > 0 {
                    return None; // unless forced
                }
                let shown = Request::Choose {
                    player: *player,
                    prompt: prompt.clone(),
                    options: keep.iter().map(|i| options[*i as usize].clone()).collect(),
                    min: (*min).min(keep.len() as u32),
                    max: *max,
                };
                Some((shown, Some(keep)))
            }
            [] if !options.is_empty() => {
                let mut shown = req.clone();
                if let Request::Choose { min, .. } = &mut shown {
                    *min = 1;
                }
                Some((shown, None))
            }
            _ => None,
        },
        (
            Request::Number {
                player,
                prompt,
                min,
                max,
            },
            Response::Number { value },
        ) if max > min && (value == min || value == max) => {
            let (lo, hi) = if value == min {
                (min + 1, *max)
            } else {
                (*min, max - 1)
            };
            Some((
                Request::Number {
                    player: *player,
                    prompt: prompt.clone(),
                    min: lo,
                    max: hi,
                },
                None,
            ))
        }
        _ => None,
    }
}

impl Game {
    fn loops_on(&self) -> bool {
        let l = &self.engine.db.rules.manifest.loops;
        l.declare || l.forbid
    }

    /// The driver stopped at a new request: fingerprint it, bar what is barred, and start a
    /// declaration when it closes a loop.
    pub(crate) fn loop_request(&mut self) {
        if !self.loops_on() {
            return;
        }
        let Some(req) = self.request.clone() else {
            return;
        };
        let rules = &self.engine.db.rules;
        let print = {
            let st = self.state.borrow();
            has_choice(&req).then(|| Rc::new(Print::new(&st, rules, &self.frames, req.clone())))
        };
        let mut st = self.state.borrow_mut();
        let turn = st.turn;
        let l = Arc::make_mut(&mut st.loops);
        if l.turn != turn {
            l.turn = turn;
            l.answers.clear();
            l.seen.clear();
            l.barred.clear();
        }
        l.current = print.clone();
        l.remap = None;
        let Some(print) = print else {
            return;
        };
        if l.replaying {
            return;
        }
        // The latest earlier decision with this fingerprint: only one with the same shape
        // can have it.
        let earlier = l.seen.get(&print.shape()).and_then(|same_shape| {
            same_shape
                .iter()
                .rev()
                .find(|(_, p)| p.full(rules) == print.full(rules))
                .map(|(i, _)| *i)
        });
        if let Some(i) = earlier
            && rules.manifest.loops.forbid
        {
            // The answer that started the loop is barred here for the rest of the turn: the
            // player must do something else (or pass) this time.
            // (The fingerprint includes who is asked, so it is the same player.)
            let first = Answer::clone(&l.answers[i]);
            l.barred
                .push((print.full(rules), first.player, first.response));
        } else if let Some(i) = earlier {
            // 11-1-1-2 / 11-1-1-3: who had a choice in the iteration can stop it; the turn
            // player declares first, then the others in turn order (1-3-4).
            let iteration: Vec<Answer> = l.answers[i..].iter().map(|a| (**a).clone()).collect();
            let order: Vec<PlayerId> = st.turn_order();
            let players: Vec<PlayerId> = order
                .into_iter()
                .filter(|p| iteration.iter().any(|a| a.player == *p && a.fp.is_some()))
                .collect();
            let max = rules.manifest.loops.max_count as i64;
            let Some(&first) = players.first() else {
                return; // everyone who had a choice in it has left the game
            };
            let l = Arc::make_mut(&mut st.loops);
            l.declaring = Some(Declaring {
                held: req,
                iteration,
                players,
                counts: Vec::new(),
            });
            drop(st);
            self.request = Some(Rc::new(declare_request(first, max)));
            return;
        }
        let at = l.answers.len();
        Rc::make_mut(l.seen.entry(print.shape()).or_default()).push((at, print.clone()));
        // A bar applies where the fingerprint is the same: computed only if the player has one.
        let player = req.player();
        let bars: Vec<Response> = if l.barred.iter().any(|(_, p, _)| *p == player) {
            let fp = print.full(rules);
            l.barred
                .iter()
                .filter(|(f, p, _)| *f == fp && *p == player)
                .map(|(_, _, r)| r.clone())
                .collect()
        } else {
            Vec::new()
        };
        drop(st);
        self.apply_bars(&req, &bars);
    }

    fn apply_bars(&mut self, req: &Request, bars: &[Response]) {
        if bars.is_empty() {
            return;
        }
        let mut shown = req.clone();
        let mut map: Option<Vec<u32>> = None;
        for b in bars {
            // A bar on an already renumbered request: map the barred index to the shown one.
            let b = match (b, &map) {
                (Response::Choose { indices }, Some(m)) => {
                    let shown: Vec<u32> = indices
                        .iter()
                        .filter_map(|i| m.iter().position(|x| x == i).map(|p| p as u32))
                        .collect();
                    if shown.len() < indices.len() {
                        continue; // already gone with an earlier bar
                    }
                    Response::Choose { indices: shown }
                }
                _ => b.clone(),
            };
            let same = |a: &Choice, b: &Choice| {
                let st = self.state.borrow();
                let card = |id: Option<ObjId>| id.map(|i| st.obj(i).card);
                a.label == b.label
                    && a.kind == b.kind
                    && card(a.card) == card(b.card)
                    && card(a.target) == card(b.target)
                    && a.data == b.data
            };
            if let Some((r, m)) = bar(&shown, &b, &same) {
                shown = r;
                if let Some(m) = m {
                    map = Some(match map {
                        Some(old) => m.iter().map(|i| old[*i as usize]).collect(),
                        None => m,
                    });
                }
            }
        }
        if shown != *req {
            self.request = Some(Rc::new(shown));
            Arc::make_mut(&mut self.state.borrow_mut().loops).remap = map;
        }
    }

    /// An answer on its way to the driver. Returns what the driver gets (a barred option's
    /// index mapped back), or None when the kernel took the answer (a loop declaration).
    pub(crate) fn loop_answer(&mut self, player: PlayerId, response: Response) -> Option<Response> {
        if !self.loops_on() {
            return Some(response);
        }
        let mut st = self.state.borrow_mut();
        let l = Arc::make_mut(&mut st.loops);
        if let Some(d) = &mut l.declaring {
            let Response::Number { value } = response else {
                return None;
            };
            d.counts.push(value);
            if d.counts.len() < d.players.len() {
                let next = d.players[d.counts.len()];
                let max = self.engine.db.rules.manifest.loops.max_count as i64;
                drop(st);
                self.request = Some(Rc::new(declare_request(next, max)));
                return None;
            }
            let d = l.declaring.take().expect("declaring");
            drop(st);
            self.run_loop(d);
            return None;
        }
        let response = match (&l.remap, response) {
            (Some(m), Response::Choose { indices }) => Response::Choose {
                indices: indices.iter().map(|i| m[*i as usize]).collect(),
            },
            (_, r) => r,
        };
        l.remap = None;
        if !l.replaying {
            l.answers.push(Rc::new(Answer {
                player,
                response: response.clone(),
                fp: l.current.clone(),
            }));
        }
        Some(response)
    }

    /// Runs a declared loop: the smallest count (the earliest declarer's on a tie) times,
    /// then up to its declarer's first choice, where the loop's answer is barred.
    fn run_loop(&mut self, d: Declaring) {
        let (k, n) = d
            .counts
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| **c)
            .map(|(k, c)| (k, *c as usize))
            .expect("a count");
        let stopper = d.players[k];
        let it = d.iteration;
        let stop = it
            .iter()
            .position(|a| a.player == stopper && a.fp.is_some())
            .expect("the declarer had a choice");
        self.request = Some(d.held);
        Arc::make_mut(&mut self.state.borrow_mut().loops).replaying = true;
        let mut followed = true;
        let db = self.engine.db.clone();
        let rules = &db.rules;
        for s in 0..n * it.len() + stop {
            let a = &it[s % it.len()];
            let current = self.state.borrow().loops.current.clone();
            let ok = self.state.borrow().result.is_none()
                && self
                    .request
                    .as_ref()
                    .is_some_and(|r| r.player() == a.player && r.check(&a.response).is_ok())
                && Print::same(current.as_deref(), a.fp.as_deref(), rules);
            if !ok {
                followed = false;
                break;
            }
            if s % it.len() == 0 {
                // Each declared iteration is a finite step: the loop guard restarts.
                self.state.borrow_mut().ops_since_decision = 0;
            }
            self.answer_recorded(a.player, a.response.clone());
        }
        let mut st = self.state.borrow_mut();
        let over = st.result.is_some();
        let l = Arc::make_mut(&mut st.loops);
        l.replaying = false;
        l.answers.clear();
        l.seen.clear();
        let Some(req) = self.request.clone() else {
            return;
        };
        let Some(print) = l.current.clone() else {
            return;
        };
        l.seen
            .insert(print.shape(), Rc::new(vec![(0, print.clone())]));
        if !followed || over || !Print::same(Some(&print), it[stop].fp.as_deref(), rules) {
            return;
        }
        // 11-1-1-2: the stopping player may not start the loop again from this state.
        let r = it[stop].response.clone();
        let fp = print.full(rules);
        l.barred.push((fp, stopper, r.clone()));
        let bars: Vec<Response> = l
            .barred
            .iter()
            .filter(|(f, p, _)| *f == fp && *p == stopper)
            .map(|(_, _, r)| r.clone())
            .collect();
        drop(st);
        self.apply_bars(&req, &bars);
    }

    /// The kernel answers a recorded answer itself (not journaled: a fork's replay of the
    /// declaration repeats it).
    fn answer_recorded(&mut self, player: PlayerId, response: Response) {
        let quiescent = !self.frames.iter().any(Frame::holds_lua);
        self.answer(player, response, quiescent);
    }
}

fn declare_request(player: PlayerId, max: i64) -> Request {
    Request::Number {
        player,
        prompt: DECLARE_PROMPT.into(),
        min: 0,
        max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::state::decisions::test_choice as choose;

    fn same(a: &Choice, b: &Choice) -> bool {
        a == b
    }

    #[test]
    fn a_choice_is_two_or_more_legal_answers() {
        assert!(has_choice(&choose(2, 1, 1)));
        assert!(has_choice(&choose(1, 0, 1)));
        assert!(!has_choice(&choose(1, 1, 1)));
        assert!(!has_choice(&choose(3, 3, 3)));
        let n = |min, max| Request::Number {
            player: 0,
            prompt: "n".into(),
            min,
            max,
        };
        assert!(has_choice(&n(0, 1)));
        assert!(!has_choice(&n(2, 2)));
    }

    #[test]
    fn a_barred_option_goes_unless_it_is_the_only_answer() {
        let (shown, map) = bar(
            &choose(3, 1, 1),
            &Response::Choose { indices: vec![1] },
            &same,
        )
        .expect("barred");
        assert_eq!(shown.option_count(), 2);
        assert_eq!(map, Some(vec![0, 2]));
        // Forced: the only option of a compulsory choice stays.
        assert!(
            bar(
                &choose(1, 1, 1),
                &Response::Choose { indices: vec![0] },
                &same
            )
            .is_none()
        );
        // "Up to 1": barring the one option leaves choosing none.
        let (shown, _) = bar(
            &choose(1, 0, 1),
            &Response::Choose { indices: vec![0] },
            &same,
        )
        .expect("barred");
        assert_eq!(shown.option_count(), 0);
        // Choosing nothing barred: one must be chosen.
        let (shown, map) = bar(
            &choose(2, 0, 1),
            &Response::Choose { indices: vec![] },
            &same,
        )
        .expect("barred");
        assert!(matches!(shown, Request::Choose { min: 1, .. }) && map.is_none());
        // Several at once cannot be taken out of a request.
        assert!(
            bar(
                &choose(3, 0, 2),
                &Response::Choose { indices: vec![0] },
                &same
            )
            .is_none()
        );
    }

    #[test]
    fn a_barred_number_narrows_the_range_at_its_ends_only() {
        let n = Request::Number {
            player: 0,
            prompt: "n".into(),
            min: 0,
            max: 3,
        };
        let lo = bar(&n, &Response::Number { value: 0 }, &same).expect("barred");
        assert!(matches!(lo.0, Request::Number { min: 1, max: 3, .. }));
        let hi = bar(&n, &Response::Number { value: 3 }, &same).expect("barred");
        assert!(matches!(hi.0, Request::Number { min: 0, max: 2, .. }));
        assert!(bar(&n, &Response::Number { value: 2 }, &same).is_none());
    }
}
