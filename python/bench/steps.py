"""Steps per second from Python: one game state, the Gymnasium env, and the vectorized env
on 1 and 2 threads. Install the package first (`pip install './python'`, a release build),
then from the repository's root:

    python3 python/bench/steps.py [--game onepiece] [--steps 20000] [--repeats 3] [--json]

A step is one action applied, chosen at random among the legal ones with numpy. Medians of
the repeats; compare figures from one run (the machine's load changes between runs).
"""

import argparse
import json
import statistics
import time

import numpy as np

import riffle
from riffle.env import RiffleEnv, RiffleVectorEnv


def state_steps(content, steps, observe, rng):
    """Steps of `GameState` played at random, games started again as they end."""
    done, seed, t = 0, 0, time.perf_counter()
    state = content.new_game(seed=seed)
    while done < steps:
        if state.is_terminal():
            seed += 1
            state = content.new_game(seed=seed)
            continue
        p = state.current_player()
        if observe:
            state.observation_tensor(p)
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        done += 1
    return done / (time.perf_counter() - t)


def gym_steps(game, steps, rng):
    """Steps of `RiffleEnv` (one seat against random agents played in Rust)."""
    env = RiffleEnv(game=game, seat=0, opponent="random")
    _, info = env.reset(seed=0)
    done, t = 0, time.perf_counter()
    while done < steps:
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        done += 1
        if term or trunc:
            _, info = env.reset()
    return done / (time.perf_counter() - t)


def vector_steps(game, n, threads, steps, rng):
    """Steps of `RiffleVectorEnv`: each call steps `n` games at once."""
    venv = RiffleVectorEnv(game=game, n=n, threads=threads)
    _, info = venv.reset(seed=0)
    done, t = 0, time.perf_counter()
    while done < steps:
        masks = info["action_mask"]
        # A random legal action per game: the mask's ones, picked by a random key.
        keys = rng.random(masks.shape) * masks
        _, _, _, _, info = venv.step(keys.argmax(axis=1))
        done += n
    return done / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="onepiece")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--vector-n", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    content = riffle.Content(args.game)
    runs = {
        "state": lambda: state_steps(content, args.steps, False, rng),
        "state + observation_tensor": lambda: state_steps(content, args.steps, True, rng),
        "gymnasium env": lambda: gym_steps(args.game, args.steps, rng),
        f"vector env, {args.vector_n} games, 1 thread": lambda: vector_steps(
            args.game, args.vector_n, 1, args.steps, rng),
        f"vector env, {args.vector_n} games, 2 threads": lambda: vector_steps(
            args.game, args.vector_n, 2, args.steps, rng),
    }
    out = {}
    for name, run in runs.items():
        out[name] = statistics.median(run() for _ in range(args.repeats))
    if args.json:
        print(json.dumps({"game": args.game, "steps_per_second": out}, indent=2))
    else:
        print(f"{args.game}: steps/s, median of {args.repeats} runs of {args.steps} steps")
        for name, v in out.items():
            print(f"  {name:<40} {v:>10,.0f}")


if __name__ == "__main__":
    main()
