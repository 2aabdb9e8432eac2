//! The answers an agent that searches weighs: every legal answer when there are few, a
//! seeded sample when a choice of several cards has too many combinations to try.

use riffle_core::{Request, Response, Rng};

/// Most answers weighed at one decision. A pick of 3 cards among 20 has 1,351 legal
/// answers; trying each on a fork would cost more than the rest of the game.
pub const MOST_CANDIDATES: usize = 24;

/// The answers to weigh for `req`, distinct, the first legal answer always among them
/// (so an agent that finds nothing better plays as `first` would). Where the legal answers
/// are more than [`MOST_CANDIDATES`], the rest are drawn at random from `rng`. A number
/// is weighed at its bounds and a few points between.
pub fn candidates(req: &Request, rng: &mut Rng) -> Vec<Response> {
    let mut out = vec![req.first_legal()];
    let add = |r: Response, out: &mut Vec<Response>| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    match req {
        Request::Choose {
            options, min, max, ..
        } => {
            let n = options.len() as u32;
            let hi = (*max).min(n);
            let lo = (*min).min(hi);
            if combinations(n, lo, hi) <= MOST_CANDIDATES as u64 {
                for k in lo..=hi {
                    each_subset(n, k, &mut |s| {
                        add(Response::Choose { indices: s }, &mut out)
                    });
                }
            } else {
                // Seeded draws; a fixed number of tries, as duplicates are skipped.
                for _ in 0..MOST_CANDIDATES * 4 {
                    if out.len() >= MOST_CANDIDATES {
                        break;
                    }
                    add(req.random_legal(rng), &mut out);
                }
            }
        }
        Request::Number { min, max, .. } => {
            for value in crate::actions::spread(*min, *max, MOST_CANDIDATES) {
                add(Response::Number { value }, &mut out);
            }
        }
    }
    out
}

/// How many ways to pick from `lo` to `hi` of `n` options, saturating past `u64::MAX`.
fn combinations(n: u32, lo: u32, hi: u32) -> u64 {
    (lo..=hi)
        .map(|k| {
            let k = k.min(n - k) as u64;
            let mut c: u64 = 1;
            for i in 0..k {
                // C(n, i + 1) = C(n, i) * (n - i) / (i + 1): exact at every step.
                c = match c.checked_mul(n as u64 - i) {
                    Some(x) => x / (i + 1),
                    None => return u64::MAX,
                };
            }
            c
        })
        .fold(0u64, |a, c| a.saturating_add(c))
}

/// Calls `f` with every `k`-subset of `0..n`, in increasing order.
fn each_subset(n: u32, k: u32, f: &mut impl FnMut(Vec<u32>)) {
    fn go(start: u32, n: u32, k: u32, cur: &mut Vec<u32>, f: &mut impl FnMut(Vec<u32>)) {
        if cur.len() as u32 == k {
            f(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, f);
            cur.pop();
        }
    }
    go(0, n, k, &mut Vec::new(), f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use riffle_core::Choice;

    fn choose(n: usize, min: u32, max: u32) -> Request {
        let options = (0..n)
            .map(|i| Choice {
                label: format!("option {i}"),
                kind: None,
                card: None,
                target: None,
                data: Vec::new(),
            })
            .collect();
        Request::Choose {
            player: 0,
            prompt: "p".into(),
            options,
            min,
            max,
        }
    }

    #[test]
    fn few_answers_are_all_weighed() {
        let c = candidates(&choose(4, 0, 2), &mut Rng::new(1));
        // 1 empty + 4 singles + 6 pairs.
        assert_eq!(c.len(), 11);
        for r in &c {
            choose(4, 0, 2).check(r).unwrap();
        }
        assert_eq!(c[0], choose(4, 0, 2).first_legal());
    }

    #[test]
    fn many_answers_are_sampled_legal_and_distinct() {
        let req = choose(20, 3, 3);
        let c = candidates(&req, &mut Rng::new(7));
        assert_eq!(c.len(), MOST_CANDIDATES);
        for (i, r) in c.iter().enumerate() {
            req.check(r).unwrap();
            assert!(!c[..i].contains(r), "a repeated answer: {r:?}");
        }
    }

    #[test]
    fn numbers_are_weighed_at_both_bounds() {
        let req = Request::Number {
            player: 0,
            prompt: "p".into(),
            min: -5,
            max: 1000,
        };
        let c = candidates(&req, &mut Rng::new(1));
        assert!(c.contains(&Response::Number { value: -5 }));
        assert!(c.contains(&Response::Number { value: 1000 }));
        assert!(c.len() <= MOST_CANDIDATES);
        let wide = Request::Number {
            player: 0,
            prompt: "p".into(),
            min: i64::MIN,
            max: i64::MAX,
        };
        for r in candidates(&wide, &mut Rng::new(1)) {
            wide.check(&r).unwrap();
        }
    }

    #[test]
    fn combinations_count_and_saturate() {
        assert_eq!(combinations(4, 0, 2), 11);
        assert_eq!(combinations(20, 3, 3), 1140);
        assert_eq!(combinations(200, 0, 200), u64::MAX);
    }
}
