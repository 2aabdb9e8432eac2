-- Attack and battle: OP 7-1 (Attack 7-1-1, Block 7-1-2, Counter 7-1-3, Damage 7-1-4,
-- End of Battle 7-1-5) and life damage (4-6, 10-1-2/3/5).

OP = OP or {}

--- The battle is the kernel-run procedure `battle` (game.yaml `procedures`): its record is
--- `{attacker, target, attacked, blocker}`: `target` is the card attacked now (the Blocker
--- after a block), `attacked` the card the attack was declared on, `blocker` the card that
--- activated [Blocker] (nil without a block). ctx.player in its steps is the attacking
--- player. Any script reads the record through `ctx:running("battle")` (verbs.lua
--- `current_battle`). The block and counter windows ask with no script waiting.

--- OP 7-1-1-4, 7-1-2-3, 7-1-3-2-3 (docs/rulings): at the end of each of the first three steps,
--- if the attacking card or the card being attacked (after a Blocker: the Blocker) has moved
--- zones, the battle goes straight to its end (game.yaml: `stop_unless: {alive: [attacker,
--- target]}`, tested by the kernel).

-- The defending player (the block and counter windows) is the target's controller (game.yaml
-- `players: {controller_of: target}`): the attacker's opponent, OP 7-1-1-2.

local ACTIVE = { orientation = "active" }

--- Starts a battle from any script (the Main Phase starts it as an action option).
function OP.battle(ctx, attacker, target)
  return ctx:procedure("battle", { attacker = attacker, target = target })
end

--- OP 7-1-1: the Attack Step.
function OP.attack_step(ctx, b)
  -- OP 7-1-1-1: rest the attacker and declare the attack; 7-1-1-2: its target.
  b.attacked = b.target
  ctx:set_orientation(b.attacker, "rested", "attack")
  -- OP 7-1-1-3: [When Attacking] and [On Your Opponent's Attack] resolve after this step (the
  -- attacker's first: the turn player's effects come first in the batch, 8-6-1, 10-2-16-1).
  ctx:emit("attack_declared", { card = b.attacker, target = b.target, player = ctx.player })
end

