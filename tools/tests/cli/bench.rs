//! `riffle bench`: the JSON report's shape and figures that must hold whatever the machine
//! (no timing thresholds).

use serde_json::Value;

use super::play::{play, repo, text};

fn bench(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_riffle"))
        .arg("bench")
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run riffle bench")
}

fn positive(v: &Value, what: &str) -> f64 {
    let x = v
        .as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"));
    assert!(x > 0.0, "{what} is {x}");
    x
}

/// `{median, p95}`, both positive, the median at most the p95.
fn stats(v: &Value, what: &str) {
    let median = positive(&v["median"], &format!("{what}.median"));
    let p95 = positive(&v["p95"], &format!("{what}.p95"));
    assert!(median <= p95, "{what}: median {median} > p95 {p95}");
}

#[test]
fn quick_json_report_has_its_fields_and_consistent_figures() {
    let out = bench(&[
        "--quick",
        "--json",
        "--games",
        "3",
        "--seed",
        "5",
        "--search-playouts",
        "3",
        "--live-games",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: Value = serde_json::from_slice(&out.stdout).expect("--json prints one JSON object");
    assert_eq!(r["game"], "onepiece");
    assert_eq!(r["seed"], 5);
    assert_eq!(r["quick"], true);
    assert!(
        matches!(r["build"].as_str(), Some("debug" | "release")),
        "{r}"
    );

    let p = &r["playouts"];
    assert_eq!(p["games"], 3, "{p}");
    let games = p["games"].as_u64().unwrap();
    let decisions = p["decisions"].as_u64().unwrap();
    assert!(decisions >= games, "{p}");
    assert!(p["turns"].as_u64().unwrap() >= games, "{p}");
    positive(&p["seconds"], "seconds");
    let gps = positive(&p["games_per_second"], "games_per_second");
    let dps = positive(&p["decisions_per_second"], "decisions_per_second");
    assert!(dps >= gps, "{p}");
    stats(&p["game_ms"], "game_ms");
    assert_eq!(p["script_errors"], 0, "{p}");
    assert_eq!(p["unfinished"], 0, "{p}");
    // The playouts are the games `riffle play` plays with the same seed.
    let out = play(&["--games", "3", "--seed", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let played: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(p["log_hash"], played["log_hash"]);
    assert_eq!(p["decisions"], played["decisions"]);

    let f = &r["forks"];
    assert_eq!(f["games"], 1, "{f}");
    let points = f["points"].as_u64().unwrap();
    // The fork game is the first playout: one point per decision.
    assert!(points >= 1 && points <= decisions, "{f}");
    let groups = f["groups"].as_array().expect("groups");
    assert!(!groups.is_empty(), "{f}");
    let mut sum = 0;
    for g in groups {
        assert!(g["prompt"].as_str().is_some_and(|s| !s.is_empty()), "{g}");
        assert!(g["quiescent"].is_boolean(), "{g}");
        let n = g["count"].as_u64().unwrap();
        assert!(n >= 1, "{g}");
        sum += n;
        stats(&g["fork_ns"], "fork_ns");
        stats(&g["fork_answer_ns"], "fork_answer_ns");
    }
    assert_eq!(sum, points, "the groups share out the points: {f}");
    // Every game starts at its main phase sooner or later: a quiescent point.
    assert!(
        groups
            .iter()
            .any(|g| g["prompt"] == "main" && g["quiescent"] == true),
        "{f}"
    );
    let totals = f["totals"].as_array().expect("totals");
    let total: u64 = totals.iter().map(|t| t["count"].as_u64().unwrap()).sum();
    assert_eq!(total, points, "{f}");
    for t in totals {
        assert!(t["count"].as_u64().unwrap() >= 1, "{t}");
        stats(&t["fork_ns"], "fork_ns");
        stats(&t["fork_answer_ns"], "fork_answer_ns");
    }
    let quiescent = totals
        .iter()
        .find(|t| t["quiescent"] == true)
        .expect("quiescent points");
    let by_turn = f["quiescent_by_turn"].as_array().expect("by turn");
    let n: u64 = by_turn.iter().map(|t| t["count"].as_u64().unwrap()).sum();
    assert_eq!(n, quiescent["count"].as_u64().unwrap(), "{f}");
    for t in by_turn {
        assert!(
            matches!(t["turns"].as_str(), Some("0-3" | "4-7" | "8+")),
            "{t}"
        );
        assert!(t["count"].as_u64().unwrap() >= 1, "{t}");
        stats(&t["fork_ns"], "fork_ns");
    }

    // The search: mcts at seat 0 answered with the playouts asked, counted per answer.
    let sr = &r["search"];
    assert_eq!(sr["games"], 1, "{sr}");
    assert_eq!(sr["playouts_per_answer"], 3, "{sr}");
    assert!(sr["answers"].as_u64().unwrap() >= 1, "{sr}");
    stats(&sr["answer_ms"], "answer_ms");
    stats(&sr["playouts_per_second"], "playouts_per_second");
    positive(
        &sr["playouts_per_second_overall"],
        "playouts_per_second_overall",
    );
    assert!(
        sr["greedy_answers"].is_u64() && sr["forced_answers"].is_u64(),
        "{sr}"
    );

    // Memory: bytes held in live blocks, so ten games hold something, a game with its
    // log more than one without, and a fork (which shares what it has not changed) less
    // than a game with its log.
    let m = &r["memory"];
    assert_eq!(m["games"], 10, "{m}");
    assert_eq!(m["decisions_in"], 40, "{m}");
    let with_log = positive(&m["bytes_per_game"], "bytes_per_game");
    let no_log = positive(&m["bytes_per_game_no_log"], "bytes_per_game_no_log");
    let fork = positive(&m["bytes_per_fork"], "bytes_per_fork");
    assert!(no_log < with_log, "{m}");
    assert!(fork < with_log, "{m}");

    let l = &r["load"];
    assert_eq!(l["runs"], 1, "{l}");
    assert_eq!(l["synthetic_cards"], 0, "{l}");
    assert!(l["cards"].as_u64().unwrap() >= 1, "{l}");
    stats(&l["ms"], "load ms");
    positive(&l["ms_per_1000_cards"], "ms_per_1000_cards");
}

#[test]
fn synthetic_cards_are_counted_and_the_text_has_every_part() {
    let base = bench(&[
        "--games",
        "1",
        "--fork-games",
        "1",
        "--load-runs",
        "1",
        "--search-games",
        "1",
        "--search-playouts",
        "1",
        "--live-games",
        "2",
        "--json",
    ]);
    assert_eq!(base.status.code(), Some(0), "{}", text(&base.stderr));
    let base: Value = serde_json::from_slice(&base.stdout).unwrap();
    let cards = base["load"]["cards"].as_u64().unwrap();

    let out = bench(&[
        "--games",
        "1",
        "--fork-games",
        "1",
        "--load-runs",
        "1",
        "--cards",
        "20",
        "--search-games",
        "1",
        "--search-playouts",
        "1",
        "--live-games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    for part in [
        "Random playouts: 1 game, ",
        "decisions/s",
        "Fork cost by decision point: ",
        "fork+answer median",
        "Fork at quiescent points by turn",
        "Search: mcts at seat 0 with 1 playouts an answer",
        "playouts/s, median answer",
        "Memory: 2 games held at once, 40 decisions in",
        "per live game, log kept",
        &format!(
            "Load + validate + compile: {} cards (20 synthetic), 1 run",
            cards + 20
        ),
        "per 1,000 cards",
    ] {
        assert!(t.contains(part), "no {part:?} in\n{t}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let out = bench(&["--game", "nosuchgame"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--game nosuchgame: no such game here (games: gundam, onepiece"),
        "{err}"
    );
    for args in [
        &["--games", "0"][..],
        &["--fork-games", "0"],
        &["--load-runs", "0"],
        &["--search-games", "0"],
        &["--search-playouts", "0"],
        &["--live-games", "0"],
    ] {
        let out = bench(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("give 1 to"), "{args:?}");
    }
}

/// The `riffle-bench-*` folders in `temp`.
fn scratch_folders(temp: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(temp)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("riffle-bench-"))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Issue #27 item 7: `bench --cards N` interrupted removes its synthetic set; a folder left by
/// a process killed outright is removed by the next start.
#[cfg(unix)]
#[test]
fn an_interrupted_bench_leaves_no_synthetic_set_behind() {
    let temp = tempfile::tempdir().unwrap();
    // Left by a process that no longer runs (no pid is this large).
    let stale = temp.path().join("riffle-bench-99999999-x");
    std::fs::create_dir_all(stale.join("cardsets/onepiece/syn")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args([
            "bench",
            "--quick",
            "--games",
            "1",
            "--load-runs",
            "50",
            "--cards",
            "20000",
            "--search-playouts",
            "1",
            "--live-games",
            "1",
        ])
        .current_dir(repo())
        .env("TMPDIR", temp.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run riffle bench");
    // Wait (bounded) until its own folder holds cards, then interrupt it.
    let mut seen = false;
    for _ in 0..600 {
        let folders = scratch_folders(temp.path());
        if !folders.contains(&stale)
            && folders
                .iter()
                .any(|f| f.join("cardsets/onepiece/syn").is_dir())
        {
            seen = true;
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "bench ended before it was interrupted"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        seen,
        "no synthetic set appeared: {:?}",
        scratch_folders(temp.path())
    );
    // SAFETY: signalling our own child.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(128 + libc::SIGINT),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        scratch_folders(temp.path()),
        Vec::<std::path::PathBuf>::new()
    );
}

/// `--cards-dir DIR`: the synthetic set is written into DIR and kept, and plays as a mod
/// with its cards in no deck (the same games); a folder that holds a set already is refused.
#[test]
fn cards_dir_keeps_the_synthetic_set_as_a_mod() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = [
        "--quick",
        "--games",
        "1",
        "--load-runs",
        "1",
        "--cards",
        "20",
        "--cards-dir",
        d,
        "--json",
    ];
    let out = bench(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let set = dir.path().join("cardsets/onepiece/syn");
    let mut files: Vec<String> = std::fs::read_dir(&set)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 41, "{files:?}");
    assert_eq!(files[0], "SYN-0000.lua");
    assert!(files.contains(&"set.yaml".to_string()));
    let hash = |out: &std::process::Output| {
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let t = text(&out.stdout);
        t.split("log hash ")
            .nth(1)
            .map(str::to_string)
            .unwrap_or_else(|| panic!("{t}"))
    };
    let with = play(&["--games", "2", "--seed", "1", "--mod", d]);
    let without = play(&["--games", "2", "--seed", "1"]);
    assert_eq!(
        hash(&with),
        hash(&without),
        "cards in no deck change no game"
    );
    // Written again over it: refused, and nothing written.
    let again = bench(&args);
    assert_ne!(again.status.code(), Some(0));
    assert!(
        text(&again.stderr).contains("holds files already"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read_dir(&set).unwrap().count(), 41);
}
