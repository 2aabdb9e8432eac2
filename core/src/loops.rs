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
//!   by one procedure never look alike); a coroutine's locals are not.
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

use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

use crate::game::Game;
use crate::game::driver::{Frame, TriggerStage, TurnStage};
use crate::rules::Rules;
use crate::state::decisions::{Choice, Request, Response};
use crate::state::loops::{Answer, Declaring};
use crate::state::values::Val;
use crate::state::{ObjId, PlayerId, State};

/// The prompt of the kernel's "how many more times does the loop run?" request.
pub const DECLARE_PROMPT: &str = "loop_count";

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

/// Hashes the state and a request, with card objects identified by card id and place. In
/// a zone the ruleset does not declare `ordered`, the cards' order is not game information:
/// they count in an order of their own contents, so a loop that only reorders them repeats.
pub(crate) fn fingerprint(rules: &Rules, st: &State, frames: &[Frame], req: &Request) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    // An ordered zone's cards as they are; an unordered one's sorted (a copy).
    let zones: Vec<std::borrow::Cow<[ObjId]>> = st
        .zones
        .iter()
        .map(|z| {
            if rules.zones[z.decl as usize].1.ordered || z.cards.len() < 2 {
                return std::borrow::Cow::Borrowed(z.cards.as_slice());
            }
            // Contents without places: the card ids of the object and its attachments.
            let mut cards = z.cards.clone();
            let by_card = |id: ObjId| (0, st.obj(id).card);
            cards.sort_by_cached_key(|id| {
                let mut d = rustc_hash::FxHasher::default();
                hash_object(st, &by_card, *id, &mut d);
                d.finish()
            });
            std::borrow::Cow::Owned(cards)
        })
        .collect();
    // Canonical numbers: zones in order, each card then its attachments.
    let mut canon = vec![u32::MAX; st.objects.len()];
    let mut next = 0u32;
    fn number(st: &State, canon: &mut [u32], next: &mut u32, id: ObjId) {
        if canon[id.0 as usize] != u32::MAX {
            return;
        }
        canon[id.0 as usize] = *next;
        *next += 1;
        for a in &st.obj(id).attachments {
            number(st, canon, next, *a);
        }
    }
    for cards in &zones {
        for id in cards.iter() {
            number(st, &mut canon, &mut next, *id);
        }
    }
    // An object off the board (gone) counts by its card id alone.
    let key = |id: ObjId| -> (u32, u32) {
        let c = canon.get(id.0 as usize).copied().unwrap_or(u32::MAX);
        (
            c,
            st.objects.get(id.0 as usize).map_or(u32::MAX, |o| o.card),
        )
    };
    (st.turn, st.turn_player, st.phase).hash(&mut h);
    (st.round, st.seats.direction).hash(&mut h);
    for cards in &zones {
        cards.len().hash(&mut h);
        for id in cards.iter() {
            hash_object(st, &key, *id, &mut h);
        }
    }
    for p in st.players.iter() {
        (&p.values, p.out).hash(&mut h);
    }
    st.game_values.hash(&mut h);
    for e in st.effects.iter() {
        (e.controller, e.source.map(key), e.characteristic.0).hash(&mut h);
        match e.target {
            crate::state::effects::Target::Obj(o) => (0u8, key(o)).hash(&mut h),
            crate::state::effects::Target::Player(p) => (1u8, p).hash(&mut h),
        }
        use crate::state::effects::Modify::*;
        match &e.modify {
            SetBase(v) => (0u8, v).hash(&mut h),
            Add(v) => (1u8, v).hash(&mut h),
            Set(v) => (2u8, v).hash(&mut h),
            Grant(s) => (3u8, s.0).hash(&mut h),
            Revoke(s) => (4u8, s.0).hash(&mut h),
            SetNames(l) => (5u8, l).hash(&mut h),
        }
        e.layer.hash(&mut h);
        e.expiry
            .map(|x| (x.point.0, x.player, x.after_turn))
            .hash(&mut h);
        if !e.persists_in.is_empty() {
            e.persists_in.hash(&mut h);
        }
    }
    for g in st.grants.iter() {
        (g.ability, g.host.map(key), g.source.map(key)).hash(&mut h);
        (g.controller, g.once).hash(&mut h);
        g.expiry
            .map(|x| (x.point.0, x.player, x.after_turn))
            .hash(&mut h);
        if !g.persists_in.is_empty() {
            g.persists_in.hash(&mut h);
        }
    }
    for u in st.usage.iter() {
        u.hash(&mut h);
    }
    for b in st.pending.iter() {
        b.items.len().hash(&mut h);
        for p in &b.items {
            (p.ability, p.source.map(key), p.controller).hash(&mut h);
            let e = &p.event;
            (&e.name, e.card.map(key), e.old.map(key), e.from, e.to).hash(&mut h);
            (e.player, &e.reason, &e.key, e.amount).hash(&mut h);
            for (k, v) in &e.data {
                k.hash(&mut h);
                hash_val(v, &key, &mut h);
            }
        }
    }
    // The driver's stack, as far as Rust sees it (a coroutine's locals are not hashed; the
    // replay checks that the game follows the recording).
    for f in frames {
        match f {
            Frame::Turns(s) => {
                let (k, i) = match s {
                    TurnStage::Setup => (0, 0),
                    TurnStage::SetupDone => (1, 0),
                    TurnStage::TurnStart => (2, 0),
                    TurnStage::PhaseStart(i) => (3, *i),
                    TurnStage::PhaseRan(i) => (4, *i),
                    TurnStage::PhaseAsk(i) => (5, *i),
                    TurnStage::ActionDone(i) => (6, *i),
                    TurnStage::PhaseFinish(i) => (7, *i),
                    TurnStage::PhaseFinished(i) => (8, *i),
                };
                (0u8, k as u8, i).hash(&mut h);
            }
            Frame::Lua(l) => (1u8, &l.label, l.resumes).hash(&mut h),
            Frame::Ops(o) => (2u8, o.ops.len(), o.next).hash(&mut h),
            Frame::Triggers(t) => {
                let (k, p) = match t {
                    TriggerStage::Pick => (0u8, 0),
                    TriggerStage::Asked(p) => (1, *p),
                    TriggerStage::Resolving => (2, 0),
                };
                (3u8, k, p).hash(&mut h);
            }
            Frame::Checks(c) => (4u8, c.each_op, c.next).hash(&mut h),
            Frame::Window(w) => (5u8, &w.prompt, w.turn, w.passes).hash(&mut h),
            Frame::Procedure(p) => {
                (6u8, p.proc, p.step, p.stage as u8, p.stopping).hash(&mut h);
                for (k, v) in &p.data {
                    k.hash(&mut h);
                    hash_val(v, &key, &mut h);
                }
            }
        }
    }
    match req {
        Request::Choose {
            player,
            prompt,
            options,
            min,
            max,
        } => {
            (0u8, player, prompt, min, max, options.len()).hash(&mut h);
            for o in options {
                (&o.label, &o.kind, o.card.map(key), o.target.map(key)).hash(&mut h);
                for (k, v) in &o.data {
                    k.hash(&mut h);
                    hash_val(v, &key, &mut h);
                }
            }
        }
        Request::Number {
            player,
            prompt,
            min,
            max,
        } => (1u8, player, prompt, min, max).hash(&mut h),
    }
    h.finish()
}

