-- Attack and battle: OP 7-1 (Attack 7-1-1, Block 7-1-2, Counter 7-1-3, Damage 7-1-4,
-- End of Battle 7-1-5) and life damage (4-6, 10-1-2/3/5).

OP = OP or {}

local function still_there(ctx, b)
  return b.attacker.alive and b.target.alive -- 7-1-1-4, 7-1-2-3, 7-1-3-2-3
end

function OP.battle(ctx, attacker, target)
  local p = attacker.controller
  local opp = OP.opponent(ctx, p)
  local b = { attacker = attacker, target = target }
  -- 7-1-1-1: rest the attacker, declare the target.
  ctx:set_orientation(attacker, "rested", "attack")
  ctx:emit("attack_declared", { card = attacker, target = target, player = p }) -- 7-1-1-3
  ctx:resolve_triggers()
  if still_there(ctx, b) then OP.block_step(ctx, b, opp) end
  if still_there(ctx, b) then OP.counter_step(ctx, b, opp) end
  if still_there(ctx, b) then OP.damage_step(ctx, b, p, opp) end
  -- 7-1-5: end of battle; "during this battle" effects end, the turn player's first.
  ctx:emit("battle_ended", { card = b.attacker, target = b.target, player = p })
  ctx:resolve_triggers()
  ctx:expire("end_of_battle", p)
  ctx:expire("end_of_battle")
end

function OP.block_step(ctx, b, opp)
  -- 7-1-2-1 / 10-1-4: one Blocker, by resting an active Character other than the target.
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
    b.target = o.card
    ctx:emit("blocked", { card = o.card, target = b.attacker, player = opp }) -- 7-1-2-2
    ctx:resolve_triggers()
  end
end

function OP.counter_step(ctx, b, opp)
  ctx:emit("attacked", { card = b.attacker, target = b.target, player = opp }) -- 7-1-3-1
  ctx:resolve_triggers()
  -- 7-1-3-2: the defender may use counters from hand and [Counter] Events, any number.
  ctx:window({
    players = { opp },
    model = "single",
    prompt = "counter",
    actions = function(ctx, p)
      local out = {}
      local don = #OP.active_don(ctx, p)
      for _, c in ipairs(ctx:cards("hand", p)) do
        if c.category == "character" and c.counter > 0 then
          for _, t in ipairs(OP.fighters(ctx, p)) do
            out[#out + 1] = { label = "counter " .. c.name .. " (+" .. c.counter .. ") on " .. t.name,
              kind = "counter", card = c, target = t,
              run = function(ctx, o)
                local v = o.card.counter
                OP.trash(ctx, o.card, "counter") -- 7-1-3-2-1
                ctx:modify(o.target, { char = "power", op = "add", value = v }, { ["until"] = "end_of_battle" })
              end }
          end
        elseif c.category == "event" and c.cost <= don then
          for _, ab in ipairs(ctx:abilities({ card = c, timing = "counter" })) do
            out[#out + 1] = { label = "use " .. c.name .. " (cost " .. c.cost .. ")", kind = "counter_event", card = c,
              run = function(ctx, o)
                if not OP.pay_don(ctx, p, o.card.cost) then return end
                local used = OP.trash(ctx, o.card, "use")
                ctx:emit("event_used", { card = used, player = p })
                OP.activate(ctx:with({ source = used, player = p, battle = b }), { source = used, def = ab.def, key = ab.key }, {})
              end }
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
  if a.power < t.power then return end -- 7-1-4-1: the attacker wins ties
  if t.zone == "leader" then
    local n = a:has("keywords", "double_attack") and 2 or 1 -- 10-1-2-1
    OP.damage(ctx, opp, n, a:has("keywords", "banish"))
    ctx:resolve_triggers() -- 8-6-2: effects met during damage wait until it is over
  else
    OP.ko(ctx, t) -- 7-1-4-1-2
  end
end

--- Deals n damage to player `p`'s Leader (OP 4-6-2), one Life card at a time.
function OP.damage(ctx, p, n, banish)
  for _ = 1, n do
    local top = ctx:top("life", p, 1)[1]
    if top == nil then
      ctx:set_value(p, "damaged_at_zero", 1) -- 7-1-4-1-1-1, 9-2-1-1
      return
    end
    ctx:emit("life_damage", { card = top, player = p })
    if banish then
      OP.trash(ctx, top, "banish") -- 10-1-3-1: no [Trigger]
    else
      local trig = nil
      for _, ab in ipairs(ctx:abilities({ card = top, timing = "trigger" })) do trig = ab end
      if trig and ctx:yes_no(p, "trigger") then
        -- 10-1-5-1 / 10-1-5-3: reveal, activate; the card is in no zone, then the trash.
        local c = ctx:move(top, "limbo", { reason = "trigger", face = "up" })[1]
        OP.activate(ctx:with({ source = c, player = p }), { source = c, def = trig.def, key = trig.key }, {})
        if c.alive then OP.trash(ctx, c, "trigger") end
      else
        ctx:move(top, "hand", { reason = "damage" }) -- 4-6-2-1, 10-1-5-2
      end
    end
  end
end
