"""riffle.simulate (issue #29 item 2 from Python)."""

import pytest

import riffle


def test_the_same_job_gives_the_same_records_on_one_thread_or_two():
    job = {"game": "onepiece", "games": 8, "seed": 3, "agents": ["greedy", "random"]}
    r1, s1 = riffle.simulate(job, threads=1)
    r2, s2 = riffle.simulate(job, threads=2)
    assert r1 == r2 and s1["log_hash"] == s2["log_hash"]
    assert [r["seed"] for r in r1] == list(range(3, 11))
    assert s1["seats"][0]["wins"] + s1["seats"][1]["wins"] + s1["terminations"].get("draw", 0) == 8


def test_a_bad_job_says_what_to_give():
    with pytest.raises(ValueError, match="unknown field"):
        riffle.simulate({"game": "onepiece", "games": 1, "sedd": 2})
    with pytest.raises(ValueError, match="agents: give one per seat"):
        riffle.simulate({"game": "onepiece", "games": 1, "agents": ["random"]})


def test_a_job_that_records_replays_gives_each_games_replay():
    job = {"game": "onepiece", "games": 2, "seed": 5}
    plain, _ = riffle.simulate(job)
    recorded, _ = riffle.simulate({**job, "record": "replays"})
    assert all("replay" not in r for r in plain)
    for p, r in zip(plain, recorded):
        replay = r.pop("replay")
        assert r == p, "recording a replay changes nothing else"
        lines = replay.splitlines()
        assert '"format":"riffle-replay"' in lines[0] and f'"seed":{p["seed"]}' in lines[0]
        # The replay's last line is the game's end, with the record's log hash.
        assert p["log_hash"] in lines[-1]
