//! Starting a game from an arbitrary position (scenario tests, puzzles, tutorials): place
//! cards, set values, and start at a phase of a turn, without the ruleset's setup.

use std::rc::Rc;

use crate::content::Options;
use crate::engine::Engine;
use crate::game::driver::{Frame, Input, TurnStage};
use crate::game::{Game, empty_state};
use crate::operations::{self, Position};
use crate::rules::Rules;
use crate::state::match_context::MatchContext;
use crate::state::{ObjId, PlayerId, State};

/// How a placed card starts.
#[derive(Clone, Debug, Default)]
pub struct Place {
    /// Orientation (default: the first declared).
    pub orientation: Option<String>,
    /// Face up or down (default: the zone's).
    pub face_up: Option<bool>,
    /// Put it under this card instead of into the zone's list.
    pub attach_to: Option<ObjId>,
    /// Counters to set.
    pub counters: Vec<(String, i64)>,
    /// Flags to set.
    pub flags: Vec<String>,
    /// The turn it entered (default: the start turn).
    pub entered_turn: Option<u32>,
    /// A token (it stops existing when it leaves play), as the `token` operation makes.
    pub token: bool,
}

/// Builds a game position by hand.
pub struct Builder {
    engine: Rc<Engine>,
    state: State,
}

impl Builder {
    /// An empty position for `nplayers` seats, with the options' defaults.
    pub fn new(engine: Rc<Engine>, nplayers: u8, seed: u64) -> Result<Builder, String> {
        Builder::with_options(engine, nplayers, seed, &Options::new())
    }

    /// An empty position for `nplayers` seats with these options (the teams are formed
    /// from them, as [`Game::with_options`] does).
    pub fn with_options(
        engine: Rc<Engine>,
        nplayers: u8,
        seed: u64,
        options: &Options,
    ) -> Result<Builder, String> {
        let pc = &engine.db.rules.manifest.players;
        if nplayers < pc.min || nplayers > pc.max {
            return Err(format!(
                "this game takes {}..{} players, not {nplayers}",
                pc.min, pc.max
            ));
        }
        let seats = engine.seats(nplayers, options)?;
        let state = empty_state(&engine, seats, seed);
        Ok(Builder { engine, state })
    }

    /// The results of the match's games before this one (`ctx:match()`).
    pub fn set_match(&mut self, context: MatchContext) -> Result<(), String> {
        context.check_seats(self.state.nplayers)?;
        self.state.match_context = std::sync::Arc::new(context);
        Ok(())
    }

    /// Places a card (by id) in `player`'s zone (on top). Returns the new object.
    pub fn place(
        &mut self,
        player: PlayerId,
        zone: &str,
        card: &str,
        opts: &Place,
    ) -> Result<ObjId, String> {
        let db = self.engine.db.clone();
        let decl = db.rules.zone_index(&db.names, zone)?;
        let ci = db
            .card_of(card)
            .ok_or_else(|| format!("no card '{card}'"))?;
        if player >= self.state.nplayers {
            return Err(format!("player {} does not exist", player + 1));
        }
        let z = self.state.zone_id(decl, player);
        let orientation = match &opts.orientation {
            Some(o) => Some(
                db.rules.orientations.syms[Rules::lookup(&db.names, &db.rules.orientations, o)?],
            ),
            None => None,
        };
        let id = operations::new_object(
            &db,
            &mut self.state,
            ci,
            player,
            z,
            opts.face_up,
            orientation,
        );
        match opts.attach_to {
            Some(h) => {
                if h.0 as usize >= self.state.objects.len() {
                    return Err("attach_to: no such card".into());
                }
                let hz = self.state.obj(h).zone;
                let o = self.state.obj_mut(id);
                o.attached_to = Some(h);
                o.zone = hz;
                self.state.obj_mut(h).attachments.push(id);
            }
            None => {
                if let Some(cap) = db.rules.zones[decl].1.capacity
                    && self.state.zone(z).cards.len() as u32 >= cap
                {
                    return Err(format!(
                        "zone {zone} of player {} is full ({cap})",
                        player + 1
                    ));
                }
                operations::place(&mut self.state, id, z, Position::Top)
            }
        }
        for (name, v) in &opts.counters {
            let i = Rules::lookup(&db.names, &db.rules.counters, name)?;
            self.state.obj_mut(id).counters[i] = *v;
        }
        for name in &opts.flags {
            let i = Rules::lookup(&db.names, &db.rules.flags, name)?;
            self.state.obj_mut(id).flags |= 1 << i;
        }
        if let Some(t) = opts.entered_turn {
            self.state.obj_mut(id).entered_turn = t;
        }
        self.state.obj_mut(id).token = opts.token;
        Ok(id)
    }

