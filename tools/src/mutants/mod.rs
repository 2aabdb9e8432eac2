//! Mutation testing of card scripts (`riffle test --mutants`): a card's script is broken on
//! purpose, one way at a time, and the scenarios that name the card are run against it. A
//! mutant whose scenarios all still pass shows an effect no scenario checks.
//!
//! A mutant replaces one card's `Source` in content that was loaded once; only the engine
//! is built again for it (about as long as one `riffle test` start-up), and only the card's
//! scenarios are run, until one fails.

pub mod equivalent;
pub mod numbers;
pub mod plan;

use std::rc::Rc;

use riffle_core::{Content, Engine, Source};

use crate::scenario::File;

/// The script of an emptied card: it returns no abilities (the card keeps its YAML, so its
/// printed fields and plain keywords stay).
pub const EMPTIED: &str = "return {}\n";

/// Which mutants to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kinds {
    /// The emptied script, then each number changed.
    All,
    /// Only the emptied script.
    Emptied,
}

/// How a mutant differs from its card's script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The script returns no abilities.
    Emptied,
    /// One numeric literal changed.
    Number {
        /// 1-based line of the literal.
        line: usize,
        /// 1-based column of the literal, in characters.
        col: usize,
        /// The literal as written.
        from: String,
        /// What it became.
        to: String,
    },
}

impl Change {
    /// `line:col` of the change in the script (1:1 for an emptied script).
    pub fn position(&self) -> (usize, usize) {
        match self {
            Change::Emptied => (1, 1),
            Change::Number { line, col, .. } => (*line, *col),
        }
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Emptied => f.write_str("emptied script"),
            Change::Number { from, to, .. } => write!(f, "{from} -> {to}"),
        }
    }
}

/// A card's script changed one way.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// What changed.
    pub change: Change,
    /// The changed script's text.
    pub text: String,
    /// The reason its line gives for the change being equivalent (`-- mutant: equivalent,
    /// <reason>`, [`equivalent`]): no game can show it, so it is expected to survive.
    pub equivalent: Option<String>,
}

/// The mutants of a script: the emptied script first, then (with [`Kinds::All`]) each numeric
/// literal changed by [`numbers::changed`], in source order, each with the reason its line's
/// `-- mutant: equivalent` mark gives, if any. An error when the tokenizer cannot read the
/// script.
pub fn mutants(script: &str, kinds: Kinds) -> Result<Vec<Mutant>, numbers::LexError> {
    let mut out = vec![Mutant {
        change: Change::Emptied,
        text: EMPTIED.to_string(),
        equivalent: None,
    }];
    if kinds == Kinds::Emptied {
        return Ok(out);
    }
    let marked = equivalent::by_line(script)?;
    for lit in numbers::literals(script)? {
        let Some(to) = numbers::changed(&lit.text) else {
            continue;
        };
        let mut text = String::with_capacity(script.len() + 2);
        text.push_str(&script[..lit.start]);
        text.push_str(&to);
        text.push_str(&script[lit.end..]);
        out.push(Mutant {
            change: Change::Number {
                line: lit.line,
                col: lit.col,
                from: lit.text,
                to,
            },
            text,
            equivalent: marked.get(&lit.line).cloned(),
        });
    }
    Ok(out)
}

/// One scenario: a file and the scenario's index in it.
#[derive(Clone, Copy)]
pub struct ScenarioRef<'a> {
    /// The file.
    pub file: &'a File,
    /// The scenario's index in it.
    pub index: usize,
}

impl ScenarioRef<'_> {
    /// `path:line:col name` of the scenario.
    pub fn describe(&self) -> String {
        format!(
            "{} {}",
            self.file.scenario_at(self.index),
            self.file.name(self.index)
        )
    }
}

/// What became of a mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A scenario failed (`path:line:col name` of it, and its first failure).
    Caught {
        /// The scenario that failed.
        by: String,
        /// Its first failure.
        why: String,
    },
    /// The mutated content does not load (the engine's first error): every scenario would
    /// fail, and `riffle validate` reports it.
    DoesNotLoad(String),
    /// Every scenario still passes.
    Survived,
}

impl Verdict {
    /// Whether a test would have noticed the mutant.
    pub fn caught(&self) -> bool {
        !matches!(self, Verdict::Survived)
    }
}

/// Runs `scenarios` against `content` with card `card`'s script replaced by `text`, until one
/// fails. The content is given back as it was.
pub fn judge(
    content: &mut Content,
    card: usize,
    text: &str,
    scenarios: &[ScenarioRef<'_>],
) -> Verdict {
    let Some(def) = content.cards.get_mut(card) else {
        return Verdict::DoesNotLoad(format!("no card #{card}"));
    };
    let name = def
        .script
        .as_ref()
        .map_or_else(|| format!("{}.lua", def.id), |s| s.name.clone());
    let original = def.script.replace(Source {
        name,
        text: text.to_string(),
    });
    let verdict = match Engine::new(content) {
        Ok(engine) => run_until_one_fails(&engine, scenarios),
        Err(es) => Verdict::DoesNotLoad(
            es.first()
                .map_or_else(|| "the engine refused it".into(), ToString::to_string),
        ),
    };
    content.cards[card].script = original;
    verdict
}

fn run_until_one_fails(engine: &Rc<Engine>, scenarios: &[ScenarioRef<'_>]) -> Verdict {
    for s in scenarios {
        if let Some(o) = s.file.run_scenario(engine, s.index)
            && !o.passed()
        {
            return Verdict::Caught {
                by: s.describe(),
                why: o.failures.first().cloned().unwrap_or_default(),
            };
        }
    }
    Verdict::Survived
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_emptied_script_comes_first_then_each_number() {
        let src = "-- X-1 3000\nreturn card { on_play { don = 2, operate = function(ctx) draw(ctx, 1) end } }\n";
        let ms = mutants(src, Kinds::All).unwrap();
        let shown: Vec<String> = ms
            .iter()
            .map(|m| {
                let (l, c) = m.change.position();
                format!("{l}:{c}: {}", m.change)
            })
            .collect();
        assert_eq!(
            shown,
            ["1:1: emptied script", "2:31: 2 -> 3", "2:68: 1 -> 0"]
        );
        assert_eq!(ms[0].text, EMPTIED);
        assert!(ms[1].text.contains("don = 3,") && ms[1].text.starts_with("-- X-1 3000\n"));
        assert!(ms[2].text.contains("draw(ctx, 0)") && ms[2].text.contains("don = 2,"));
        assert_eq!(mutants(src, Kinds::Emptied).unwrap().len(), 1);
    }

    #[test]
    fn a_mark_makes_the_numbers_of_its_line_equivalent() {
        let src = "return card { on_play { don = 2, -- mutant: equivalent, no DON!! count shows\n  operate = function(ctx) draw(ctx, 1) end } }\n";
        let ms = mutants(src, Kinds::All).unwrap();
        let marked: Vec<Option<&str>> = ms.iter().map(|m| m.equivalent.as_deref()).collect();
        assert_eq!(marked, [None, Some("no DON!! count shows"), None]);
    }
}
