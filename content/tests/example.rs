//! The embedding example (`examples/embed.rs`) runs as a client would run it: it loads the
//! content, plays a game to its end and prints one seat's view, which hides what that seat
//! may not see.

#[path = "../examples/embed.rs"]
#[allow(dead_code)] // its `main`: the test calls `run`.
mod embed;

use std::path::Path;

#[test]
fn the_example_plays_a_game_and_prints_one_seats_view() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut hidden_seen = 0;
    for game in ["onepiece", "gundam", "summoner-master"] {
        let mut out = Vec::new();
        embed::run(&root, game, 7, &mut out).unwrap_or_else(|e| panic!("{game}: {e}"));
        let text = String::from_utf8(out).unwrap();
        let (json, last) = text.trim_end().rsplit_once('\n').unwrap();
        assert!(last.starts_with(&format!("{game}, seed 7: ")), "{last}");
        assert!(last.contains("result Some(GameResult"), "{game}: {last}");
        let view: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(view["viewer"], 0);
        // The other seat's hand shows how many cards it holds, never which.
        let their_hand = view["zones"]
            .as_array()
            .unwrap()
            .iter()
            .find(|z| z["name"] == "hand" && z["owner"] == 1)
            .unwrap();
        for card in their_hand["cards"].as_array().unwrap() {
            assert!(card.get("card").is_none(), "{game}: {card}");
            hidden_seen += 1;
        }
    }
    assert!(
        hidden_seen > 0,
        "no game ended with cards in the other hand: nothing checked"
    );
}

#[test]
fn the_example_says_why_it_cannot_start() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let err = embed::run(&root, "chess", 1, &mut Vec::new()).unwrap_err();
    assert!(err.contains("no game `chess` here (games: "), "{err}");
}
