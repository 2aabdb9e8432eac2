//! The designer's question: what does an edit do to the win rates? The same job on the
//! content as it is and with a mod layered over it (the card or deck changed), on the same
//! seeds, and each rate's change with its 95% interval.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Job, Rate, Summary, run};

/// One rate before and after, and its change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// What the rate is of: `seat 1`, or a deck id.
    pub of: String,
    /// On the content as it is.
    pub before: Rate,
    /// With the change.
    pub after: Rate,
    /// after − before.
    pub change: f64,
    /// The change's 95% interval (Newcombe's hybrid score interval, from the two Wilson
    /// intervals): a change whose interval holds 0 may be noise.
    pub low: f64,
    /// Its upper bound.
    pub high: f64,
}

/// Both runs and what changed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Comparison {
    /// The job on the content as it is.
    pub before: Summary,
    /// The job with the change.
    pub after: Summary,
    /// Per seat, then per deck.
    pub changes: Vec<Change>,
}

/// The change from `a` to `b` with Newcombe's interval.
pub fn change(of: String, a: Rate, b: Rate) -> Change {
    let d = b.rate - a.rate;
    let low = d - ((b.rate - b.low).powi(2) + (a.high - a.rate).powi(2)).sqrt();
    let high = d + ((b.high - b.rate).powi(2) + (a.rate - a.low).powi(2)).sqrt();
    Change {
        of,
        before: a,
        after: b,
        change: d,
        low,
        high,
    }
}

/// Runs `job` as it is, then with `changed` (a mod folder) layered over its content.
/// Refused when the mod changes nothing the job reads (same content hash).
pub fn compare(job: &Job, changed: PathBuf, threads: usize) -> Result<Comparison, String> {
    let before = run(job, threads, |_| {})?;
    let mut with = job.clone();
    with.paths.push(changed.clone());
    let after = run(&with, threads, |_| {})?;
    if before.content_hash == after.content_hash {
        return Err(format!(
            "{}: the content is the same with it (a mod's sets replace cards only when their \
             set.yaml lists them in `overrides`)",
            changed.display()
        ));
    }
    let mut changes = Vec::new();
    for (i, (a, b)) in before.seats.iter().zip(&after.seats).enumerate() {
        changes.push(change(format!("seat {}", i + 1), *a, *b));
    }
    for (a, b) in before.decks.iter().zip(&after.decks) {
        changes.push(change(a.deck.clone(), a.rate, b.rate));
    }
    Ok(Comparison {
        before,
        after,
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::wilson;

    #[test]
    fn a_change_interval_holds_zero_only_when_it_may_be_noise() {
        // 50% to 60% of 100 games each: could be noise.
        let c = change("x".into(), wilson(50, 100), wilson(60, 100));
        assert!((c.change - 0.1).abs() < 1e-12);
        assert!(c.low < 0.0 && c.high > 0.1, "{c:?}");
        // 50% to 60% of 10,000 games each: not noise.
        let c = change("x".into(), wilson(5000, 10000), wilson(6000, 10000));
        assert!(c.low > 0.08 && c.high < 0.12, "{c:?}");
    }
}
