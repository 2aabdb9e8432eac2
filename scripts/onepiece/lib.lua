-- One Piece ruleset library: the game's nouns and verbs on top of the kernel's ctx.
-- Rules sections 3 (zones), 4 (terms), 6-5-5 (DON!!), 10-2-1 (K.O.).

OP = OP or {}

--- The opponent of player `p` (OP 1-1-1: two players).
function OP.opponent(ctx, p) return ctx:others(p or ctx.player)[1] end

--- A player's Leader (OP 2-2-3-1).
function OP.leader(ctx, p) return ctx:cards("leader", p or ctx.player)[1] end

--- "Characters" are Character cards in the Character area (OP 2-2-4-1).
function OP.characters(ctx, p) return ctx:cards("character", p or ctx.player) end

--- Leader and Characters of a player.
function OP.fighters(ctx, p) return util.concat(ctx:cards("leader", p), ctx:cards("character", p)) end

local ACTIVE, RESTED = { orientation = "active" }, { orientation = "rested" }

--- Active DON!! in the cost area (OP 3-9, 4-4).
function OP.active_don(ctx, p) return ctx:cards("cost", p or ctx.player, ACTIVE) end

--- How many (OP.active_don without the list).
function OP.active_don_count(ctx, p) return ctx:count("cost", p or ctx.player, ACTIVE) end

--- Rested DON!! in the cost area.
function OP.rested_don(ctx, p) return ctx:cards("cost", p or ctx.player, RESTED) end

--- Every DON!! a player has on the field: cost area and attached (OP 8-3-1-6).
function OP.field_don(ctx, p)
  local out = ctx:cards("cost", p)
  for _, c in ipairs(OP.fighters(ctx, p)) do
    for _, d in ipairs(c.attachments) do out[#out + 1] = d end
  end
  return out
end

--- Pays a ① cost: rest N active DON!! (OP 8-3-1-5). False (and nothing paid) if short.
function OP.pay_don(ctx, p, n)
  local active = OP.active_don(ctx, p)
  if #active < n then return false end
  for i = 1, n do ctx:set_orientation(active[i], "rested", "cost") end
  return true
end

--- DON!! −N: return N DON!! from the field to the DON!! deck (OP 8-3-1-6, 10-2-10-1).
function OP.return_don(ctx, p, n)
  local all = OP.field_don(ctx, p)
  if #all < n then return false end
  local chosen = ctx:choose_cards(p, all, { min = n, max = n, prompt = "return_don" })
  if n == 1 then chosen = { chosen } end
  ctx:move(chosen, "don_deck", { reason = "don_minus" })
  return true
end

--- Draws n cards one at a time (OP 4-5-1, 4-5-3): the top card to the hand, not revealed.
--- Rule processing runs after each (OP 9-1-2), so a player whose deck runs out loses before
--- the next draw. Returns how many were drawn.
function OP.draw(ctx, p, n)
  local drawn = 0
  for _ = 1, n or 1 do
    local top = ctx:top("deck", p, 1)[1]
    if top == nil then return drawn end
    ctx:move(top, "hand", { reason = "draw" })
    drawn = drawn + 1
  end
  return drawn
end

--- "Draw up to N cards" (OP 4-5-4): the player may stop before each draw (4-5-4-1), draws 1
--- (4-5-4-2), and stops after N (4-5-4-3). Returns how many were drawn.
function OP.draw_up_to(ctx, p, n)
  local drawn = 0
  while drawn < (n or 0) and ctx:count("deck", p) > 0 do
    local go = ctx:choose(p, { { label = "draw", kind = "draw" }, { label = "stop", kind = "stop" } },
      { prompt = "draw_up_to" })
    if go.kind == "stop" then break end -- OP 4-5-4-1
    OP.draw(ctx, p, 1)                  -- OP 4-5-4-2
    drawn = drawn + 1
  end
  return drawn
end

--- Chooses cards for the i-th "up to N" instruction of an ability that declared its counts at
--- activation (`up_to = {N, ...}`, OP 4-8-1, docs/rulings): as many as possible up to the
--- declared count (OP 8-4-4-1); without a declaration, 0 to N. Returns a list.
function OP.choose_declared(ctx, i, cards, n, player)
  local k = (ctx.declared and ctx.declared[i]) or n
  k = math.min(k, #cards)
  if k <= 0 then return {} end
  local min = (ctx.declared and ctx.declared[i]) and k or 0
  local r = ctx:choose_cards(player or ctx.player, cards, { min = min, max = k, prompt = "up_to" })
  if k == 1 then return r and { r } or {} end
  return r
end

--- Rests some cards and sets others active by one instruction. A card told to do both is
--- rested (OP 1-3-8); a card already in the state is left alone (OP 1-3-2-1).
function OP.set_states(ctx, rest, active)
  local resting = {}
  for _, c in ipairs(rest or {}) do
    resting[c.id] = true
    ctx:set_orientation(c, "rested", "effect")
  end
  for _, c in ipairs(active or {}) do
    if not resting[c.id] then ctx:set_orientation(c, "active", "effect") end
  end
end

--- K.O.s a Character (OP 10-2-1-2): to its owner's trash, unless it cannot be K.O.'d (a
--- prohibition beats the instruction, OP 1-3-3: the keyword, or a prohibition asked now,
--- prohibitions.lua). Only this and losing a battle are K.O.s (OP 10-2-1-1, 10-2-1-3).
--- `battle`: the record of the battle it lost, so no player's effect did it (by = none);
--- without it, the effect of ctx.player K.O.s it.
function OP.ko(ctx, c, battle)
  if c.zone ~= "character" or c:has("keywords", "cannot_be_ko") then return false end
  local act = { name = "ko", card = c, in_battle = battle ~= nil, player = (not battle) and ctx.player or nil,
    battle = battle }
  if battle then act.against = (battle.target == c) and battle.attacker or battle.target end
  if OP.forbidden(ctx, act) then return false end
  local opts = { player = c.owner, reason = "ko" }
  if battle then opts.by = false end
  local r = ctx:move(c, "trash", opts)
  return r[1] ~= nil
end

--- Trashes a card (not a K.O.: OP 10-2-1-3). It goes on top of its owner's trash (OP 3-5-2).
function OP.trash(ctx, c, reason) return ctx:move(c, "trash", { player = c.owner, reason = reason or "trash" })[1] end

--- Whether it is `p`'s turn (OP 10-2-11-1).
function OP.my_turn(ctx, p) return ctx.turn_player == (p or ctx.player) end

--- Number of DON!! attached to a card ([DON!! x N], OP 10-2-9).
function OP.don_count(c) return #c.attachments end

--- Whether a card has a colour in common with another (OP 5-1-2-2, docs/rulings).
function OP.shares_color(a, b)
  for _, x in ipairs(a) do
    if util.contains(b, x) then return true end
  end
  return false
end
