//! `riffle sim` (issue #29 item 2): a job's games on worker threads, one record per game in
//! the job's order, the same bytes whatever the thread count; script errors and unfinished
//! games are their own termination, never a win or a loss.

use std::process::{Command, Output};

use super::play::{mini_with_setup, play, repo, text};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_riffle"))
        .arg("sim")
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run riffle sim")
}

fn records(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn the_same_job_gives_the_same_bytes_on_one_thread_or_two() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, name: &str| {
        let out_file = dir.path().join(name);
        let out = sim(&[
            "--game",
            "gundam",
            "--games",
            "6",
            "--seed",
            "40",
            "--threads",
            threads,
            "--json",
            "--out",
            out_file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (std::fs::read(&out_file).unwrap(), summary)
    };
    let (one, s1) = run("1", "one.jsonl");
    let (two, s2) = run("2", "two.jsonl");
    assert_eq!(one, two, "the records, byte for byte");
    assert_eq!(s1["log_hash"], s2["log_hash"]);
    assert_eq!(s1["seats"], s2["seats"]);
    let recs = records(&dir.path().join("one.jsonl"));
    assert_eq!(recs.len(), 6);
    for (k, r) in recs.iter().enumerate() {
        assert_eq!(r["index"], k as u64);
        assert_eq!(r["seed"], 40 + k as u64);
    }
    // Game k is the game `riffle play --seed 40+k` plays: the same log hash.
    let out = play(&["--game", "gundam", "--seed", "42"]);
    let last = text(&out.stdout);
    let short = last
        .trim_end()
        .rsplit("log hash ")
        .next()
        .unwrap()
        .trim_end_matches(')');
    assert!(
        recs[2]["log_hash"].as_str().unwrap().starts_with(short),
        "{short} vs {}",
        recs[2]["log_hash"]
    );
    // Wins add up: every game was won by one seat or drawn.
    let wins: u64 = s1["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(
        wins + s1["terminations"]["draw"].as_u64().unwrap_or(0),
        6,
        "{s1}"
    );
}

#[test]
fn a_league_plays_every_ordered_pair_and_fills_the_matrix() {
    let out = sim(&[
        "--game",
        "onepiece",
        "--league",
        "red-rush,blue-tide,green-wall",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["games"], 12, "6 ordered pairs, 2 games each");
    let m = s["matrix"].as_array().unwrap();
    assert_eq!(m.len(), 3);
    for (a, row) in m.iter().enumerate() {
        for (b, cell) in row.as_array().unwrap().iter().enumerate() {
            if a == b {
                assert!(cell.is_null(), "{s}");
            } else {
                // a against b: 2 games as the first seat, 2 as the second.
                assert_eq!(cell["games"], 4, "{s}");
                let back = &m[b][a];
                assert_eq!(
                    cell["wins"].as_u64().unwrap() + back["wins"].as_u64().unwrap(),
                    4,
                    "no draws in these games: {s}"
                );
            }
        }
    }
    let decks: Vec<&str> = s["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["deck"].as_str().unwrap())
        .collect();
    assert_eq!(decks, ["red-rush", "blue-tide", "green-wall"]);
}

#[test]
fn a_script_error_is_its_own_termination_never_a_win() {
    let f = mini_with_setup("  if ctx:random(2) == 1 then error('setup fails on purpose') end");
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args([
            "sim", "--game", "mini", "--deck", "starter", "--deck", "starter",
        ])
        .args(["--games", "8", "--json", "--out", "games.jsonl"])
        .current_dir(&f.dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed = s["terminations"]["script_error"].as_u64().unwrap_or(0);
    assert!(failed > 0 && failed < 8, "{s}");
    let counted: u64 = s["seats"][0]["games"].as_u64().unwrap();
    assert_eq!(counted, 8 - failed, "only finished games count: {s}");
    for r in records(&f.dir.join("games.jsonl")) {
        if r["termination"] == "script_error" {
            assert_eq!(r["winners"], serde_json::json!([]), "{r}");
            assert!(
                r["error"]
                    .as_str()
                    .unwrap()
                    .contains("setup fails on purpose"),
                "{r}"
            );
        }
    }
}

#[test]
fn a_job_file_plays_as_its_flags_and_bad_jobs_say_what_to_give() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("job.json");
    std::fs::write(
        &job,
        r#"{"game": "summoner-master", "decks": ["drum-tide", "ember-tide"], "games": 3, "seed": 9, "agents": ["random", "first"]}"#,
    )
    .unwrap();
    let a = sim(&["--job", job.to_str().unwrap(), "--json"]);
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    let b = sim(&[
        "--game",
        "summoner-master",
        "--deck",
        "drum-tide",
        "--deck",
        "ember-tide",
        "--games",
        "3",
        "--seed",
        "9",
        "--agents",
        "random,first",
        "--json",
    ]);
    let hash = |o: &Output| {
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["log_hash"].clone()
    };
    assert_eq!(hash(&a), hash(&b));
    for (args, wanted) in [
        (
            vec![
                "--game", "onepiece", "--deck", "nope", "--deck", "red-rush", "--games", "1",
            ],
            "no deck 'nope' (decks: ",
        ),
        (
            vec!["--game", "onepiece", "--agents", "random", "--games", "1"],
            "agents: give one per seat, 2 (got 1)",
        ),
        (
            vec![
                "--game",
                "onepiece",
                "--agents",
                "random,minimax",
                "--games",
                "1",
            ],
            "unknown agent 'minimax'",
        ),
        (
            vec!["--game", "onepiece", "--games", "0"],
            "games: give 1 or more",
        ),
        (
            vec!["--game", "onepiece", "--league", "red-rush", "--games", "1"],
            "league: give two decks or more",
        ),
        (
            vec![
                "--game",
                "onepiece",
                "--league",
                "red-rush,blue-tide",
                "--deck",
                "red-rush",
                "--games",
                "1",
            ],
            "not both",
        ),
    ] {
        let out = sim(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: usage, exit 2");
        assert!(
            text(&out.stderr).contains(wanted),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    std::fs::write(&job, r#"{"game": "onepiece", "games": 1, "sedd": 4}"#).unwrap();
    let out = sim(&["--job", job.to_str().unwrap()]);
    assert!(
        text(&out.stderr).contains("unknown field `sedd`"),
        "{}",
        text(&out.stderr)
    );
}

/// `--compare DIR` (issue #29 item 5): Red Rush's Leader at 9000 power and 6 life (a mod
/// overriding RF01-001) wins more often; the change and its interval are reported.
#[test]
fn compare_reports_what_an_edit_does_to_the_win_rates() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("cardsets/onepiece/buff");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(
        set.join("set.yaml"),
        "game: onepiece\nid: BUFF\nname: {en: Buff}\nversion: \"1\"\noverrides: [RF01-001]\n",
    )
    .unwrap();
    let card = std::fs::read_to_string(repo().join("cardsets/onepiece/rf01/RF01-001.yaml"))
        .unwrap()
        .replace("power: 6000", "power: 9000")
        .replace("life: 4", "life: 6");
    std::fs::write(set.join("RF01-001.yaml"), card).unwrap();
    let args = [
        "--game",
        "onepiece",
        "--deck",
        "red-rush",
        "--deck",
        "blue-tide",
        "--games",
        "40",
        "--compare",
        dir.path().to_str().unwrap(),
    ];
    let mut json = args.to_vec();
    json.push("--json");
    let out = sim(&json);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_ne!(c["before"]["content_hash"], c["after"]["content_hash"]);
    let red = c["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["of"] == "red-rush")
        .unwrap();
    let (before, after) = (
        red["before"]["rate"].as_f64().unwrap(),
        red["after"]["rate"].as_f64().unwrap(),
    );
    assert!(after > before + 0.1, "a stronger Leader wins more: {red}");
    assert!(red["low"].as_f64().unwrap() <= red["change"].as_f64().unwrap());
    let out = sim(&args);
    let t = text(&out.stdout);
    assert!(t.contains("red-rush") && t.contains("change +"), "{t}");
    // A mod that changes nothing the job reads is refused.
    let empty = tempfile::tempdir().unwrap();
    let out = sim(&[
        "--game",
        "onepiece",
        "--games",
        "2",
        "--compare",
        empty.path().to_str().unwrap(),
    ]);
    assert!(
        text(&out.stderr).contains("the content is the same with it"),
        "{}",
        text(&out.stderr)
    );
}

/// Issue #29 item 2 ("what to record"): `--replays DIR` writes each game's replay, and each
/// plays again to its record's log hash; the records are the same bytes as without replays.
#[test]
fn replays_are_written_per_game_and_play_again_to_the_records_hash() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("replays");
    let run = |name: &str, extra: &[&str]| {
        let out_file = dir.path().join(name);
        let mut args = vec![
            "--game",
            "onepiece",
            "--games",
            "3",
            "--seed",
            "7",
            "--agents",
            "greedy,random",
            "--threads",
            "2",
            "--out",
            out_file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = sim(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        std::fs::read(&out_file).unwrap()
    };
    let plain = run("plain.jsonl", &[]);
    let with = run("with.jsonl", &["--replays", replays.to_str().unwrap()]);
    assert_eq!(plain, with, "recording replays changes no record");
    let recs = records(&dir.path().join("with.jsonl"));
    let mut files: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "onepiece-0-seed7.replay",
            "onepiece-1-seed8.replay",
            "onepiece-2-seed9.replay"
        ]
    );
    for (r, f) in recs.iter().zip(&files) {
        let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .arg("replay")
            .arg(replays.join(f))
            .current_dir(repo())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said = text(&out.stdout);
        let hash = &r["log_hash"].as_str().unwrap()[..16];
        assert!(said.contains("agree with the recording"), "{said}");
        assert!(
            said.contains(&format!("(log hash {hash})")),
            "{hash}: {said}"
        );
    }
    // A job that asks for replays without a folder to write them to is refused.
    let job = dir.path().join("job.json");
    std::fs::write(
        &job,
        r#"{"game": "onepiece", "games": 1, "record": "replays"}"#,
    )
    .unwrap();
    let out = sim(&["--job", job.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("give --replays DIR"),
        "{}",
        text(&out.stderr)
    );
}
