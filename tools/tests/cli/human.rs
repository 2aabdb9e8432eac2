//! `riffle play --agents human,...`: strict input, asked again on anything else, and the game
//! stops at the end of input instead of being played for the person.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::play::{mini_with_setup, repo, text};

/// `riffle play ARGS` in `dir` with `input` on stdin, then end of input.
fn play_typing(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run riffle play");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

const HUMAN: [&str; 6] = [
    "--game",
    "onepiece",
    "--agents",
    "human,random",
    "--seed",
    "2",
];

#[test]
fn a_human_sees_their_view_and_numbered_choices() {
    // Two answers, then end of input: the game stops there.
    let out = play_typing(&repo(), &HUMAN, "2\n1\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert!(screen.contains("player 1 to decide"), "{screen}");
    assert!(screen.contains("  1. "), "numbered choices: {screen}");
    assert!(
        screen.contains("choose one: type its number (1-"),
        "{screen}"
    );
    // The human's own hand shows names; the opponent's hand and the decks only counts.
    let own = screen
        .lines()
        .find(|l| l.starts_with("P1 hand ("))
        .expect("own hand");
    assert!(own.contains("): "), "{own}");
    for l in screen
        .lines()
        .filter(|l| l.starts_with("P2 hand (") || l.contains(" deck ("))
    {
        assert!(!l.contains(':'), "hidden cards shown: {l}");
    }
    // Costs in the hand, and the opponent's decisions and moves between the human's.
    assert!(own.contains(" (cost "), "{own}");
    assert!(
        screen.contains("\n  P2 "),
        "the opponent's decisions: {screen}"
    );
    // Asked three times: two answers, then the end of input stops the game.
    assert_eq!(screen.matches("player 1 to decide").count(), 3, "{screen}");
    assert!(
        screen.contains("end of input: the game stops here, unfinished"),
        "{screen}"
    );
    let last = screen.lines().last().unwrap();
    assert!(last.starts_with("unfinished after "), "{last}");
    assert_eq!(
        text(&out.stderr),
        "unfinished: player 1's input ended\n",
        "{screen}"
    );
}

#[test]
fn bad_answers_are_refused_with_a_reason_and_asked_again() {
    // The first request is player 1's mulligan: one of two options. Nothing here is an answer.
    let out = play_typing(&repo(), &HUMAN, "0\n-3\n1 x\nabc\n3\n1 1\n+1\n\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    for reason in [
        "0 is not an option: type a number from 1 to 2",
        "'-3' is not an option number: type a number from 1 to 2",
        "one number only: type a number from 1 to 2",
        "'abc' is not an option number: type a number from 1 to 2",
        "3 is not an option: type a number from 1 to 2",
        "'+1' is not an option number: type a number from 1 to 2",
        "choose exactly 1, not 0",
    ] {
        assert!(screen.contains(reason), "missing {reason:?} in {screen}");
    }
    // "1 1" is refused as well ("one number only"): twice in all.
    assert_eq!(screen.matches("one number only").count(), 2, "{screen}");
    // Nothing was accepted: asked once, never answered, no decision of player 1 in the log.
    assert_eq!(screen.matches("player 1 to decide").count(), 1, "{screen}");
    assert!(!screen.contains("  P1 "), "an answer was taken: {screen}");
    assert!(
        screen
            .lines()
            .last()
            .unwrap()
            .starts_with("unfinished after 0 turns")
    );
}

#[test]
fn numbers_and_multiple_choices_are_strict_too() {
    let f = mini_with_setup(
        "  local n = ctx:choose_number(1, -2, 3, 'how many')\n  \
         ctx:choose(1, {{label = 'red'}, {label = 'green'}, {label = 'blue'}}, \
         {min = 0, max = 2, prompt = 'colours'})",
    );
    let deck = "cardsets/mini/decks/starter.yaml";
    let args = [
        "--game",
        "mini",
        "--deck",
        deck,
        "--deck",
        deck,
        "--agents",
        "human,random",
    ];
    let typed = "abc\n1 x\n+1\n-3\n4\n99999999999999999999\n\n-2\n0\n1 1\n1 2 3\n1,2\n3 1\n";
    let out = play_typing(&f.dir, &args, typed);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    for says in [
        "type a number from -2 to 3: ",
        "'abc' is not a whole number: type a number from -2 to 3",
        "one number only: type a number from -2 to 3",
        "'+1' is not a whole number",
        "-3 is out of range: type a number from -2 to 3",
        "4 is out of range",
        "99999999999999999999 is out of range",
        "choose 0 to 2: type different numbers (1-3) separated by spaces, or an empty line for none: ",
        "0 is not an option: type numbers from 1 to 3",
        "1 is there twice: choose each option once",
        "choose 0 to 2, not 3",
        "'1,2' is not an option number",
        "  P1 how many: -2",
        "  P1 colours: blue, red",
    ] {
        assert!(screen.contains(says), "missing {says:?} in {screen}");
    }
    assert!(!screen.contains("-9223372036854775808"), "{screen}");

    // An empty line is "none" where none is allowed.
    let out = play_typing(&f.dir, &args, "3\n\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("  P1 colours: nothing\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn end_of_input_stops_a_run_of_games() {
    let f = mini_with_setup("  ctx:choose_number(1, 0, 9, 'pick')");
    let deck = "cardsets/mini/decks/starter.yaml";
    let args = [
        "--game",
        "mini",
        "--deck",
        deck,
        "--deck",
        deck,
        "--agents",
        "human,random",
        "--games",
        "3",
    ];
    // The first game gets its answer; the second meets the end of input; no third.
    let out = play_typing(&f.dir, &args, "4\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert_eq!(screen.matches("player 1 to decide").count(), 2, "{screen}");
    assert!(screen.contains("end of input"), "{screen}");
    let summary: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.starts_with("2 games: "))
        .collect();
    assert_eq!(summary.len(), 3, "{screen}");
    assert!(summary[0].contains("unfinished 1,"), "{screen}");
    assert_eq!(
        summary[1],
        "unfinished: 1 game (seed 2: player 1's input ended)"
    );
    assert_eq!(
        summary[2],
        "stopped after 2 of 3 games: player 1's input ended"
    );
}

#[test]
fn a_human_may_read_card_names_in_another_language() {
    // The mini game printed in Thai, where the player ends the turn or nothing.
    let f = crate::content::thai_mini();
    f.write(
        "scripts/mini/rules.lua",
        "function setup(ctx) end\n\
         function main_actions(ctx) return { { label = 'end turn', kind = 'end', ends_phase = true } } end\n\
         function activate(ctx, ability, args) return true end\n\
         function validate_deck(deck) return {} end\n",
    );
    let deck = "cardsets/mini/decks/starter.yaml";
    let args = |lang: Option<&'static str>| {
        let mut a = vec!["--game", "mini", "--deck", deck, "--deck", deck];
        a.extend(["--agents", "human,random"]);
        if let Some(l) = lang {
            a.extend(["--lang", l]);
        }
        a
    };
    let leader = |lang: Option<&'static str>| {
        let out = play_typing(&f.dir, &args(lang), "1\n");
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let screen = text(&out.stdout);
        screen
            .lines()
            .find(|l| l.starts_with("P1 leader ("))
            .unwrap_or_else(|| panic!("no leader line in {screen}"))
            .to_string()
    };
    // The printed (Thai) name by default; another language on request.
    assert_eq!(leader(None), "P1 leader (1): กัปตัน (power 5000)");
    assert_eq!(leader(Some("en")), "P1 leader (1): Captain (power 5000)");
    assert_eq!(leader(Some("ja")), "P1 leader (1): キャプテン (power 5000)");
    // A language the card lacks: its printed name.
    assert_eq!(leader(Some("fr")), "P1 leader (1): กัปตัน (power 5000)");
    let out = play_typing(&f.dir, &args(Some("English")), "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--lang \"English\": not a language tag"),
        "{}",
        text(&out.stderr)
    );
}

/// The mini game where player 1 holds Lookouts, has a Deckhand on the field, and is asked to
/// pick among player 2's hand (Broadsides, hidden from them), their own hand and the field.
fn mini_reading_table() -> crate::common::Fixture {
    // The mini game's decks lie face up: turned down first, so that only hands hide cards.
    mini_with_setup(
        "  for p = 1, 2 do for _, c in ipairs(ctx:cards('deck', p)) do ctx:set_face(c, false) end end\n  \
           local function put(p, id, zone, n)\n    \
             for _, c in ipairs(ctx:cards('deck', p)) do\n      \
               if n > 0 and c.card_id == id then ctx:move({c}, zone, {player = p}); n = n - 1 end\n    \
             end\n  \
           end\n  \
           put(1, 'MC1-004', 'hand', 2)\n  \
           put(1, 'MC1-002', 'field', 1)\n  \
           put(2, 'MC1-003', 'hand', 2)\n  \
           local opts = {}\n  \
           for _, c in ipairs(ctx:cards('hand', 2)) do opts[#opts + 1] = {label = c.label, card = c} end\n  \
           for _, c in ipairs(ctx:cards('hand', 1)) do opts[#opts + 1] = {label = 'keep ' .. c.label, card = c} end\n  \
           for _, c in ipairs(ctx:cards('field', 1)) do opts[#opts + 1] = {label = 'use ' .. c.label, card = c} end\n  \
           opts[#opts + 1] = {label = 'nothing'}\n  \
           ctx:choose(1, opts, {prompt = 'pick'})",
    )
}

const MINI: [&str; 8] = [
    "--game",
    "mini",
    "--deck",
    "cardsets/mini/decks/starter.yaml",
    "--deck",
    "cardsets/mini/decks/starter.yaml",
    "--agents",
    "human,random",
];

#[test]
fn text_n_reads_the_cards_an_option_names_and_never_a_hidden_one() {
    let f = mini_reading_table();
    let out = play_typing(
        &f.dir,
        &MINI,
        "text 1\ntext 3\ntext 5\ntext 6\ntext 9\ntext x\n",
    );
    let screen = text(&out.stdout);
    assert!(
        screen.contains("  1. hidden card 2 of 2 in hand of player 2"),
        "{screen}"
    );
    // An option naming a card of the opponent's hand: hidden, whatever it is.
    assert!(
        screen.contains("option 1 (hidden card 2 of 2 in hand of player 2): a card you cannot see"),
        "{screen}"
    );
    assert!(
        !screen.contains("Broadside"),
        "a hidden card was read: {screen}"
    );
    // Their own hand card: name, id, category, place, values, keywords, no text.
    let lookout =
        "Lookout [MC1-004] unit, P1 hand\n  cost 2, power 3000\n  keywords: rush\n  (no text)\n";
    assert!(screen.contains(lookout), "{screen}");
    // The card on the field: its printed text, keywords with their numbers.
    assert!(
        screen.contains("Deckhand [MC1-002] unit, P1 field\n"),
        "{screen}"
    );
    assert!(
        screen.contains("  keywords: blocker, repair 2\n"),
        "{screen}"
    );
    assert!(screen.contains("  | [On Play] Draw 1 card.\n"), "{screen}");
    assert!(
        screen.contains("option 6 (nothing) names no card"),
        "{screen}"
    );
    assert!(
        screen.contains("text N: there is no option 9: type a number from 1 to 6"),
        "{screen}"
    );
    assert!(
        screen.contains("text N: 'x' is not an option number"),
        "{screen}"
    );
    // Reading is not answering: asked once, no decision taken.
    assert_eq!(screen.matches("player 1 to decide").count(), 1, "{screen}");
}

#[test]
fn card_name_reads_a_visible_card_and_says_nothing_of_hidden_ones() {
    let f = mini_reading_table();
    let typed =
        "card LOOK\ncard deckhand\ncard t\ncard Broadside\ncard broad\ncard Nowhere\nhelp\n";
    let out = play_typing(&f.dir, &MINI, typed);
    let screen = text(&out.stdout);
    // Any case, a prefix: the card and its text.
    assert!(
        screen.contains("Lookout [MC1-004] unit, P1 hand\n"),
        "{screen}"
    );
    assert!(
        screen.contains("Deckhand [MC1-002] unit, P1 field\n"),
        "{screen}"
    );
    // Several cards hold a "t": listed, one line each, copies of a card once.
    assert!(
        screen.contains("2 cards match 't': which one?\n"),
        "{screen}"
    );
    assert!(screen.contains("  Lookout (P1 hand)\n"), "{screen}");
    assert!(screen.contains("  Captain (P1 leader)\n"), "{screen}");
    // The opponent's hand holds Broadsides: not visible, said as of a card that is nowhere.
    assert!(
        screen.contains("no card 'Broadside' is visible to you\n"),
        "{screen}"
    );
    assert!(
        screen.contains("no card 'broad' is visible to you\n"),
        "{screen}"
    );
    assert!(
        screen.contains("no card 'Nowhere' is visible to you\n"),
        "{screen}"
    );
    assert!(!screen.contains("Broadside ["), "{screen}");
    assert!(screen.contains("text N: the text and values") && screen.contains("card NAME: "));
}

#[test]
fn the_board_shows_each_players_watched_values() {
    // Summoner Master watches each player's Mp (`log.players`): the board shows it.
    let args = [
        "--game",
        "summoner-master",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ];
    let out = play_typing(&repo(), &args, "");
    let screen = text(&out.stdout);
    let board: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("player 1 to decide"))
        .collect();
    for p in ["P1: mp ", "P2: mp "] {
        assert!(
            board.iter().any(|l| l.starts_with(p)),
            "no {p:?} in {screen}"
        );
    }
}