--- OP 7-1-2: the Block Step, a window of the defender's. OP 7-1-2-1, 10-1-4-1: one [Blocker]
--- per battle, by resting an active Character other than the one attacked; prohibitions
--- from card text win (OP 1-3-3), read now, against the Character as it is now (a
--- restriction on power reads the power at the Block Step). No [Blocker] able to block:
--- nothing is asked.
function OP.block_actions(ctx, opp, b)
  local options = {}
  if not b.attacker:has("keywords", "unblockable") then
    local target = b.target
    for _, c in ipairs(ctx:cards("character", opp, ACTIVE)) do -- the kernel keeps the active ones
      if c ~= target and c:has("keywords", "blocker")
          and not c:has("keywords", "cannot_block")
          and not OP.forbidden(ctx, { name = "block", card = c, player = opp, battle = b }) then
        options[#options + 1] = { label = "block with " .. c.label, kind = "block", card = c, run = OP.block }
      end
    end
  end
  if #options == 0 then return options end
  options[#options + 1] = { label = "no block", kind = "pass", pass = true }
  return options
end

function OP.block(ctx, o, b)
  ctx:set_orientation(o.card, "rested", "blocker")
  b.target, b.blocker = o.card, o.card -- OP 10-1-4-1: the attacked card becomes the Blocker
  ctx:emit("blocked", { card = o.card, target = b.attacker, player = ctx.player }) -- OP 7-1-2-2, 10-2-15-1
end

--- OP 7-1-3-1: the Counter Step begins: "when attacked" effects, for the card attacked now.
function OP.attacked_step(ctx, b)
  ctx:emit("attacked", { card = b.attacker, target = b.target, player = OP.opponent(ctx, ctx.player) })
end

--- OP 7-1-3-2: the defender may use counters from hand and [Counter] Events, any number (the
--- counter window lists them: game.yaml actions `counter`, `counter_event`).

--- OP 7-1-3-2-1: trash a Character card with a counter; the chosen Leader or Character gains
--- its counter value during this battle. No cost is paid.
function OP.counter_action(ctx, o)
  local v = o.card.counter
  OP.trash(ctx, o.card, "counter")
  ctx:modify(o.target, { char = "power", op = "add", value = v }, { ["until"] = "end_of_battle", player = ctx.player })
end

--- The [Counter] ability of Event `c` its controller may activate now, if any (8-3-1-3).
local function counter_ability(ctx, c)
  for _, ab in ipairs(ctx:abilities({ card = c, timing = "counter" })) do
    if OP.can_activate(ctx:with({ source = c, player = c.controller }), ab) then return ab end
  end
  return nil
end

function OP.counter_event_usable(ctx, c) return counter_ability(ctx, c) ~= nil end

--- OP 7-1-3-2-2, 10-2-4-1: use a [Counter] Event: pay its cost, trash it, resolve it.
function OP.counter_event_action(ctx, o, b)
  local p, c = ctx.player, o.card
  local ab = counter_ability(ctx, c)
  if ab == nil or not OP.pay_don(ctx, p, c.cost) then return end
  local used = OP.trash(ctx, c, "use")
  ctx:emit("event_used", { card = used, player = p }) -- OP 8-5-4
  OP.activate(ctx:with({ source = used, player = p, battle = b }), { source = used, def = ab.def, key = ab.key }, {})
end

--- OP 7-1-4: the Damage Step.
function OP.damage_step(ctx, b)
  local a, t = b.attacker, b.target
  local n = a:has("keywords", "double_attack") and 2 or 1 -- OP 10-1-2-1, 7-1-4-1-1-3
  local ap, tp = a.power, t.power -- read once for the result and its event
  local result = (ap < tp and "the attack fails") or (t.zone == "leader" and n .. " damage")
    or "the attacker wins" -- the K.O. follows (7-1-4-1-2) unless something prevents it
  ctx:emit("battle_result", { card = a, target = t, player = ctx.player,
    attacker_power = ap, target_power = tp, result = result })
  if a.power < t.power then return end -- OP 7-1-4-2: the attacker loses, nothing happens
  -- OP 7-1-4-1: the attacker wins ties.
  if t.zone == "leader" then
    -- For the log: the keywords that change this damage ([Double Attack] 10-1-2, [Banish] 10-1-3).
    local banish = a:has("keywords", "banish")
    local told = (n == 2 and banish and "[Double Attack] [Banish]") or (n == 2 and "[Double Attack]")
      or (banish and "[Banish]") or nil
    if told then ctx:emit("resolving", { card = a, player = ctx.player, key = told }) end
    OP.damage(ctx, t.controller, n, banish) -- OP 7-1-4-1-1
    if told then ctx:emit("resolved", { card = a, player = ctx.player, key = told }) end
    -- OP 8-6-2: effects met during damage wait until it is over (they resolve after this step).
  else
    OP.ko(ctx, t, b) -- OP 7-1-4-1-2: by the battle, not by an effect (10-2-1-1)
  end
end

--- OP 7-1-5-1/2: the battle ends; "at the end of the battle" effects resolve after this step.
function OP.end_of_battle(ctx, b)
  ctx:emit("battle_ended", { card = b.attacker, target = b.target, player = ctx.player })
end

--- OP 7-1-5-3/4: "during this battle" effects end, the turn player's, then the other's.
function OP.battle_effects_end(ctx, b)
  ctx:expire("end_of_battle", ctx.player)
  ctx:expire("end_of_battle")
end

--- Deals n damage to player `p`'s Leader (OP 4-6-2-2), one point at a time (4-6-2-1).
--- Before each point: with 0 Life the Leader takes damage at 0 Life (OP 1-2-2-1, 9-2-1-1,
--- 7-1-4-1-1-1, docs/rulings 7-1-4-1-1-3); otherwise the top Life card (3-10-2) goes to the
--- hand, or to the trash with Banish (10-1-3-1, no [Trigger]), or its [Trigger] may be
--- activated instead (4-6-3, 10-1-5-1: a rule replacement of the move to hand, OP.RULES in
--- effects.lua; none when an effect sends the card elsewhere, 4-6-3-1). Banish applies to an
--- attack only, not to effect damage.
function OP.damage(ctx, p, n, banish)
  for _ = 1, n do
    local top = ctx:top("life", p, 1)[1]
    if top == nil then
      ctx:set_value(p, "damaged_at_zero", 1) -- OP 9-2-1-1: rule processing runs at once (9-1-2)
      return
    end
    ctx:emit("life_damage", { card = top, player = p })
    if banish then
      OP.trash(ctx, top, "banish") -- OP 10-1-3-1: no [Trigger]
    else
      ctx:move(top, "hand", { reason = "damage" }) -- OP 4-6-2-1, 10-1-5-2: not revealed
    end
  end
end
