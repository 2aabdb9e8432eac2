"""PettingZoo, Gymnasium and the vectorized environment (issue #29 item 3)."""

import numpy as np
import pytest

import riffle
from riffle.env import RiffleEnv, RiffleVectorEnv, aec_env


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(aec_env(game="onepiece"), num_cycles=200)


def test_pettingzoo_api_test_four_seats():
    from pettingzoo.test import api_test

    api_test(aec_env(game="gundam", players=4, options={"mode": "team"}), num_cycles=200)


def test_pettingzoo_seed_test():
    from pettingzoo.test import seed_test

    seed_test(lambda: aec_env(game="summoner-master"), num_cycles=100)


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    check_env(RiffleEnv(game="onepiece", opponent="random"), skip_render_check=True)


def test_gymnasium_episodes_end_with_the_seats_return():
    env = RiffleEnv(game="gundam", seat=1, opponent="first")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
    assert total in (-1.0, 0.0, 1.0) and steps > 5
    assert env.state.returns()[1] == total
    # An illegal action ends the episode as a loss.
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]


def test_vector_env_steps_many_games_and_restarts_finished_ones():
    venv = RiffleVectorEnv(game="onepiece", n=6, threads=2)
    obs, info = venv.reset(seed=10)
    assert obs.shape == (6, venv.size) and info["action_mask"].shape == (6, riffle.ACTIONS)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = info["action_mask"]
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, rewards, done, _, info = venv.step(actions)
        finished += int(done.sum())
        assert set(np.unique(rewards[done])) <= {-1.0, 0.0, 1.0}
        assert (rewards[~done] == 0).all()
    assert finished >= 6
    # The same seed and actions give the same observations, on any number of threads.
    a = RiffleVectorEnv(game="onepiece", n=3, threads=1).reset(seed=5)[0]
    b = RiffleVectorEnv(game="onepiece", n=3, threads=3).reset(seed=5)[0]
    assert np.array_equal(a, b)
