"""Game states shaped like OpenSpiel's (issue #29 item 3)."""

import json
import random

import pytest

import riffle

TABLES = [
    ("onepiece", {}),
    ("gundam", {}),
    ("gundam", {"players": 4, "options": {"mode": "team"}}),
    ("summoner-master", {}),
]


def random_game(content, seed, setup, visit=None):
    state = content.new_game(seed, **setup)
    rng = random.Random(seed)
    while not state.is_terminal():
        if visit:
            visit(state)
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game,setup", TABLES)
def test_random_games_end_with_returns_that_sum_to_zero_or_less(game, setup):
    content = riffle.Content(game)
    state = random_game(content, 3, setup)
    assert state.current_player() == riffle.TERMINAL
    r = state.returns()
    assert len(r) == state.num_players()
    assert max(r) == 1.0 or r == [0.0] * len(r)
    assert state.legal_actions() == []
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_mask_matches_legal_actions_and_illegal_actions_change_nothing():
    state = riffle.Content("onepiece").new_game(5)
    mask = state.legal_actions_mask()
    assert len(mask) == riffle.ACTIONS == state.num_distinct_actions()
    assert [a for a, m in enumerate(mask) if m] == state.legal_actions()
    before = state.information_state_string(state.current_player())
    illegal = next(a for a, m in enumerate(mask) if not m)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    assert state.information_state_string(state.current_player()) == before


def test_clone_goes_on_independently_and_serialize_plays_again():
    content = riffle.Content("gundam")
    state = content.new_game(11)
    rng = random.Random(11)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    text = state.serialize()
    assert json.loads(text)["content_hash"] == content.content_hash
    copy.apply_action(copy.legal_actions()[0])
    assert copy.log_hash() != state.log_hash()
    again = content.deserialize(text)
    assert again.log_hash() == state.log_hash()
    assert again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_resampling_looks_the_same_to_the_player_who_resampled():
    """OpenSpiel's resampling test: a state resampled from a player's information state
    gives that player the same information state and the same legal actions, while the
    hidden cards really moved (the other player's view differs in some copies)."""
    content = riffle.Content("onepiece")
    compared = changed = 0

    def visit(state):
        nonlocal compared, changed
        p = state.current_player()
        try:
            copy = state.resample_from_infostate(p, compared + 1)
        except ValueError:
            return  # inside an effect's question: cannot deal again there
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert copy.legal_actions() == state.legal_actions()
        assert copy.observation_tensor(p) == state.observation_tensor(p)
        other = 1 - p
        changed += copy.observation_string(other) != state.observation_string(other)
        compared += 1

    for seed in (1, 2):
        random_game(content, seed, {}, visit)
    assert compared > 50
    assert changed > compared // 2, f"the hidden cards moved in {changed} of {compared}"


def test_agents_play_their_seats_and_serialize_with_the_game():
    content = riffle.Content("onepiece")
    state = content.new_game(4)
    state.set_agents({1: "greedy"})
    rng = random.Random(4)
    while not state.is_terminal():
        assert state.current_player() == 0, "seat 1 answers itself"
        state.apply_action(rng.choice(state.legal_actions()))
    again = content.deserialize(state.serialize())
    assert again.log_hash() == state.log_hash()
    with pytest.raises(ValueError, match="unknown agent"):
        content.new_game(1).set_agents({1: "minimax"})


def test_observation_tensor_has_the_encodings_shape():
    state = riffle.Content("summoner-master").new_game(2)
    for _ in range(10):  # past the choice of who goes first, to the opening hands
        state.apply_action(state.legal_actions()[0])
    version, rows, width, global_width = state.encoding()
    assert version.startswith("1-") and rows == riffle.CARD_ROWS
    cards, global_, options = riffle.observation(state, state.current_player())
    assert cards.shape == (rows, width) and global_.shape == (global_width,)
    assert options.shape[1] == 3
    assert (cards.sum(axis=1) != 0).sum() > 0, "the seat sees some cards"


def test_bad_setups_say_what_to_give():
    content = riffle.Content("onepiece")
    with pytest.raises(ValueError, match="no deck 'nope'"):
        content.new_game(1, decks=["nope", "red-rush"])
    with pytest.raises(ValueError, match="no such game|unknown|games"):
        riffle.Content("chess")
    with pytest.raises(ValueError, match="other content"):
        bad = json.loads(content.new_game(1).serialize())
        bad["content_hash"] = "0" * 64
        content.deserialize(json.dumps(bad))
