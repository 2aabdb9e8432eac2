//! `riffle test --mutants`: break each card's script on purpose and report the breaks no
//! scenario notices (`riffle::mutants` makes and judges them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use riffle::mutants::{Kinds, Verdict, judge, plan};
use riffle::render::{Render, Stream};
use riffle::scenario::File;
use riffle_content::diagnostic::{OneLine, display_path};
use riffle_content::{CardInfo, Loader};

use super::FOUND_PROBLEMS;
use super::progress::progress_bar;
use super::test::{Args, not_outside_the_search_paths};

/// The tally of a run.
#[derive(Default)]
struct Tally {
    cards: usize,
    mutants: usize,
    caught: usize,
    survived: usize,
    /// Survived, marked `-- mutant: equivalent` with a reason.
    equivalent: usize,
    /// Marked equivalent yet caught, or marks that mark nothing.
    stale_marks: usize,
    without_scenarios: usize,
    /// Content that does not load, scenarios that do not read or fail unmutated.
    problems: usize,
}

pub fn run(args: &Args, kinds: Kinds) -> anyhow::Result<ExitCode> {
    let paths = args
        .roots
        .search_paths(args.paths.first().map(|p| p.as_path()))?;
    let mut chosen = Vec::new();
    for p in &args.paths {
        not_outside_the_search_paths(p, &paths)?;
        match p.canonicalize() {
            Ok(c) => chosen.push(c),
            Err(_) => bail!("{}: no such file or folder", p.display()),
        }
    }
    // No path: every card of the repository, or with mods only theirs (as `riffle test`).
    let own: Vec<PathBuf> = if paths.len() > 1 {
        paths[1..].to_vec()
    } else {
        paths.clone()
    };
    let scope: Vec<PathBuf> = if chosen.is_empty() {
        own.iter().filter_map(|p| canonical(p)).collect()
    } else {
        chosen.clone()
    };
    let mut tally = Tally::default();
    let mut selected_any = vec![false; chosen.len()];
    let loader = Loader::new(paths.clone());
    let render = Render::for_stream(args.color, Stream::Stderr);
    for game in loader.games() {
        let load = loader.load_game(&game);
        let in_scope = cards_in_scope(&load.cards, &scope, &chosen, &mut selected_any);
        if in_scope.is_empty() {
            continue;
        }
        let mut loaded = match load.into_result() {
            Ok(l) => l,
            Err(diags) => {
                for d in diags.iter().take(20) {
                    eprintln!("{}", render.render(d));
                }
                eprintln!("the {game} content has errors: its cards were not tested");
                tally.problems += 1;
                continue;
            }
        };
        // Every scenario of every search path may name the card: a mod's override is tested
        // by the base's scenarios too.
        let (files, errors) = plan::scenario_files(&paths, &game);
        for e in &errors {
            eprintln!("{}", OneLine(e));
        }
        tally.problems += errors.len();
        tally.add(test_game(
            &mut loaded.content,
            &in_scope,
            &files,
            args,
            kinds,
        ));
    }
    for (p, any) in args.paths.iter().zip(&selected_any) {
        if !any {
            eprintln!(
                "{}:1:1: warning: no card with a script here (give a set folder, or a card's .yaml or .lua)",
                display_path(p)
            );
        }
    }
    let stale = match tally.stale_marks {
        0 => String::new(),
        n => format!(", {}", counted(n, "stale mutant mark")),
    };
    println!(
        "{}, {}: {} caught, {} survived, {} equivalent, {} without scenarios{stale}",
        counted(tally.cards, "card"),
        counted(tally.mutants, "mutant"),
        tally.caught,
        tally.survived,
        tally.equivalent,
        counted(tally.without_scenarios, "card")
    );
    let failed = tally.survived + tally.stale_marks + tally.without_scenarios + tally.problems;
    Ok(if failed > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.cards += o.cards;
        self.mutants += o.mutants;
        self.caught += o.caught;
        self.survived += o.survived;
        self.equivalent += o.equivalent;
        self.stale_marks += o.stale_marks;
        self.without_scenarios += o.without_scenarios;
        self.problems += o.problems;
    }
}

/// `1 card`, `2 cards`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn canonical(p: &Path) -> Option<PathBuf> {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    p.canonicalize().ok()
}

/// The ids of the scripted cards whose YAML or script lies in `scope` (the definition that
/// loaded: a mod's override, not the card it replaces). Marks which chosen paths selected one.
fn cards_in_scope(
    infos: &[CardInfo],
    scope: &[PathBuf],
    chosen: &[PathBuf],
    selected_any: &mut [bool],
) -> Vec<String> {
    // The last file of an id is the one that loaded (search paths in order).
    let mut last: BTreeMap<&str, &CardInfo> = BTreeMap::new();
    for info in infos {
        if let Some(id) = &info.id {
            last.insert(id, info);
        }
    }
    let mut out = Vec::new();
    for info in infos {
        let Some(id) = info.id.as_deref() else {
            continue;
        };
        if !std::ptr::eq(last[id], info) {
            continue;
        }
        let Some(script) = &info.script else {
            continue;
        };
        let files: Vec<PathBuf> = [&info.path, script]
            .into_iter()
            .filter_map(|p| canonical(p))
            .collect();
        let under = |s: &PathBuf| files.iter().any(|f| f.starts_with(s));
        if scope.iter().any(under) {
            out.push(id.to_string());
        }
        for (k, c) in chosen.iter().enumerate() {
            if under(c) {
                selected_any[k] = true;
            }
        }
    }
    out
}

