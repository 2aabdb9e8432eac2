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

--- Active DON!! in the cost area (OP 3-9, 4-4).
function OP.active_don(ctx, p)
  return util.filter(ctx:cards("cost", p or ctx.player), function(d) return d.orientation == "active" end)
end

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

--- Draws n cards one at a time (OP 4-5-3). Rule processing runs after each (9-1-2).
function OP.draw(ctx, p, n)
  for _ = 1, n or 1 do
    local top = ctx:top("deck", p, 1)[1]
    if top == nil then return end
    ctx:move(top, "hand", { reason = "draw" })
  end
end

--- K.O.s a Character (OP 10-2-1-2): to its owner's trash, unless it cannot be K.O.'d.
function OP.ko(ctx, c)
  if c.zone ~= "character" or c:has("keywords", "cannot_be_ko") then return false end
  local r = ctx:move(c, "trash", { player = c.owner, reason = "ko" })
  return r[1] ~= nil
end

--- Trashes a card (not a K.O.: OP 10-2-1-3).
function OP.trash(ctx, c, reason) return ctx:move(c, "trash", { player = c.owner, reason = reason or "trash" })[1] end

--- Whether it is `p`'s turn (OP 10-2-11).
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
