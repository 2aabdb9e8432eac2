"""Reinforcement-learning environments over Riffle games.

- `RiffleAEC`: a PettingZoo AEC environment, every seat an agent (`player_0`, ...).
- `RiffleEnv`: a Gymnasium environment, one seat against agents played in Rust (`random`,
  `greedy`, `mcts:N`...).
- `RiffleVectorEnv`: many games stepped at once on Rust threads, without the GIL.

Observations are flat float32 vectors (card rows, a global vector, 64 option slots; see
`riffle.GameState.flat_observation`), and the action space is `Discrete(riffle.ACTIONS)`:
action i picks option i of the pending choice, `riffle.DONE` ends a several-card choice.
Only the legal actions may be taken: PettingZoo's observation carries an `action_mask`,
Gymnasium's `info` too. In `RiffleEnv`, an illegal action ends the episode as a loss.
"""

import numpy as np

from . import ACTIONS, OPTION_SLOTS, Content, VectorGames

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover
    raise ImportError("riffle.env needs gymnasium: pip install 'riffle[envs]'") from e


def _flat_size(state):
    _, rows, width, global_width = state.encoding()
    return rows * width + global_width + 3 * OPTION_SLOTS


def _observation_space(size):
    return spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32)


def _mask(state):
    # Rust's bytes, one per action.
    return np.frombuffer(state.legal_actions_mask(), dtype=np.int8).copy()


def aec_env(game="onepiece", players=None, decks=None, options=None, paths=None, render_mode=None):
    """A PettingZoo AEC environment of `game` (every seat an agent)."""
    from pettingzoo import AECEnv

    class _RiffleAEC(AECEnv):
        metadata = {"name": "riffle_v0", "render_modes": ["ansi"], "is_parallelizable": False}

        def __init__(self):
            super().__init__()
            self.content = Content(game, paths)
            self._setup = dict(decks=decks, players=players, options=options)
            probe = self.content.new_game(1, **self._setup)
            n = probe.num_players()
            self.possible_agents = [f"player_{i}" for i in range(n)]
            self._obs_space = spaces.Dict(
                {
                    "observation": _observation_space(_flat_size(probe)),
                    "action_mask": spaces.Box(0, 1, shape=(ACTIONS,), dtype=np.int8),
                }
            )
            self._act_space = spaces.Discrete(ACTIONS)
            self.render_mode = render_mode
            self._rng = np.random.default_rng()
            self.state = None

        def observation_space(self, agent):
            return self._obs_space

        def action_space(self, agent):
            return self._act_space

        def reset(self, seed=None, options=None):
            if seed is not None:
                self._rng = np.random.default_rng(seed)
            game_seed = int(self._rng.integers(0, 2**63))
            self.state = self.content.new_game(game_seed, **self._setup)
            self.agents = list(self.possible_agents)
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self._select()

        def _select(self):
            p = self.state.current_player()
            if p >= 0:
                self.agent_selection = self.possible_agents[p]

        def observe(self, agent):
            p = self.possible_agents.index(agent)
            obs = np.asarray(self.state.flat_observation(p), dtype=np.float32)
            mask = (
                _mask(self.state)
                if self.state.current_player() == p
                else np.zeros(ACTIONS, dtype=np.int8)
            )
            return {"observation": obs, "action_mask": mask}

        def step(self, action):
            if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
                self._was_dead_step(action)
                return
            agent = self.agent_selection
            self._cumulative_rewards[agent] = 0.0
            self.state.apply_action(int(action))
            self.rewards = {a: 0.0 for a in self.agents}
            if self.state.is_terminal():
                returns = self.state.returns()
                for i, a in enumerate(self.possible_agents):
                    if a in self.agents:
                        self.rewards[a] = float(returns[i])
                        self.terminations[a] = True
            else:
                self._select()
            self._accumulate_rewards()

        def render(self):
            return str(self.state)

        def close(self):
            pass

    return _RiffleAEC()


class RiffleEnv(gymnasium.Env):
    """One seat (`seat`) of `game` against agents played in Rust at the other seats."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game="onepiece", seat=0, opponent="random", players=None, decks=None,
                 options=None, paths=None, render_mode=None):
        self.content = Content(game, paths)
        self._setup = dict(decks=decks, players=players, options=options)
        probe = self.content.new_game(1, **self._setup)
        self.seat = seat
        self.opponent = opponent
        self._others = {p: opponent for p in range(probe.num_players()) if p != seat}
        if seat not in range(probe.num_players()):
            raise ValueError(f"seat {seat}: the game has {probe.num_players()} seats (from 0)")
        self.observation_space = _observation_space(_flat_size(probe))
        self.action_space = spaces.Discrete(ACTIONS)
        self.render_mode = render_mode
        self.state = None

    def _observe(self):
        obs = np.asarray(self.state.flat_observation(self.seat), dtype=np.float32)
        return obs, {"action_mask": _mask(self.state)}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.state = self.content.new_game(game_seed, **self._setup)
        self.state.set_agents(self._others)
        return self._observe()

    def step(self, action):
        try:
            self.state.apply_action(int(action))
        except ValueError:
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        obs, info = self._observe()
        if self.state.is_terminal():
            return obs, float(self.state.returns()[self.seat]), True, False, info
        return obs, 0.0, False, False, info

    def render(self):
        return str(self.state)


class RiffleVectorEnv:
    """`n` games of one seat against agents, stepped at once on Rust threads without the
    GIL. `reset(seed)` and `step(actions)` give numpy arrays: observations (n × size), masks
    (n × ACTIONS), and from `step` rewards and terminated. A finished game starts again at
    once: its reward and `terminated` come with the next game's first observation."""

    def __init__(self, game="onepiece", n=16, threads=2, seat=0, opponent="random",
                 players=None, decks=None, paths=None):
        self.games = VectorGames(game, n, threads, seat, opponent, players, decks, paths)
        self.n = n
        self.size = self.games.observation_size
        self.single_observation_space = _observation_space(self.size)
        self.single_action_space = spaces.Discrete(ACTIONS)

    def _arrays(self, batch):
        obs, masks, rewards, done = batch
        return (
            np.frombuffer(obs, dtype="<f4").reshape(self.n, self.size).astype(np.float32),
            np.frombuffer(masks, dtype=np.int8).reshape(self.n, ACTIONS).copy(),
            np.asarray(rewards, dtype=np.float64),
            np.asarray(done, dtype=bool),
        )

    def reset(self, seed=0):
        obs, masks, _, _ = self._arrays(self.games.reset(seed))
        return obs, {"action_mask": masks}

    def step(self, actions):
        obs, masks, rewards, done = self._arrays(self.games.step([int(a) for a in actions]))
        return obs, rewards, done, np.zeros(self.n, dtype=bool), {"action_mask": masks}
