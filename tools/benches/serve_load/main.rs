//! Load benchmark of `riffle serve --listen` (issue #28 item 7): 200 games at once over
//! WebSocket on loopback, a connection a seat, One Piece, Gundam and Summoner Master in turn,
//! random legal answers. Fails on a lost or reordered event or a game that does not end;
//! prints the games, decisions, the median and p99 time from a `respond` to the game's next
//! `request`, and the wall time. The server is the bench build of `riffle` (release with
//! debug info), `--threads 2`.
//!
//! Run: `cargo bench -p riffle --bench serve_load` (`-- --games N --seed S` to change it).
//! Figures go to docs/performance.md.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod load;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let (games, seed) = (flag("--games", 200) as usize, flag("--seed", 1));
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["serve", "--listen", "127.0.0.1:0", "--threads", "2"])
        // Every game at once: room for them all (a session thread holds 64 by default).
        .args(["--max-connections", "2048", "--max-games", "1024", "--root"])
        .arg(&repo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run riffle serve --listen");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("riffle serve says where it listens");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("not `listening on ADDR`: {line:?}"))
        .to_string();
    let result = load::run(&addr, games, seed);
    let server_cpu = cpu_seconds(child.id());
    // Closing its standard input stops the server.
    drop(child.stdin.take());
    let _ = child.wait();
    let mut r = result.unwrap_or_else(|e| panic!("serve_load: {e}"));
    let (median, p99, max) = (r.quantile(0.5), r.quantile(0.99), r.quantile(1.0));
    println!(
        "serve_load: {} games at once ({}), {} decisions, {} events received; respond to next \
         request: median {:.2} ms, p99 {:.2} ms, max {:.2} ms; wall {:.2} s ({:.0} decisions/s)",
        r.games,
        load::GAMES.join(", "),
        r.decisions,
        r.events,
        median.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3,
        r.wall.as_secs_f64(),
        r.decisions as f64 / r.wall.as_secs_f64(),
    );
    if let Some(cpu) = server_cpu {
        println!(
            "serve_load: the server's CPU time {cpu:.2} s ({:.0} µs a decision)",
            cpu * 1e6 / r.decisions as f64
        );
    }
}

/// The CPU time (user and system) process `pid` has used, from /proc (Linux only): how much
/// of the 2 cores the server took, the rest being the load generator's and others'.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name in parentheses: state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // In clock ticks of USER_HZ, which Linux fixes at 100 for /proc.
    Some(ticks / 100.0)
}
