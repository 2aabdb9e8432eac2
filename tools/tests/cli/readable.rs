//! The readable log (issue #26 item 12): what each ability did, on its own line; option
//! verbs in the reader's language.

use super::play::{play, text};

fn log(args: &[&str]) -> String {
    let out = play(args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn an_ability_that_resolves_says_what_it_did_on_one_line() {
    let log = log(&["--game", "onepiece", "--seed", "2"]);
    // One Piece's `resolving` (game.yaml `log.abilities`): the ability's line, then what
    // followed it up to the next decision, on the same line.
    assert!(
        log.contains(
            "\n    Blackwater Recruit's [On K.O.]: Blackwater Ossuary: P1 deck -> P1 hand (draw)\n  P2 main: "
        ),
        "{log}"
    );
    // An ability that asks something is told up to the question...
    let log = super::play::play(&["--game", "onepiece", "--seed", "7"]);
    let log = text(&log.stdout);
    assert!(
        log.contains("\n    Ledger Reckoning's [Main]\n  P1 up_to: "),
        "{log}"
    );
    // ...and goes on after the answer, up to its end (`log.ability_ends`: Gundam's
    // `resolved`), with what it did then.
    let log = self::log(&["--game", "gundam", "--seed", "7"]);
    assert!(
        log.contains(
            "\n    Cinder Martyr's 【Destroyed】\n  P1 pick: Unit: Harbor Sentinel\n    Cinder Martyr's 【Destroyed】, continued: Harbor Sentinel: P2 battle_area -> P2 trash (destroyed)"
        ),
        "{log}"
    );
}

/// OP 10-1-2 [Double Attack], GD 13-1-1 〈Repair〉: a keyword effect is told on its card's
/// line, as an ability is.
#[test]
fn keyword_effects_are_told_on_their_cards_line() {
    let op = log(&["--game", "onepiece", "--seed", "7"]);
    assert!(
        op.contains(
            "\n    Captain Idris Fathom's [Double Attack]: P1's Leader takes 1 damage; Shadow Tally Rook: P1 life -> P1 hand (damage); P1's Leader takes 1 damage;"
        ),
        "{op}"
    );
    let gd = log(&["--game", "gundam", "--seed", "7"]);
    assert!(
        gd.contains("\n    Aegis Lancer's 〈Repair〉: Aegis Lancer damage 2 -> 1\nturn 10: P1"),
        "{gd}"
    );
}

/// The setup's changes (One Piece's Life, 5-2-1-7; Summoner Master's Mp) are told before
/// turn 1, not under it; counters an ability changes, on the ability's line.
#[test]
fn the_setups_changes_come_before_turn_one() {
    let op = log(&["--game", "onepiece", "--seed", "7"]);
    assert!(
        op.contains("\n    P1 life 0 -> 5\n    P2 life 0 -> 5\nturn 1: P2\n"),
        "{op}"
    );
    let sm = log(&["--game", "summoner-master", "--seed", "7"]);
    let (setup, _) = sm.split_once("\nturn 1: ").expect("a first turn");
    assert!(
        setup.contains("\n    P1 mp 0 -> 8\n    P2 mp 0 -> 5\n"),
        "{setup}"
    );
    // Gundam: a counter (damage) is told where it changed, before the ability that follows.
    let gd = log(&["--game", "gundam", "--seed", "7"]);
    assert!(
        gd.contains("\n    Bulwark Tortoise damage 0 -> 3\n    Cinder Martyr's 【Destroyed】\n"),
        "{gd}"
    );
}

#[test]
fn summoner_master_attacks_show_their_mp_and_read_in_thai() {
    let en = log(&["--game", "summoner-master", "--seed", "7"]);
    let th = log(&["--game", "summoner-master", "--seed", "7", "--lang", "th"]);
    // The attack's cost in its label, as a cast's is (attack.lua).
    let attack = en
        .lines()
        .find(|l| l.contains(" main: attack with "))
        .unwrap_or_else(|| panic!("no attack: {en}"));
    assert!(attack.contains(" (Mp "), "{attack}");
    // In Thai the verb is the ruleset's (`log.languages.th.options`), the cost kept.
    assert!(!th.contains(": attack with "), "{th}");
    let th_attack = th
        .lines()
        .find(|l| l.contains(" Main Step: สั่ง ") && l.contains(" โจมตี (Mp "))
        .unwrap_or_else(|| panic!("no Thai attack: {th}"));
    assert_eq!(
        attack.rsplit(" (Mp ").next(),
        th_attack.rsplit(" (Mp ").next(),
        "the same cost: {attack} / {th_attack}"
    );
    assert!(
        !th.contains(" main: cast ") && !th.contains(": cast "),
        "{th}"
    );
}
