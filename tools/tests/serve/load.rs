//! Many games at once over WebSocket (issue #28 item 7): the load generator of the
//! `serve_load` benchmark, smaller, as a test of behaviour only (no timing is checked).

// The benchmark's generator; the timing parts of its report are the benchmark's.
#[allow(dead_code)]
#[path = "../../benches/serve_load/load.rs"]
mod generator;

use super::ws::Server;

#[test]
fn serve_listen_plays_20_games_at_once_losing_and_reordering_no_event() {
    let server = Server::start(&["--threads", "2"]);
    let report = generator::run(&server.addr, 20, 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 20);
    // Every game was played (each ends after many decisions) and seen by both seats.
    assert!(report.decisions > 20 * 20, "{} decisions", report.decisions);
    assert!(report.events > report.decisions, "{} events", report.events);
    assert!(!report.latencies.is_empty());
}
