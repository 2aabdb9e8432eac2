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
    // An ability that asks something is told up to the question.
    let log = super::play::play(&["--game", "onepiece", "--seed", "7"]);
    let log = text(&log.stdout);
    assert!(
        log.contains("\n    Ledger Reckoning's [Main]\n  P1 up_to: "),
        "{log}"
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
