//! Generated scenario files, plausible but often wrong (unknown keys, wrong types, huge and
//! negative numbers, player numbers the game does not have), run the way `riffle test` runs
//! them (`scenario::File::read`, then `File::run` on the One Piece engine). Nothing may
//! panic; a file is read or refused with `path:line:col` messages, and every scenario of a
//! file that was read ends passed or failed with messages.

use std::rc::Rc;

use proptest::prelude::*;
use riffle::scenario::File;
use riffle_core::Engine;

use crate::common::Fixture;

thread_local! {
    static ENGINE: Rc<Engine> = super::onepiece().0;
}

// Every generator returns a boxed strategy: nested unboxed unions make debug-build stack
// frames big enough to overflow a test thread's 2 MB stack.

/// A YAML node, written in flow style so that any nesting is one line.
#[derive(Clone, Debug)]
enum Y {
    /// A plain scalar written as is: numbers of every size and form, booleans, nulls.
    Raw(String),
    /// A double-quoted string.
    Str(String),
    Seq(Vec<Y>),
    Map(Vec<(String, Y)>),
}

impl Y {
    fn write(&self, out: &mut String) {
        match self {
            Y::Raw(s) => out.push_str(s),
            // JSON's string escapes are valid in a YAML double-quoted scalar.
            Y::Str(s) => out.push_str(&serde_json::to_string(s).expect("a string")),
            Y::Seq(items) => {
                out.push('[');
                for (i, y) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    y.write(out);
                }
                out.push(']');
            }
            Y::Map(entries) => {
                out.push('{');
                for (i, (k, y)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&serde_json::to_string(k).expect("a key"));
                    out.push_str(": ");
                    y.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// A mapping without repeated keys (a repeated key is a YAML error: the file would be
/// refused before any scenario runs).
fn unique(entries: Vec<(String, Y)>) -> Y {
    let mut seen = std::collections::BTreeSet::new();
    Y::Map(
        entries
            .into_iter()
            .filter(|(k, _)| seen.insert(k.clone()))
            .collect(),
    )
}

fn map(entries: Vec<(&str, Y)>) -> Y {
    Y::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn s(text: &str) -> Y {
    Y::Str(text.to_string())
}

/// Numbers as a careless or hostile author writes them. Non-finite ones are rare: any of
/// them refuses the whole file, and the steps would seldom run.
fn num() -> BoxedStrategy<Y> {
    prop_oneof![
        60 => (-2i64..12).prop_map(|n| n.to_string()),
        20 => any::<i64>().prop_map(|n| n.to_string()),
        10 => any::<u64>().prop_map(|n| n.to_string()),
        20 => prop::sample::select(vec![
            "18446744073709551616", "-9223372036854775809", "99999999999999999999999999",
            "1.5", "-0", "0x10", "0o17", "1e3", "255", "256", "65536", "4294967296", "10000",
            "10001", "1000", "1001",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(vec!["1e400", "-1e400", ".inf", "-.inf", ".nan"])
            .prop_map(str::to_string),
    ]
    .prop_map(Y::Raw)
    .boxed()
}

/// Player numbers: mostly 1 and 2, often out of range or not numbers at all.
fn player() -> BoxedStrategy<Y> {
    prop_oneof![8 => (1i64..3).prop_map(|n| Y::Raw(n.to_string())), 2 => num(), 1 => junk()].boxed()
}

/// A value of the wrong kind for most keys.
fn junk() -> BoxedStrategy<Y> {
    prop_oneof![
        prop::sample::select(vec!["null", "true", "false", "~", "[]", "{}", "''"])
            .prop_map(|t| Y::Raw(t.to_string())),
        "[a-z~/ \\\\\"\n\t\u{0}-\u{1f}\u{7f}\u{202e}é]{0,12}".prop_map(Y::Str),
        num(),
    ]
    .boxed()
}

fn card_id() -> BoxedStrategy<String> {
    prop_oneof![
        8 => prop::sample::select(vec![
            "RF01-001", "RF01-002", "RF01-008", "RF01-015", "RF01-016", "RF01-017",
            "RF01-DON", "RF03-070", "RF02-025",
        ])
        .prop_map(str::to_string),
        1 => "[A-Z0-9-]{0,10}",
    ]
    .boxed()
}

fn zone() -> BoxedStrategy<String> {
    prop_oneof![
        8 => prop::sample::select(vec![
            "deck", "don_deck", "hand", "trash", "leader", "character", "stage", "cost", "life",
        ])
        .prop_map(str::to_string),
        1 => "[a-z_]{0,8}",
    ]
    .boxed()
}

/// A card line: `ID`, `ID xN` with N of any size, or a card map.
fn card_line() -> BoxedStrategy<Y> {
    prop_oneof![
        4 => card_id().prop_map(Y::Str),
        2 => (card_id(), prop_oneof![0i64..5, Just(1000), Just(1001), any::<i64>()])
            .prop_map(|(id, n)| Y::Str(format!("{id} x{n}"))),
        1 => (card_id(), num(), prop::sample::select(vec!["active", "rested", "sideways"]))
            .prop_map(|(id, n, o)| map(vec![
                ("card", Y::Str(id)), ("count", n), ("orientation", s(o)),
            ])),
        1 => junk(),
    ]
    .boxed()
}

fn zone_setup() -> BoxedStrategy<Y> {
    prop::collection::vec(
        (
            zone(),
            prop::collection::vec(card_line(), 0..4).prop_map(Y::Seq),
        ),
        0..3,
    )
    .prop_map(unique)
    .boxed()
}

/// `players:` of a scenario: keys any number (or text), each a zone setup.
fn players() -> BoxedStrategy<Y> {
    prop::collection::vec(
        (
            prop_oneof![3 => (1i64..3).prop_map(|n| n.to_string()), 1 => "-?[0-9]{1,22}"],
            prop_oneof![4 => zone_setup(), 1 => junk()],
        ),
        0..3,
    )
    .prop_map(unique)
    .boxed()
}

fn label() -> BoxedStrategy<Y> {
    prop_oneof![
        18 => prop::sample::select(vec![
            "no more counters", "end main phase", "yes", "no", "decline", "none", "",
            "pass", "no",
        ])
        .prop_map(s),
        1 => "[a-z ]{0,6}".prop_map(Y::Str),
        1 => junk(),
    ]
    .boxed()
}

fn choose() -> BoxedStrategy<Y> {
    let option = (
        prop::option::of(prop::sample::select(vec![
            "attack", "play", "activate", "counter", "block", "pass", "card",
        ])),
        prop::option::of(card_id()),
        prop::option::of(card_id()),
        prop::option::weighted(0.2, num()),
    )
        .prop_map(|(kind, card, target, nth)| {
            let mut m = Vec::new();
            if let Some(k) = kind {
                m.push(("kind", s(k)));
            }
            if let Some(c) = card {
                m.push(("card", Y::Str(c)));
            }
            if let Some(t) = target {
                m.push(("target", Y::Str(t)));
            }
            if let Some(n) = nth {
                m.push(("nth", n));
            }
            map(m)
        });
    prop_oneof![
        3 => label(),
        3 => option,
        1 => prop::collection::vec(label(), 0..4).prop_map(Y::Seq),
    ]
    .boxed()
}

fn expect() -> BoxedStrategy<Y> {
    let key = prop_oneof![
        prop_oneof![player(), Just(s("draw")), Just(s("none"))].prop_map(|v| ("winner", v)),
        prop_oneof![4 => prop::sample::select(vec!["true", "false"]).prop_map(|b| Y::Raw(b.into())), 1 => junk()]
            .prop_map(|v| ("over", v)),
        (player(), label(), num()).prop_map(|(p, l, n)| {
            (
                "request",
                map(vec![
                    ("player", p),
                    ("prompt", s("main")),
                    ("options", Y::Seq(vec![l])),
                    ("min", n),
                ]),
            )
        }),
        (
            player(),
            zone(),
            prop_oneof![
                num(),
                prop::collection::vec(card_line(), 0..3).prop_map(Y::Seq)
            ]
        )
            .prop_map(|(p, z, v)| {
                let key = match &p {
                    Y::Raw(t) => t.clone(),
                    _ => "1".into(),
                };
                ("zones", Y::Map(vec![(key, Y::Map(vec![(z, v)]))]))
            }),
        (player(), zone(), card_id(), num()).prop_map(|(p, z, c, n)| {
            (
                "cards",
                Y::Seq(vec![map(vec![
                    ("player", p),
                    ("zone", Y::Str(z)),
                    ("card", Y::Str(c)),
                    ("power", n),
                ])]),
            )
        }),
        (player(), zone(), num()).prop_map(|(p, z, n)| {
            (
                "view",
                map(vec![
                    ("player", p.clone()),
                    ("of", p),
                    ("zone", Y::Str(z)),
                    ("count", n),
                ]),
            )
        }),
        (player(), card_id()).prop_map(|(p, c)| {
            (
                "events_for",
                map(vec![("player", p), ("shows", Y::Seq(vec![Y::Str(c)]))]),
            )
        }),
        card_id().prop_map(|c| (
            "events",
            Y::Seq(vec![map(vec![("name", s("moved")), ("card", Y::Str(c))])])
        )),
        (card_id(), num()).prop_map(|(c, n)| {
            (
                "event_counts",
                Y::Seq(vec![map(vec![
                    ("name", s("moved")),
                    ("card", Y::Str(c)),
                    ("count", n),
                ])]),
            )
        }),
        prop_oneof![4 => "[a-z ]{0,6}".prop_map(Y::Str), 1 => junk()]
            .prop_map(|v| ("errors", Y::Seq(vec![v]))),
        // A misspelt key, rarely: it fails the scenario before it runs.
        prop_oneof![9 => Just(("winner", s("none"))), 1 => junk().prop_map(|v| ("expct", v))],
    ];
    prop::collection::vec(key, 1..4)
        .prop_map(|entries| {
            unique(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        })
        .boxed()
}

fn step() -> BoxedStrategy<Y> {
    let one = prop_oneof![
        16 => choose().prop_map(|c| map(vec![("choose", c)])),
        2 => (choose(), player()).prop_map(|(c, p)| map(vec![("choose", c), ("player", p)])),
        2 => num().prop_map(|n| map(vec![("number", n)])),
        2 => player().prop_map(|p| map(vec![("concede", p)])),
        4 => expect().prop_map(|e| map(vec![("expect", e)])),
        1 => prop_oneof![junk().prop_map(|j| map(vec![("chose", j)])), junk()],
    ];
    prop_oneof![
        4 => one.clone(),
        1 => (one, prop_oneof![3 => (0i64..4).prop_map(|n| Y::Raw(n.to_string())), 1 => num()])
            .prop_map(|(step, n)| match step {
                Y::Map(mut m) => {
                    m.push(("repeat".to_string(), n));
                    Y::Map(m)
                }
                other => other,
            }),
    ]
    .boxed()
}

fn scenario() -> BoxedStrategy<Y> {
    (
        "[a-zA-Z0-9 :]{0,12}",
        prop::option::weighted(0.3, prop_oneof![
            3 => players(),
            1 => junk(),
        ]),
        prop::option::weighted(0.3, prop_oneof![
            2 => (num(), player(), prop::sample::select(vec!["main", "refresh", "draw", "end", "nope"]))
                .prop_map(|(t, p, ph)| map(vec![("turn", t), ("player", p), ("phase", s(ph))])),
            1 => Just(s("setup")),
            1 => junk(),
        ]),
        prop::option::weighted(0.3, num()),
        prop::collection::vec(step(), 1..6),
        prop::option::weighted(0.85, expect()),
        prop::option::weighted(0.1, prop_oneof![
            (card_id(), num()).prop_map(|(c, n)| Y::Map(vec![
                ("leader".into(), Y::Seq(vec![s("RF01-001")])),
                ("main".into(), Y::Map(vec![(c, n)])),
            ])),
            junk(),
        ]),
        prop::option::weighted(0.05, ("[a-z_]{1,8}", junk())),
    )
        .prop_map(|(name, players, start, seed, steps, expect, deck, extra)| {
            let mut m = vec![("name".to_string(), Y::Str(name))];
            if let Some(p) = players {
                m.push(("players".into(), p));
            }
            if let Some(st) = start {
                m.push(("start".into(), st));
            }
            if let Some(sd) = seed {
                m.push(("seed".into(), sd));
            }
            m.push(("steps".into(), Y::Seq(steps)));
            if let Some(e) = expect {
                m.push(("expect".into(), e));
            }
            if let Some(d) = deck {
                m.push(("validate_deck".into(), d));
            }
            if let Some((k, v)) = extra {
                m.push((k, v));
            }
            Y::Map(m)
        })
    .boxed()
}

/// Defaults as the repository's rules scenarios write them (a valid base, so that steps run).
const DEFAULTS: &str = "defaults:\n  \
    seed: 1\n  \
    start: {turn: 3, player: 1, phase: main}\n  \
    game_values: {first_player: 1}\n  \
    players:\n    \
      1: {leader: RF01-001, deck: [\"RF01-008 x10\"], life: [\"RF01-008 x4\"], don_deck: [\"RF01-DON x4\"]}\n    \
      2: {leader: RF01-002, deck: [\"RF01-015 x10\"], life: [\"RF01-015 x5\"], don_deck: [\"RF01-DON x4\"]}\n";

fn file() -> BoxedStrategy<String> {
    (
        prop_oneof![12 => Just(DEFAULTS.to_string()), 1 => Just(String::new()), 1 => junk().prop_map(|j| {
            let mut t = "defaults: ".to_string();
            j.write(&mut t);
            t.push('\n');
            t
        })],
        prop::collection::vec(scenario(), 1..4),
        prop::option::weighted(0.05, ("[a-z]{1,8}", junk())),
    )
        .prop_map(|(defaults, scenarios, top)| {
            let mut text = format!("game: onepiece\n{defaults}scenarios:\n");
            for sc in scenarios {
                text.push_str("  - ");
                sc.write(&mut text);
                text.push('\n');
            }
            if let Some((k, v)) = top {
                text.push_str(&format!("{k}: "));
                v.write(&mut text);
                text.push('\n');
            }
            text
        })
    .boxed()
}

/// Reads and runs `text` as `s.test.yaml`: every line the run reports, checked for shape.
fn read_and_run(f: &Fixture, text: &str) -> Result<Vec<riffle::scenario::Outcome>, TestCaseError> {
    let path = f.path("s.test.yaml");
    std::fs::write(&path, text).expect("write the scenario");
    match File::read(&path) {
        Err(lines) => {
            prop_assert!(!lines.is_empty(), "a refused file says why");
            for l in &lines {
                prop_assert!(l.contains("s.test.yaml:"), "no position: {l}");
            }
            Ok(Vec::new())
        }
        Ok(file) => {
            let game = file.game();
            prop_assert_eq!(game.as_deref(), Some("onepiece"));
            let outcomes = ENGINE.with(|e| file.run(e, None));
            let doc = riffle_content::yaml::parse(text).expect("it was read");
            let n = doc.value["scenarios"].as_array().map_or(0, Vec::len);
            prop_assert_eq!(outcomes.len(), n, "one outcome per scenario");
            for o in &outcomes {
                for l in &o.failures {
                    prop_assert!(l.contains("s.test.yaml:"), "no position: {l}");
                    prop_assert!(!l.trim_end().ends_with(':'), "no message: {l}");
                }
            }
            Ok(outcomes)
        }
    }
}

proptest! {
    #![proptest_config(super::config(200))]

    #[test]
    fn generated_scenario_files_pass_or_fail_with_messages(text in file()) {
        let f = Fixture::empty();
        read_and_run(&f, &text)?;
    }

    /// `concede: N` with N of any form: players 1 and 2 concede and the other wins; any
    /// other value fails that scenario at its line, and the run goes on.
    #[test]
    fn concede_takes_exactly_the_games_players(n in player()) {
        let f = Fixture::empty();
        let mut who = String::new();
        n.write(&mut who);
        let mut text = format!("game: onepiece\n{DEFAULTS}scenarios:\n");
        for winner in [1, 2] {
            text.push_str(&format!(
                "  - {{name: c{winner}, steps: [{{concede: {who}}}], expect: {{winner: {winner}}}}}\n"
            ));
        }
        let outcomes = read_and_run(&f, &text)?;
        let passed: Vec<bool> = outcomes.iter().map(|o| o.passed()).collect();
        match who.as_str() {
            "1" => prop_assert_eq!(passed, vec![false, true]),
            "2" => prop_assert_eq!(passed, vec![true, false]),
            _ => {
                // Refused by the schema (not an integer) or by the step (no such player).
                prop_assert!(passed.iter().all(|p| !p), "{who}: {outcomes:?}");
                for o in &outcomes {
                    prop_assert!(o.failures.iter().any(|l| l.contains("concede")), "{o:?}");
                }
            }
        }
    }
}
