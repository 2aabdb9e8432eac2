//! What a seat receives does not depend on what it cannot see (issue #28 item 4, the
//! differential test): at many positions of random games of the three games and Gundam's
//! modes, the cards a seat cannot see are dealt again (`Game::redeal`), and the seat's view
//! (with its pending request) and its filtered log must be the same bytes. (Played on, the
//! two games part as soon as a card the seat could not see comes to it: a draw. What the
//! seat receives as the game goes is checked by the canary test of the host protocol.)

use riffle_core::{Game, PlayerId, Rng};

/// Every `EVERY`-th decision is a position checked, for every seat.
const EVERY: u64 = 7;

/// What `seat` receives of `g`: its view (with its request) and its log, as JSON.
fn received(g: &Game, seat: PlayerId) -> (String, String) {
    (
        serde_json::to_string(&g.view(seat)).unwrap(),
        serde_json::to_string(&g.events_for(seat)).unwrap(),
    )
}

/// Where two texts part, with some of each around it.
fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let from = a[..at].char_indices().rev().nth(200).map_or(0, |(i, _)| i);
    let cut = |s: &str| {
        s.get(from..)
            .unwrap_or_default()
            .chars()
            .take(400)
            .collect::<String>()
    };
    format!("{}\n  ...in one game, in the other:\n{}", cut(a), cut(b))
}

/// Checks one position for `seat`; returns whether it could be dealt again (a script was
/// not suspended) and whether the copy differs for another seat.
fn check_position(g: &Game, seat: PlayerId, at: &str, rng: &mut Rng) -> Option<bool> {
    let other = g.redeal(seat, rng.next_u64()).ok()?;
    assert_eq!(
        other.log_hash(),
        g.log_hash(),
        "{at}: dealing again wrote in the log"
    );
    // A card the seat cannot see carries nothing to follow it by: no object id, no card id,
    // no values (a shuffle would not lose a handle).
    fn no_handle(cards: &[riffle_core::CardView], at: &str) {
        for c in cards {
            if c.name.is_none() {
                assert!(
                    c.id.is_none() && c.card.is_none() && c.values.is_empty() && c.sets.is_empty(),
                    "{at}: a hidden card carries a handle: {c:?}"
                );
            }
            no_handle(&c.attachments, at);
        }
    }
    for z in &g.view(seat).zones {
        no_handle(&z.cards, at);
    }
    let (a, b) = (received(g, seat), received(&other, seat));
    assert!(
        a.0 == b.0,
        "{at}, seat {}: its view depends on cards it cannot see:\n{}",
        seat + 1,
        first_difference(&a.0, &b.0)
    );
    assert!(
        a.1 == b.1,
        "{at}, seat {}: its log depends on cards it cannot see:\n{}",
        seat + 1,
        first_difference(&a.1, &b.1)
    );
    // The copy differs where the seat cannot look: what another seat sees of it changes
    // (else the test would compare a game with itself).
    (0..g.players())
        .filter(|p| *p != seat)
        .any(|p| received(g, p).0 != received(&other, p).0)
        .into()
}

fn views_do_not_depend_on_hidden_cards(
    game: &str,
    players: usize,
    options: &[(&str, &str)],
    seeds: u64,
) {
    let table = super::Table::new(game, players, options);
    let (mut checked, mut differed) = (0usize, 0usize);
    for seed in 0..seeds {
        let config = table.config(seed, true);
        let mut g = Game::with_options(table.engine.clone(), config, &table.options).unwrap();
        let mut rng = Rng::new(seed);
        let mut n = 0u64;
        while let Some(req) = g.request().cloned() {
            n += 1;
            if n.is_multiple_of(EVERY) {
                for seat in 0..players as PlayerId {
                    let at = format!("{game} ({players} players) seed {seed} decision {n}");
                    if let Some(d) = check_position(&g, seat, &at, &mut rng) {
                        checked += 1;
                        differed += d as usize;
                    }
                }
            }
            g.respond(req.player(), req.random_legal(&mut rng)).unwrap();
            assert!(n < 20_000, "{game} seed {seed} ends");
        }
    }
    assert!(
        checked >= seeds as usize * 10,
        "{game}: only {checked} positions checked"
    );
    assert!(
        differed * 2 > checked,
        "{game}: the copies differed for another seat at only {differed} of {checked} positions"
    );
}

#[test]
fn one_piece_seats_receive_nothing_of_what_they_cannot_see() {
    views_do_not_depend_on_hidden_cards("onepiece", 2, &[], 4);
}

#[test]
fn gundam_seats_receive_nothing_of_what_they_cannot_see() {
    views_do_not_depend_on_hidden_cards("gundam", 2, &[], 3);
    views_do_not_depend_on_hidden_cards("gundam", 4, &[("mode", "team")], 1);
    views_do_not_depend_on_hidden_cards("gundam", 4, &[("mode", "battle-royal")], 1);
}

#[test]
fn summoner_master_seats_receive_nothing_of_what_they_cannot_see() {
    views_do_not_depend_on_hidden_cards("summoner-master", 2, &[("level", "summoner")], 1);
}