    /// Sets a player's value.
    pub fn set_value(&mut self, player: PlayerId, name: &str, v: i64) -> Result<(), String> {
        let db = &self.engine.db;
        let i = Rules::lookup(&db.names, &db.rules.player_values, name)?;
        std::sync::Arc::make_mut(&mut self.state.players)[player as usize].values[i] = v;
        Ok(())
    }

    /// Sets a game value.
    pub fn set_game_value(&mut self, name: &str, v: i64) -> Result<(), String> {
        let db = &self.engine.db;
        let i = Rules::lookup(&db.names, &db.rules.game_values, name)?;
        std::sync::Arc::make_mut(&mut self.state.game_values)[i] = v;
        Ok(())
    }

    /// Each player's `turns_taken` for a game started at turn `turn`: the turn players took
    /// the turns before it in the kernel's order (`next_side_after`), ending with the turn
    /// player's turn `turn`.
    fn count_turns_taken(&mut self) {
        let st = &self.state;
        let mut cycle = vec![st.turn_player];
        loop {
            let next = st.next_side_after(*cycle.last().expect("not empty"));
            if cycle.contains(&next) {
                break;
            }
            cycle.push(next);
        }
        let (m, turn) = (cycle.len() as u32, st.turn);
        let players = std::sync::Arc::make_mut(&mut self.state.players);
        for (j, &p) in cycle.iter().enumerate() {
            // Turn `turn - k` was cycle[(m - k % m) % m]'s: player j took those with
            // k % m == (m - j) % m, for k in 0..turn.
            let r = (m - j as u32) % m;
            players[p as usize].turns_taken = if turn > r { (turn - 1 - r) / m + 1 } else { 0 };
        }
    }

    /// Starts turn `turn` of `turn_player` at the beginning of `phase` (its procedure runs),
    /// and runs until the first decision. Cards placed without `entered_turn` count as
    /// having entered on an earlier turn. With teams, the turn is `turn_player`'s team's,
    /// and its turn player the team's first seat.
    pub fn start(mut self, turn: u32, turn_player: PlayerId, phase: &str) -> Result<Game, String> {
        let db = self.engine.db.clone();
        let i = db
            .rules
            .manifest
            .turn
            .phases
            .iter()
            .position(|p| p.name == phase)
            .ok_or_else(|| format!("no phase '{phase}'"))?;
        if turn_player >= self.state.nplayers {
            return Err(format!("player {} does not exist", turn_player + 1));
        }
        self.state.turn = turn.max(1);
        self.state.turn_player = self
            .state
            .side_first(self.state.team_of(turn_player))
            .unwrap_or(turn_player);
        self.count_turns_taken();
        // The placed cards' stand-ins (`stand_ins` zones) apply from the start.
        operations::refresh_definitions(&db, &mut self.state);
        let placed_turn = self.state.turn.saturating_sub(1);
        for o in std::sync::Arc::make_mut(&mut self.state.objects).iter_mut() {
            if o.entered_turn == 0 {
                o.entered_turn = placed_turn;
            }
        }
        // Nothing read while placing holds for the game.
        self.state.chars.clear();
        let mut g = Game::from_parts(
            self.engine,
            self.state,
            vec![Frame::Turns(TurnStage::PhaseStart(i))],
        );
        g.drive(Input::Start);
        Ok(g)
    }
}
