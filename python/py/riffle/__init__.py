"""Riffle card games from Python.

    import riffle
    content = riffle.Content("onepiece")          # found from the current folder
    state = content.new_game(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

`GameState` is shaped like an OpenSpiel state: `current_player()`, `legal_actions()`,
`legal_actions_mask()`, `apply_action(a)`, `returns()`, `clone()`, `serialize()`,
`information_state_string(p)`, `observation_tensor(p)`, `resample_from_infostate(p, seed)`.
Environments for reinforcement learning are in `riffle.env` (PettingZoo AEC, Gymnasium,
a vectorized one); batch simulation is `riffle.simulate(job)`; `riffle.ray` spreads a job
over a Ray cluster.
"""

import json

from . import _riffle
from ._riffle import ACTIONS, CARD_ROWS, DONE, OPTION_SLOTS, TERMINAL, Content, GameState, VectorGames

__all__ = [
    "ACTIONS",
    "CARD_ROWS",
    "DONE",
    "OPTION_SLOTS",
    "TERMINAL",
    "Content",
    "GameState",
    "VectorGames",
    "observation",
    "simulate",
]


def observation(state, player):
    """`state.observation_tensor(player)` as numpy arrays: card rows (rows × width), the
    global vector, and the options (n × 3: card row, target row, picked; -1 for none)."""
    import numpy as np

    cards, global_, options = state.observation_tensor(player)
    _, rows, width, _ = state.encoding()
    return (
        np.asarray(cards, dtype=np.float32).reshape(rows, width),
        np.asarray(global_, dtype=np.float32),
        np.asarray(options, dtype=np.int32).reshape(-1, 3),
    )


def simulate(job, threads=None):
    """Runs a simulation job (a dict, as `riffle sim --job`: game, decks or league, seed,
    games, agents...) on Rust threads: (records, summary), both plain dicts. The same job
    gives the same records whatever `threads` is."""
    records, summary = _riffle.simulate(json.dumps(job), threads)
    return [json.loads(r) for r in records], json.loads(summary)