/// The mutants of one game's cards in scope.
fn test_game(
    content: &mut riffle_core::Content,
    in_scope: &[String],
    files: &[File],
    args: &Args,
    kinds: Kinds,
) -> Tally {
    let mut tally = Tally::default();
    let naming = plan::naming(
        files,
        in_scope.iter().map(String::as_str),
        args.filter.as_deref(),
    );
    // They must pass before a mutant can be judged by them.
    let failing = match plan::failing_unmutated(content, &naming) {
        Ok(f) => f,
        Err(es) => {
            for e in es {
                eprintln!("{}", OneLine(&e));
            }
            tally.problems += 1;
            return tally;
        }
    };
    for o in &failing {
        println!("FAIL {} {}", OneLine(&o.at), OneLine(&o.name));
        for f in &o.failures {
            println!("    {}", OneLine(f));
        }
    }
    if !failing.is_empty() {
        eprintln!(
            "{} scenario(s) fail without any mutant: mutants are judged by passing scenarios (run `riffle test`)",
            failing.len()
        );
        tally.problems += failing.len();
        return tally;
    }
    // Every card's mutants, made before any runs so that the bar knows the total.
    let cards = plan::plan(content, &naming, kinds);
    for card in &cards {
        tally.cards += 1;
        if card.mutants.is_none() {
            tally.without_scenarios += 1;
        }
        if let Some(e) = &card.unread {
            eprintln!(
                "{}:{}:{}: warning: {}: its numbers were not changed: {}",
                card.script,
                e.line,
                e.col,
                card.id,
                OneLine(&e.message)
            );
        }
        for (l, c, why) in &card.misplaced_marks {
            tally.stale_marks += 1;
            println!(
                "{}",
                OneLine(&format!("{}:{l}:{c}: {}: {why}", card.script, card.id))
            );
        }
    }
    let total: usize = cards.iter().flat_map(|c| &c.mutants).map(Vec::len).sum();
    let bar = progress_bar(total as u64, "mutants");
    for card in cards {
        let (id, script) = (&card.id, &card.script);
        let Some(ms) = card.mutants else {
            let line = match &args.filter {
                None => format!("{script}:1:1: {id}: no scenario names this card"),
                Some(f) => format!(
                    "{script}:1:1: {id}: no scenario whose name contains {f:?} names this card"
                ),
            };
            bar.suspend(|| println!("{}", OneLine(&line)));
            continue;
        };
        bar.set_message(id.clone());
        let scenarios = plan::ordered(&naming[id.as_str()], id);
        for m in ms {
            let verdict = judge(content, card.index, &m.text, &scenarios);
            bar.inc(1);
            tally.mutants += 1;
            let (l, c) = m.change.position();
            let at = format!("{script}:{l}:{c}: {id}: {}", m.change);
            if let Some(reason) = &m.equivalent {
                // Marked equivalent: listed as such when it survives; a scenario that
                // catches it makes the mark stale.
                let line = match &verdict {
                    Verdict::Survived => {
                        tally.equivalent += 1;
                        format!("{at} equivalent: {reason}")
                    }
                    Verdict::Caught { by, .. } => {
                        tally.caught += 1;
                        tally.stale_marks += 1;
                        format!(
                            "{at} caught by {by}, yet its line marks it equivalent: remove the stale `-- mutant: equivalent` mark"
                        )
                    }
                    Verdict::DoesNotLoad(_) => {
                        tally.caught += 1;
                        tally.stale_marks += 1;
                        format!(
                            "{at} does not load, yet its line marks it equivalent: remove the stale `-- mutant: equivalent` mark"
                        )
                    }
                };
                bar.suspend(|| println!("{}", OneLine(&line)));
                continue;
            }
            match &verdict {
                Verdict::Survived => {
                    tally.survived += 1;
                    let still = match scenarios.len() {
                        1 => "1 scenario still passes".to_string(),
                        n => format!("{n} scenarios still pass"),
                    };
                    let line = format!("{at} survived ({still})");
                    bar.suspend(|| println!("{}", OneLine(&line)));
                }
                Verdict::Caught { by, why } => {
                    tally.caught += 1;
                    if args.verbose {
                        bar.suspend(|| {
                            println!("{} caught by {}", OneLine(&at), OneLine(by));
                            println!("    {}", OneLine(why));
                        });
                    }
                }
                Verdict::DoesNotLoad(why) => {
                    tally.caught += 1;
                    if args.verbose {
                        bar.suspend(|| {
                            println!("{} caught: does not load: {}", OneLine(&at), OneLine(why))
                        });
                    }
                }
            }
        }
    }
    bar.finish_and_clear();
    tally
}
