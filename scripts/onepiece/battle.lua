-- Attack and battle: OP 7-1 (Attack 7-1-1, Block 7-1-2, Counter 7-1-3, Damage 7-1-4,
-- End of Battle 7-1-5) and life damage (4-6, 10-1-2/3/5).

OP = OP or {}

--- OP 7-1-1-4, 7-1-2-3, 7-1-3-2-3 (docs/rulings): at the end of each of the first three steps,
--- if the attacking card or the card being attacked (after a Blocker: the Blocker) has moved
--- zones, the battle goes straight to its end.
local function still_there(b)
  return b.attacker.alive and b.target.alive
end

function OP.battle(ctx, attacker, target)
  local p = attacker.controller
  local opp = OP.opponent(ctx, p)
  local b = { attacker = attacker, target = target }
  -- OP 7-1-1-1: rest the attacker and declare the attack; 7-1-1-2: its target.
  ctx:set_orientation(attacker, "rested", "attack")
  -- OP 7-1-1-3: [When Attacking] and [On Your Opponent's Attack] (the attacker's first: the
  -- turn player's effects come first in the batch, 8-6-1, 10-2-16-1).
  ctx:emit("attack_declared", { card = attacker, target = target, player = p })
  ctx:resolve_triggers()
  if still_there(b) then OP.block_step(ctx, b, opp) end   -- OP 7-1-1-4
  if still_there(b) then OP.counter_step(ctx, b, opp) end -- OP 7-1-2-3
  if still_there(b) then OP.damage_step(ctx, b, p, opp) end -- OP 7-1-3-2-3
  -- OP 7-1-5-1/2: the battle ends; "at the end of the battle" effects.
  ctx:emit("battle_ended", { card = b.attacker, target = b.target, player = p })
  ctx:resolve_triggers()
  -- OP 7-1-5-3/4: "during this battle" effects end, the turn player's, then the other's.
  ctx:expire("end_of_battle", p)
  ctx:expire("end_of_battle")
end

function OP.block_step(ctx, b, opp)
  -- OP 7-1-2-1, 10-1-4-1: one [Blocker] per battle, by resting an active Character other than
  -- the one attacked; prohibitions from card text win (OP 1-3-3).
  local options = {}
  if not b.attacker:has("keywords", "unblockable") then
    for _, c in ipairs(OP.characters(ctx, opp)) do
      if c ~= b.target and c.orientation == "active" and c:has("keywords", "blocker")
          and not c:has("keywords", "cannot_block") then
        options[#options + 1] = { label = "block with " .. c.name, kind = "block", card = c }
      end
    end
  end
  if #options == 0 then return end
  options[#options + 1] = { label = "no block", kind = "pass" }
  local o = ctx:choose(opp, options, { prompt = "block" })
  if o.kind == "block" then
    ctx:set_orientation(o.card, "rested", "blocker")
    b.target = o.card -- OP 10-1-4-1: the attacked card becomes the Blocker
    ctx:emit("blocked", { card = o.card, target = b.attacker, player = opp }) -- OP 7-1-2-2, 10-2-15-1
    ctx:resolve_triggers()
  end
end

function OP.counter_step(ctx, b, opp)
  -- OP 7-1-3-1: "when attacked" effects, for the card attacked now.
  ctx:emit("attacked", { card = b.attacker, target = b.target, player = opp })
  ctx:resolve_triggers()
  -- OP 7-1-3-2: the defender may use counters from hand and [Counter] Events, any number.
  ctx:window({
    players = { opp },
    model = "single",
    prompt = "counter",
    actions = function(ctx, p)
      local out = {}
      local don = #OP.active_don(ctx, p)
      for _, c in ipairs(ctx:cards("hand", p)) do
        if c.category == "character" and c.counter > 0 then
          -- OP 7-1-3-2-1: trash a Character card with a counter; one of your Leader or
          -- Characters gains its counter value during this battle. No cost is paid.
          for _, t in ipairs(OP.fighters(ctx, p)) do
            out[#out + 1] = { label = "counter " .. c.name .. " (+" .. c.counter .. ") on " .. t.name,
              kind = "counter", card = c, target = t,
              run = function(ctx, o)
                local v = o.card.counter
                OP.trash(ctx, o.card, "counter")
                ctx:modify(o.target, { char = "power", op = "add", value = v }, { ["until"] = "end_of_battle", player = p })
              end }
          end
        elseif c.category == "event" and c.cost <= don and OP.may_use_cards(ctx, p) then
          -- OP 7-1-3-2-2, 10-2-4-1: use a [Counter] Event (pay its cost, trash it, resolve it).
          for _, ab in ipairs(ctx:abilities({ card = c, timing = "counter" })) do
            if OP.can_activate(ctx:with({ source = c, player = p }), ab) then
              out[#out + 1] = { label = "use " .. c.name .. " (cost " .. c.cost .. ")", kind = "counter_event", card = c,
                run = function(ctx, o)
                  if not OP.pay_don(ctx, p, o.card.cost) then return end
                  local used = OP.trash(ctx, o.card, "use")
                  ctx:emit("event_used", { card = used, player = p }) -- OP 8-5-4
                  OP.activate(ctx:with({ source = used, player = p, battle = b }), { source = used, def = ab.def, key = ab.key }, {})
                end }
            end
          end
        end
      end
      out[#out + 1] = { label = "no more counters", kind = "pass", pass = true }
      return out
    end,
  })
end

function OP.damage_step(ctx, b, p, opp)
  local a, t = b.attacker, b.target
  if a.power < t.power then return end -- OP 7-1-4-2: the attacker loses, nothing happens
  -- OP 7-1-4-1: the attacker wins ties.
  if t.zone == "leader" then
    local n = a:has("keywords", "double_attack") and 2 or 1 -- OP 10-1-2-1, 7-1-4-1-1-3
    OP.damage(ctx, opp, n, a:has("keywords", "banish"))     -- OP 7-1-4-1-1
    ctx:resolve_triggers() -- OP 8-6-2: effects met during damage wait until it is over
  else
    OP.ko(ctx, t, true) -- OP 7-1-4-1-2: by the battle, not by an effect (10-2-1-1)
  end
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