fn hash_object(st: &State, key: &impl Fn(ObjId) -> (u32, u32), id: ObjId, h: &mut impl Hasher) {
    let o = st.obj(id);
    // The small fields packed into words: fewer hasher rounds per card.
    h.write_u64(
        o.card as u64
            | (o.owner as u64) << 32
            | (o.controller as u64) << 40
            | (o.face_up as u64) << 48
            | (o.token as u64) << 49,
    );
    h.write_u64(o.orientation.0 as u64 | (o.entered_turn as u64) << 32);
    h.write_u64(o.flags);
    h.write_u32(o.revealed);
    if !o.counters.is_empty() {
        o.counters.hash(h);
    }
    for (k, t, n) in &o.uses {
        if *t == st.turn {
            (k, n).hash(h);
        }
    }
    o.attachments.len().hash(h);
    for a in &o.attachments {
        key(*a).hash(h);
        hash_object(st, key, *a, h);
    }
}

fn hash_val(v: &Val, key: &impl Fn(ObjId) -> (u32, u32), h: &mut impl Hasher) {
    match v {
        Val::Bool(b) => (0u8, b).hash(h),
        Val::Int(i) => (1u8, i).hash(h),
        Val::Card(c) => (2u8, key(c.card)).hash(h),
        Val::Player(p) => (3u8, p.player).hash(h),
        Val::Str(s) => (4u8, s).hash(h),
        Val::List(l) => {
            (5u8, l.len()).hash(h);
            for x in l {
                hash_val(x, key, h);
            }
        }
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
        let fp = {
            let st = self.state.borrow();
            let rules = &self.engine.db.rules;
            has_choice(&req).then(|| fingerprint(rules, &st, &self.frames, &req))
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
        l.current = fp;
        l.remap = None;
        let Some(fp) = fp else {
            return;
        };
        if l.replaying {
            return;
        }
        if let Some(&i) = l.seen.get(&fp)
            && self.engine.db.rules.manifest.loops.forbid
        {
            // The answer that started the loop is barred here for the rest of the turn: the
            // player must do something else (or pass) this time.
            // (The fingerprint includes who is asked, so it is the same player.)
            let first = l.answers[i].clone();
            l.barred.push((fp, first.player, first.response));
        } else if let Some(&i) = l.seen.get(&fp) {
            // 11-1-1-2 / 11-1-1-3: who had a choice in the iteration can stop it; the turn
            // player declares first, then the others in turn order (1-3-4).
            let iteration = l.answers[i..].to_vec();
            let order: Vec<PlayerId> = st.turn_order();
            let players: Vec<PlayerId> = order
                .into_iter()
                .filter(|p| iteration.iter().any(|a| a.player == *p && a.fp.is_some()))
                .collect();
            let max = self.engine.db.rules.manifest.loops.max_count as i64;
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
        l.seen.insert(fp, l.answers.len());
        let bars: Vec<Response> = l
            .barred
            .iter()
            .filter(|(f, p, _)| *f == fp && *p == req.player())
            .map(|(_, _, r)| r.clone())
            .collect();
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
            l.answers.push(Answer {
                player,
                response: response.clone(),
                fp: l.current,
            });
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
        for s in 0..n * it.len() + stop {
            let a = &it[s % it.len()];
            let current = self.state.borrow().loops.current;
            let ok = self.state.borrow().result.is_none()
                && self
                    .request
                    .as_ref()
                    .is_some_and(|r| r.player() == a.player && r.check(&a.response).is_ok())
                && current == a.fp;
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
        let Some(fp) = l.current else {
            return;
        };
        l.seen.insert(fp, 0);
        if !followed || over || l.current != it[stop].fp {
            return;
        }
        // 11-1-1-2: the stopping player may not start the loop again from this state.
        let r = it[stop].response.clone();
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
