-- Prohibitions from card text (SM 100.2: the text that says "cannot" wins, whatever the
-- Timestamps), read when the act is about to happen, with the game as it is then: "this Seal
-- cannot be attacked by Fire Seals", "this Seal cannot attack the hand", "this card cannot be
-- returned to the hand". The same form as One Piece's and Gundam's (scripts/lib/
-- prohibitions.lua): a card states one as a static ability tagged `prohibits`, the ruleset
-- asks SM.forbidden before each act it names (attack.lua's targets, zones.lua's moves).
-- The keyword prohibitions (`cannot_attack`, `cannot_be_attacked`...) still work.

SM = SM or {}

--- The acts a prohibition may name, with what the ruleset tells about each (`act.name` is
--- the act):
--- * attack: `card` (the Seal that would attack), `target` (the Seal it would attack, SM 503;
---   nil: it would attack the hand, 505), `player` (the commanding player). Asked when the
---   attacks are offered and declared; not for an All attack's Seals (506.6: 503 is not
---   checked).
--- * attacked: the same attack seen from the Seal attacked: `card`, `attacker`, `player`.
--- * move: `card` (a card an effect would return to the hand or the Library), `from`, `to`
---   ("hand", "library"), `player` (whose effect).
SM.ACTS = { attack = true, attacked = true, move = true }

local P = prohibitions.family {
  acts = SM.ACTS,
  returns = { "hand", "library" },
  -- A printed prohibition binds its own card.
  this_card = function(sctx) return sctx.source end,
  finish = function(a, fields) return SM.prohibition_ability(a, fields) end,
}

--- Whether an effect prohibits `act` now (SM 100.2). A prohibition whose script fails binds
--- nothing, and the error names its card.
--- (`found`: SM.prohibitions_now's list, when the caller has it.)
function SM.forbidden(ctx, act, found) return P.forbidden(ctx, act, found) end

--- The prohibitions on the field or given by effects now: listed once for the tests of one moment
--- (the attacks offered), each passed as `found`.
function SM.prohibitions_now(ctx) return P.now(ctx) end

--- Whether Seal `a`, commanded by `p`, may attack Seal `t` or, with `t` nil, the hand (SM 100.2
--- over 503, 505): no prohibition of the attack, nor of `t` being attacked. `found`: as
--- SM.forbidden's (none: nothing forbids).
function SM.may_attack_target(ctx, a, t, p, found)
  if found ~= nil and #found == 0 then return true end
  if SM.forbidden(ctx, { name = "attack", card = a, target = t, player = p }, found) then return false end
  return t == nil or not SM.forbidden(ctx, { name = "attacked", card = t, attacker = a, player = p }, found)
end

--- Whether an effect of `ctx.player` may move `c` to `zone` (SM 100.2).
function SM.may_move(ctx, c, zone) return P.may_move(ctx, c, zone) end

--- A prohibition (SM 100.2) while this card works (in the Arena), or, declared `dormant =
--- true`, the lasting part of a one-shot effect (`forbid` gives it to cards). Fields:
--- `forbids` (one of SM.ACTS), `affects(ctx, card)` (the cards it binds; default this card),
--- `player` ("you" or "opponent": only that player's acts), `when(ctx, act)` (anything else,
--- read when the act happens), `condition(ctx)`.
function prohibition(a) return P.prohibition(a, 2) end

--- "This Seal cannot be attacked" with a condition on the attack (`when(ctx, act)`: the
--- attacker is `act.attacker`), SM 100.2 over 503.3. Without one, `gains("cannot_be_attacked")`
--- says the same.
function cannot_be_attacked(a) return P.cannot_be_attacked(a, 2) end

--- "This card cannot be returned to the hand" (`to = "hand"`), "... to the Library" (`to =
--- "library"`), or either (no `to`), by effects (SM 100.2 over 704, 705).
function cannot_be_returned(a) return P.cannot_be_returned(a, 2) end

--- Gives each of `cards` the `dormant` prohibition `def` for `duration` (verbs.lua `lasts`).
function forbid(ctx, def, cards, duration) P.forbid(ctx, def, cards, duration) end
