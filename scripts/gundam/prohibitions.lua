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

--- Whether prohibition `d` binds `act` for ability `s` (ctx:abilities), in `sctx`.
local function binds(sctx, s, d, act)
  if d.forbids ~= act.name then return false end
  -- The card it binds: the card it was given to; else `affects`; else "this unit" (a
  -- Pilot's text speaks of its Unit, 3-3-9-2); armed with no card: any card.
  if s.granted and not s.delayed then
    if act.card ~= s.source then return false end
  elseif d.binds_cards then
    if not d.binds_cards(sctx, act.card) then return false end
  elseif not s.delayed and act.card ~= GD.this_unit(sctx) then
    return false
  end
  if d.player == "you" and act.player ~= sctx.player then return false end
  if d.player == "opponent" and (act.player == nil or act.player == sctx.player) then return false end
  if d.condition and not d.condition(sctx) then return false end
  return d.when == nil or d.when(sctx, act) == true
end

--- Whether an effect prohibits `act` now (GD 1-3-3). A prohibition whose script fails binds
--- nothing, and the error names its card.
function GD.forbidden(ctx, act)
  for _, s in ipairs(ctx:abilities({ kind = "static", timing = "prohibits", delayed = true })) do
    local src = s.source
    local sctx = ctx:with({ source = src, player = s.controller or (src and src.controller) or ctx.player })
    if ctx:guard(src, binds, sctx, s, s.def, act) == true then return true end
  end
  return false
end

--- Whether Unit `a` may attack `t` (a Unit) or, with `t` nil, player `q` (GD 8-2-1, 1-3-3).
function GD.may_attack_target(ctx, a, t, q)
  local p = a.controller
  if GD.forbidden(ctx, { name = "attack", card = a, target = t, defender = q, player = p }) then return false end
  return t == nil or not GD.forbidden(ctx, { name = "attacked", card = t, attacker = a, player = p })
end

--- Whether an effect of `ctx.player` may move `c` to `zone` (GD 1-3-3).
function GD.may_move(ctx, c, zone)
  return not GD.forbidden(ctx, { name = "move", card = c, from = c.zone, to = zone, player = ctx.player })
end

--- A prohibition (GD 1-3-3) while this card is on the field (a Pilot's: while paired), or,
--- declared `dormant = true`, the lasting part of a one-shot effect (`forbid` gives it to
--- cards). Fields: `forbids` (one of GD.ACTS), `affects(ctx, card)` (the cards it binds;
--- default "this unit"), `player` ("you" or "opponent": only that player's acts),
--- `when(ctx, act)` (anything else, read when the act happens), `condition(ctx)`.
function prohibition(a)
  if not GD.ACTS[a.forbids] then
    error(string.format("prohibition: `forbids` should be one of attack, attacked, move, not %s", tostring(a.forbids)), 2)
  end
  if a.player ~= nil and a.player ~= "you" and a.player ~= "opponent" then
    error(string.format("prohibition: `player` should be \"you\" or \"opponent\", not %s", tostring(a.player)), 2)
  end
  for _, k in ipairs({ "affects", "when", "condition" }) do
    if a[k] ~= nil and type(a[k]) ~= "function" then
      error(string.format("prohibition: `%s` should be a function, not a %s", k, type(a[k])), 2)
    end
  end
  -- `affects` would make the kernel apply it as a characteristic change: keep it apart.
  a.binds_cards, a.affects = a.affects, nil
  a.kind, a.timing = "static", "prohibits" -- the tag GD.forbidden looks for
  a.zones = a.zones or { "battle_area", "base_section" }
  return a
end

--- "This Unit can't choose the enemy player as its attack target" (GD 1-3-3 over 8-2-1).
function cannot_attack_player(a)
  local when = a.when
  a.forbids = "attack"
  a.when = function(ctx, act) return act.target == nil and (when == nil or when(ctx, act)) end
  return prohibition(a)
end

--- "This Unit cannot be attacked" (GD 1-3-3 over 8-2-1).
function cannot_be_attacked(a)
  a.forbids = "attacked"
  return prohibition(a)
end

--- "This card cannot be returned to the hand" (`to = "hand"`), "... to the deck" (`to =
--- "deck"`), or either (no `to`), by effects (GD 1-3-3).
function cannot_be_returned(a)
  local to, when = a.to, a.when
  if to ~= nil and to ~= "hand" and to ~= "deck" then
    error(string.format("cannot_be_returned: `to` should be \"hand\" or \"deck\", not %s", tostring(to)), 2)
  end
  a.forbids, a.to = "move", nil
  a.when = function(ctx, act) return (to == nil or act.to == to) and (when == nil or when(ctx, act)) end
  return prohibition(a)
end

--- Gives each of `cards` the `dormant` prohibition `def` for `duration` (verbs.lua `lasts`).
function forbid(ctx, def, cards, duration)
  for _, c in ipairs(GD.list(cards)) do ctx:grant_ability(def, c, lasts(ctx, duration)) end
end
