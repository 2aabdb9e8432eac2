//! `mcts`: information-set Monte Carlo tree search (single observer: Cowling, Powley and
//! Whitehouse, 2012). Every playout starts from a copy of the game in which the cards the
//! seat cannot see are dealt again (`Game::redeal`), walks a tree of everyone's answers by
//! UCB (a node's answers weighed only in the copies where they are legal), plays on at
//! random for a few decisions and scores the position from each player's own view.
//!
//! Where a script is suspended (a question in the middle of an effect) the game cannot be
//! dealt again without replaying what the script read, so the agent answers there as
//! `greedy` does, from a fork scored by its own view; [`MctsStats`] counts those answers.

use std::time::{Duration, Instant};

use riffle_core::{Game, PlayerId, Request, Response, Rng};

use crate::evaluation::WON;
use crate::{Agent, Evaluation, GreedyAgent, candidates};

/// How much search one answer gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many playouts (deterministic: the same game and seed, the same answer).
    Playouts(u32),
    /// Playouts until this much time has passed (at least one; depends on the machine).
    Time(Duration),
}

/// What the search did, over the agent's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MctsStats {
    /// Answers found by search.
    pub searched: u64,
    /// Answers with nothing to weigh (one legal answer).
    pub forced: u64,
    /// Answers given as `greedy` would, the game not dealable there (a suspended script).
    pub greedy: u64,
    /// Playouts run.
    pub playouts: u64,
}

/// Decisions played at random after the tree before the position is scored.
const PLAYOUT_DEPTH: u32 = 24;
/// UCB's exploration constant, for rewards in 0..=1.
const EXPLORATION: f64 = 0.7;
/// A score this far from 0 is worth about 0.73 (or 0.27) as a reward.
const SCORE_SCALE: f64 = 4.0;

/// The search agent.
pub struct MctsAgent {
    budget: Budget,
    rng: Rng,
    evaluation: Evaluation,
    greedy: GreedyAgent,
    stats: MctsStats,
}

struct Node {
    edges: Vec<Edge>,
}

struct Edge {
    answer: Response,
    child: Option<usize>,
    /// Playouts through this edge.
    visits: u32,
    /// Their rewards, for the player who answered.
    reward: f64,
    /// Playouts in which this answer was legal at its node.
    available: u32,
}

impl MctsAgent {
    /// An agent that searches `budget` per answer, scoring with `evaluation`, seeded.
    pub fn new(evaluation: Evaluation, budget: Budget, seed: u64) -> MctsAgent {
        MctsAgent {
            budget,
            rng: Rng::new(seed),
            greedy: GreedyAgent::new(evaluation.clone(), seed ^ 0x9e37_79b9_7f4a_7c15),
            evaluation,
            stats: MctsStats::default(),
        }
    }

    /// What the search has done so far.
    pub fn stats(&self) -> MctsStats {
        self.stats
    }

    fn search(&mut self, game: &Game, req: &Request) -> Option<Response> {
        let seat = req.player();
        // Dealable here? (a suspended script refuses.)
        game.redeal(seat, 0).ok()?;
        let mut tree = vec![Node { edges: Vec::new() }];
        let start = Instant::now();
        let mut n = 0u32;
        loop {
            let done = match self.budget {
                Budget::Playouts(k) => n >= k.max(1),
                Budget::Time(t) => n >= 1 && start.elapsed() >= t,
            };
            if done {
                break;
            }
            let world = game.redeal(seat, self.rng.next_u64()).ok()?;
            self.playout(&mut tree, world);
            n += 1;
        }
        self.stats.playouts += n as u64;
        tree[0]
            .edges
            .iter()
            .max_by(|a, b| {
                (a.visits, a.reward)
                    .partial_cmp(&(b.visits, b.reward))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|e| e.answer.clone())
    }

    /// One playout on `world`: down the tree, one new node, random play, rewards back up.
    fn playout(&mut self, tree: &mut Vec<Node>, mut world: Game) {
        let mut path: Vec<(usize, usize, PlayerId)> = Vec::new();
        let mut node = 0;
        let mut expanded = false;
        while let Some(req) = world.shared_request() {
            let p = req.player();
            let legal = candidates(&req, &mut self.rng);
            let edges = &mut tree[node].edges;
            for r in &legal {
                match edges.iter_mut().find(|e| e.answer == *r) {
                    Some(e) => e.available += 1,
                    None => edges.push(Edge {
                        answer: r.clone(),
                        child: None,
                        visits: 0,
                        reward: 0.0,
                        available: 1,
                    }),
                }
            }
            let untried: Vec<usize> = (0..edges.len())
                .filter(|i| edges[*i].visits == 0 && legal.contains(&edges[*i].answer))
                .collect();
            let pick = if !untried.is_empty() {
                untried[self.rng.below(untried.len() as u64) as usize]
            } else {
                ucb_pick(edges, &legal)
            };
            let answer = edges[pick].answer.clone();
            if world.respond(p, answer).is_err() {
                break;
            }
            path.push((node, pick, p));
            if tree[node].edges[pick].visits == 0 {
                expanded = true;
            }
            let child = match tree[node].edges[pick].child {
                Some(c) => c,
                None => {
                    tree.push(Node { edges: Vec::new() });
                    let c = tree.len() - 1;
                    tree[node].edges[pick].child = Some(c);
                    c
                }
            };
            node = child;
            if expanded {
                break;
            }
        }
        for _ in 0..PLAYOUT_DEPTH {
            let Some(req) = world.shared_request() else {
                break;
            };
            let r = req.random_legal(&mut self.rng);
            if world.respond(req.player(), r).is_err() {
                break;
            }
        }
        let mut rewards: Vec<(PlayerId, f64)> = Vec::new();
        for (node, edge, p) in path {
            let r = match rewards.iter().find(|(q, _)| *q == p) {
                Some((_, r)) => *r,
                None => {
                    let r = reward(self.evaluation.score(&world, p));
                    rewards.push((p, r));
                    r
                }
            };
            let e = &mut tree[node].edges[edge];
            e.visits += 1;
            e.reward += r;
        }
    }
}

/// The edge among the legal answers with the best upper confidence bound.
fn ucb_pick(edges: &[Edge], legal: &[Response]) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, e) in edges.iter().enumerate() {
        if e.visits == 0 || !legal.contains(&e.answer) {
            continue;
        }
        let mean = e.reward / e.visits as f64;
        let bound = mean + EXPLORATION * ((e.available as f64).ln() / e.visits as f64).sqrt();
        if bound > best.1 {
            best = (i, bound);
        }
    }
    best.0
}

/// A score as a reward in 0..=1: a win 1, a loss 0, a draw or an even position 0.5.
fn reward(score: f64) -> f64 {
    if score >= WON {
        1.0
    } else if score <= -WON {
        0.0
    } else {
        1.0 / (1.0 + (-score / SCORE_SCALE).exp())
    }
}

impl Agent for MctsAgent {
    fn respond(&mut self, game: &Game, req: &Request) -> Result<Response, String> {
        if candidates(req, &mut self.rng).len() == 1 {
            self.stats.forced += 1;
            return Ok(req.first_legal());
        }
        match self.search(game, req) {
            Some(r) => {
                self.stats.searched += 1;
                Ok(r)
            }
            None => {
                self.stats.greedy += 1;
                self.greedy.respond(game, req)
            }
        }
    }
}
