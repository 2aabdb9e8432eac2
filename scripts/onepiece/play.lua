-- Main Phase actions: OP 6-5 (play cards 6-5-3, activate effects 6-5-4, attach DON!! 6-5-5,
-- battle 6-5-6) and the 5-Character / 1-Stage limits (3-7-6-1, 3-8-5-1).

OP = OP or {}

local function event_ability(ctx, c, timing)
  for _, ab in ipairs(ctx:abilities({ card = c, timing = timing })) do return ab end
  return nil
end

--- Plays or uses card `c` from hand (OP 6-5-3), paying its cost.
function OP.use_card(ctx, c)
  local p = c.controller
  if ctx:has(p, "cannot_use_cards") then return false end -- 4-7-2
  ctx:reveal(c) -- 2-7-2
  if not OP.pay_don(ctx, p, c.cost) then ctx:conceal(c) return false end
  if c.category == "event" then
    -- 2-7-3, 8-4-2: the Event goes to the trash and resolves from there.
    local ab = event_ability(ctx, c, "main")
    local used = OP.trash(ctx, c, "use")
    ctx:emit("event_used", { card = used, player = p }) -- 8-5-4
    if ab and used then OP.activate(ctx:with({ source = used, player = p }), { source = used, def = ab.def, key = ab.key }, {}) end
    return true
  end
  local zone = c.category
  if zone == "character" and ctx:count("character", p) >= 5 then
    -- 3-7-6-1 / 3-7-6-1-1: trash one of your Characters (a rules action, not a K.O.).
    local out = ctx:choose_cards(p, ctx:cards("character", p), { prompt = "character_limit" })
    ctx:move(out, "trash", { player = out.owner, reason = "rule" })
  elseif zone == "stage" and ctx:count("stage", p) >= 1 then
    local old = ctx:cards("stage", p)[1]
    ctx:move(old, "trash", { player = old.owner, reason = "rule" }) -- 3-8-5-1
  end
  ctx:move(c, zone, { reason = "play", orientation = "active" }) -- 3-7-5, 3-8-4
  return true
end

--- Whether `c` may attack now (OP 3-7-4, 6-5-6-1, 10-1-1).
function OP.can_attack(ctx, c)
  if c.orientation ~= "active" then return false end
  if OP.first_turn_of(ctx, c.controller) then return false end -- 6-5-6-1
  if c.zone == "character" and c.entered_turn == ctx.turn and not c:has("keywords", "rush") then return false end
  return not c:has("keywords", "cannot_attack")
end

--- The turn player's Main Phase actions (the kernel asks for one, runs it, asks again).
function OP.main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  local don = #OP.active_don(ctx, p)
  for _, c in ipairs(ctx:cards("hand", p)) do
    local playable = c.category == "character" or c.category == "stage"
      or (c.category == "event" and event_ability(ctx, c, "main") ~= nil)
    if playable and c.cost <= don then
      out[#out + 1] = { label = "play " .. c.name .. " (cost " .. c.cost .. ")", kind = "play", card = c,
        run = function(ctx, o) OP.use_card(ctx, o.card) end }
    end
  end
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = "main", player = p })) do
    if not ab.def.event and OP.can_activate(ctx:with({ source = ab.source }), ab) then
      out[#out + 1] = { label = "activate " .. ab.source.name, kind = "activate", card = ab.source,
        run = function(ctx) OP.activate(ctx:with({ source = ab.source }), ab, {}) end }
    end
  end
  if don > 0 then
    for _, c in ipairs(OP.fighters(ctx, p)) do
      out[#out + 1] = { label = "attach DON!! to " .. c.name, kind = "attach", card = c,
        run = function(ctx, o)
          local d = OP.active_don(ctx, p)[1] -- 6-5-5-1
          if d then ctx:attach(d, o.card) end
        end }
    end
  end
  local opp = OP.opponent(ctx, p)
  for _, a in ipairs(OP.fighters(ctx, p)) do
    if OP.can_attack(ctx, a) then
      local targets = { OP.leader(ctx, opp) } -- 7-1-1-2: the Leader or a rested Character
      for _, t in ipairs(OP.characters(ctx, opp)) do
        if t.orientation == "rested" then targets[#targets + 1] = t end
      end
      for _, t in ipairs(targets) do
        out[#out + 1] = { label = "attack " .. t.name .. " with " .. a.name, kind = "attack", card = a, target = t,
          run = function(ctx, o) OP.battle(ctx, o.card, o.target) end }
      end
    end
  end
  out[#out + 1] = { label = "end main phase", kind = "end", ends_phase = true }
  return out
end
