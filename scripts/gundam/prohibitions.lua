-- Prohibitions from card text (GD 1-3-3: a prohibition beats an instruction), read when the
-- act is about to happen, with the game as it is then: "this Unit can't choose the enemy
-- player as its attack target", "this Unit cannot be attacked", "this Unit cannot be
-- returned to its owner's hand". The same form as One Piece's (prohibitions.lua there): a
-- card states one as a static ability tagged `prohibits`, the ruleset asks GD.forbidden
-- before each act it names (play.lua's attack options, verbs.lua's moves).
-- The keyword prohibitions of game.yaml (`cannot_attack`, `cannot_block`...) still work.

GD = GD or {}

--- The acts a prohibition may name, with what the ruleset tells about each (`act.name` is
--- the act):
--- * attack: `card` (the Unit that would attack), `target` (the Unit it would attack; nil
---   when it would attack a player), `defender` (the player attacked, or the target's
---   controller), `player` (the attacking player). Asked when the attacks are offered (8-2-1).
--- * attacked: the same attack seen from the Unit attacked: `card`, `attacker`, `player`.
--- * move: `card` (a card an effect would return to the hand or put into the deck), `from`,
---   `to` ("hand", "deck"), `player` (whose effect).
GD.ACTS = { attack = true, attacked = true, move = true }

local P = prohibitions.family {
  acts = GD.ACTS,
  returns = { "hand", "deck" },
  -- A printed prohibition binds "this unit": a Pilot's text speaks of its Unit (3-3-9-2).
  this_card = function(sctx) return GD.this_unit(sctx) end,
  finish = function(a)
    a.kind, a.timing = "static", "prohibits" -- the tag GD.forbidden looks for
    a.zones = a.zones or { "battle_area", "base_section" }
    return a
  end,
}

--- Whether an effect prohibits `act` now (GD 1-3-3). A prohibition whose script fails binds
--- nothing, and the error names its card.
function GD.forbidden(ctx, act) return P.forbidden(ctx, act) end

--- Whether Unit `a` may attack `t` (a Unit) or, with `t` nil, player `q` (GD 8-2-1, 1-3-3).
function GD.may_attack_target(ctx, a, t, q)
  local p = a.controller
  if GD.forbidden(ctx, { name = "attack", card = a, target = t, defender = q, player = p }) then return false end
  return t == nil or not GD.forbidden(ctx, { name = "attacked", card = t, attacker = a, player = p })
end

--- Whether an effect of `ctx.player` may move `c` to `zone` (GD 1-3-3).
function GD.may_move(ctx, c, zone) return P.may_move(ctx, c, zone) end

--- A prohibition (GD 1-3-3) while this card is on the field (a Pilot's: while paired), or,
--- declared `dormant = true`, the lasting part of a one-shot effect (`forbid` gives it to
--- cards). Fields: `forbids` (one of GD.ACTS), `affects(ctx, card)` (the cards it binds;
--- default "this unit"), `player` ("you" or "opponent": only that player's acts),
--- `when(ctx, act)` (anything else, read when the act happens), `condition(ctx)`.
function prohibition(a) return P.prohibition(a, 2) end

--- "This Unit can't choose the enemy player as its attack target" (GD 1-3-3 over 8-2-1).
function cannot_attack_player(a)
  local when = a.when
  a.forbids = "attack"
  a.when = function(ctx, act) return act.target == nil and (when == nil or when(ctx, act)) end
  return prohibition(a)
end

--- "This Unit cannot be attacked" (GD 1-3-3 over 8-2-1).
function cannot_be_attacked(a) return P.cannot_be_attacked(a, 2) end

--- "This card cannot be returned to the hand" (`to = "hand"`), "... to the deck" (`to =
--- "deck"`), or either (no `to`), by effects (GD 1-3-3).
function cannot_be_returned(a) return P.cannot_be_returned(a, 2) end

--- Gives each of `cards` the `dormant` prohibition `def` for `duration` (verbs.lua `lasts`).
function forbid(ctx, def, cards, duration) P.forbid(ctx, def, cards, duration) end
