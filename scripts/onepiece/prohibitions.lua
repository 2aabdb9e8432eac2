-- Prohibitions from card text (OP 1-3-3: a prohibition beats an instruction or a permission),
-- read when the act is about to happen, with the game as it is then: "cannot be K.O.'d by
-- your opponent's effects", "cannot be K.O.'d in battle by <Strike> Characters", "your
-- opponent cannot activate [Blocker] with a Character with 5000 power or more during this
-- battle". The ruleset asks OP.forbidden before each act it names (lib.lua OP.ko, battle.lua
-- OP.block_actions); a card states a prohibition as a static ability tagged `prohibits`.
-- The keyword prohibitions of game.yaml (`cannot_be_ko`, `cannot_block`, ...) still work.

OP = OP or {}

--- The acts a prohibition may name, with what the ruleset tells about each (the `act` table
--- every `when` gets; `act.name` is the act):
--- * ko: `card` (the Character), `in_battle` (it lost a battle, OP 7-1-4-1-2; else an effect
---   K.O.s it), `player` (whose effect K.O.s it; nil in battle), `against` (in battle, the
---   card it battled), `battle` (the battle going on, if any: `ctx:running("battle")`).
--- * block: `card` (the Character that would activate [Blocker]), `player` (its
---   controller), `battle` (attacker, target, attacked).
--- * attack: `card` (the Leader or Character that would attack), `target` (the card it would
---   attack), `player` (the attacking player). Asked when the attacks are offered (7-1-1-2).
--- * attacked: the same attack seen from its target: `card` (the card that would be
---   attacked), `attacker`, `player` (the attacking player).
--- * move: `card` (a card an effect would return to the hand or put into the deck), `from`,
---   `to` ("hand", "deck"), `player` (whose effect).
OP.ACTS = { ko = true, block = true, attack = true, attacked = true, move = true }

local HOW_KO = { effects = true, opponent_effects = true }

local P = prohibitions.family {
  acts = OP.ACTS,
  returns = { "hand", "deck" },
  -- A printed prohibition binds its own card.
  this_card = function(sctx) return sctx.source end,
  -- The K.O. clauses: how the card would be K.O.'d.
  binds = function(_, d, act)
    if d.by == "effects" and act.in_battle then return false end                       -- "by effects"
    if d.by == "opponent_effects" and (act.in_battle or act.player == nil                -- "by your
        or act.player == act.card.controller) then return false end                     -- opponent's effects"
    if d.in_battle and not act.in_battle then return false end                          -- "in battle"
    if d.by_card and not (act.against and d.by_card(act.against)) then return false end -- "by <f> Characters"
    return true
  end,
  -- The battle going on, for an act outside the battle's own steps (an effect's K.O. during
  -- the Counter Step): read only when some prohibition may ask.
  prepare = function(ctx, act)
    if act.battle == nil then act.battle = ctx:running("battle") end
  end,
  fields = { "by", "in_battle", "by_card" },
  finish = function(a, fields)
    a.timing = "prohibits" -- the tag OP.forbidden looks for
    return OP.permanent_of(a, "prohibition", fields)
  end,
}

--- Whether an effect prohibits `act` now (OP 1-3-3): `act.name` is one of OP.ACTS. Every
--- prohibition on the field or given by an effect is asked, with the game as it is now
--- (a restriction reads power when a [Blocker] is used, not when its effect resolved). A
--- prohibition whose script fails binds nothing, and the error names its card.
function OP.forbidden(ctx, act) return P.forbidden(ctx, act) end

--- A prohibition (OP 1-3-3) while this card is on the field, or, declared `dormant = true`,
--- the lasting part of a one-shot effect (`forbid` gives it to cards, `add_rules` arms it
--- for every card). Fields:
--- * `forbids`: the act, one of OP.ACTS ("ko", "block", "attack", "attacked", "move");
--- * `affects(ctx, card)`: the cards it binds (default: this card; armed with no card: all);
--- * `player`: "you" or "opponent": only acts of that player (ctx.player's side);
--- * for "ko": `by = "effects"` or `"opponent_effects"`, `in_battle = true`, `by_card = f`
---   (a filter: in battle against such a card);
--- * `when(ctx, act)`: anything else, read when the act happens;
--- * the usual `don`, `your_turn`, `opponent_turn` and `condition`.
function prohibition(a)
  if a.by ~= nil and not HOW_KO[a.by] then
    error(string.format("prohibition: `by` should be \"effects\" or \"opponent_effects\", not %s", tostring(a.by)), 2)
  end
  if a.by_card ~= nil and type(a.by_card) ~= "function" and getmetatable(a.by_card) == nil then
    error(string.format("prohibition: `by_card` should be a function, not a %s", type(a.by_card)), 2)
  end
  return P.prohibition(a, 2)
end

--- "This Character cannot be K.O.'d" with how (`by`, `in_battle`, `by_card`): a prohibition
--- of K.O.s (OP 10-2-1-3).
function cannot_be_ko(a)
  a.forbids = "ko"
  return prohibition(a)
end

--- "This card cannot be attacked" (OP 1-3-3 over 7-1-1-2): a prohibition of attacks on it;
--- `player = "opponent"` and the rest as for `prohibition`.
function cannot_be_attacked(a) return P.cannot_be_attacked(a, 2) end

--- "Your opponent may attack only this card" (OP 1-3-3): every attack of your opponent on
--- another of your cards (your Leader too) is forbidden, so while this card cannot be
--- attacked (active, with no permission) they attack nothing (docs/rulings).
function attack_only_this(a)
  a.forbids, a.player = "attacked", "opponent"
  a.affects = function(ctx, c) return c ~= ctx.source and c.controller == ctx.player end
  return prohibition(a)
end

--- "This card cannot be returned to the hand" (`to = "hand"`), "... to the deck"
--- (`to = "deck"`), or either (no `to`): a prohibition of those moves by effects (OP 1-3-3).
function cannot_be_returned(a) return P.cannot_be_returned(a, 2) end

--- Whether `a` may attack `t` (OP 7-1-1-2, 1-3-3): no prohibition of the attack, nor of `t`
--- being attacked (the attack action's `target_condition`: forbidden targets are not offered).
function OP.may_attack_target(ctx, a, t)
  -- Asked for every attacker and target each time the Main Phase's options are listed: the
  -- prohibitions are listed once for both acts, and with none there is nothing to ask.
  local found = P.now(ctx)
  if #found == 0 then return true end
  local p = a.controller
  return not P.forbidden(ctx, { name = "attack", card = a, target = t, player = p }, found)
    and not P.forbidden(ctx, { name = "attacked", card = t, attacker = a, player = p }, found)
end

--- Whether an effect of `ctx.player` may move `c` to `zone` (1-3-3): a card a prohibition
--- keeps there stays (return_to_hand, to_deck_bottom).
function OP.may_move(ctx, c, zone) return P.may_move(ctx, c, zone) end

--- Gives each of `cards` (nil, a card or a list: "up to 1" chose none, nothing happens) the
--- `dormant` prohibition `def` for `duration` (verbs.lua `lasts`: "battle", "turn", ...).
function forbid(ctx, def, cards, duration) P.forbid(ctx, def, cards, duration) end
