-- Summoner Master ruleset library: the game's nouns on top of the kernel's ctx. Rules sections 1
-- (levels: SM 101, 103), 2 (card components: 200, 201), 3 (zones: 300-304) and the ownership
-- words of the glossary (Gl: เรา, ฝ่ายตรงข้าม, Control).

SM = SM or {}

-- Levels (SM 101.2, 101.3, 103.1) -------------------------------------------------------------

--- The three play levels: the least Seal and Mystic Cards of a deck, Mp Max, the hand's
--- maximum and the Shrine Max (the Shrine Level at which a player loses).
SM.LEVELS = {
  caller = { seals = 30, mystics = 30, mp_max = 8, hand_max = 7, shrine_max = 12 },
  summoner = { seals = 30, mystics = 30, mp_max = 8, hand_max = 7, shrine_max = 15 },
  beginner = { seals = 12, mystics = 5, mp_max = 8, hand_max = 7, shrine_max = 9 },
}

--- The level this game is played at (the `level` option).
function SM.level(ctx) return SM.LEVELS[ctx:option("level")] end

-- Players -----------------------------------------------------------------------------------

--- The other player (SM 101.1: two players).
function SM.other(p) return 3 - p end

--- The defense-Subturn player (SM 400.2).
function SM.defender(ctx) return 3 - ctx.turn_player end

--- Whether `p` is in their attack Subturn.
function SM.attacking_player(ctx, p) return ctx.turn_player == p end

-- Zones --------------------------------------------------------------------------------------

--- The two Lines of a player's part of the Arena (SM 303.2).
SM.LINES = { "at_line", "df_line" }
--- Where a Seal stands in the Arena: a Line, or no Line (SM 303.3, 709.11.1).
SM.SEAL_PLACES = { "at_line", "df_line", "no_line" }
--- Every zone of the Arena (SM 303.1), the cards being cast or entering included (609.5, 707.2).
SM.FIELD = { "at_line", "df_line", "no_line", "arena", "casting" }
--- Every zone outside the Arena where a card of the game can be (Gl: Zone).
SM.OUTSIDE = { "seal_library", "mystic_library", "hand", "seal_shrine", "mystic_shrine", "remove_zone" }
--- Every zone of game.yaml but the Arena's: those above, and beside the deck (SM 102.2).
SM.NOT_FIELD = { "seal_library", "mystic_library", "hand", "seal_shrine", "mystic_shrine", "remove_zone", "extra",
  "reflection" }
--- How the rules and logs name a Line.
SM.LINE_NAME = { at_line = "At Line", df_line = "Df Line" }

--- The top of a stack: the card itself, or the card it is attached to, at any depth.
function SM.top(c)
  local t = c
  while t.host ~= nil do t = t.host end
  return t
end

--- Whether card `c` is in the Arena (SM 303.1): alive and in a zone of the field, or attached at
--- any depth to a card that is (a Support Seal still counts as in the field, SM 510.2; a pasted
--- Mystic Card too).
function SM.in_field(c)
  if c == nil or not c.alive then return false end
  return util.contains(SM.FIELD, SM.top(c).zone)
end

--- Whether `c` stands in a Line (At or Df), not attached.
function SM.in_line(c) return c ~= nil and c.alive and c.host == nil and util.contains(SM.LINES, c.zone) end

--- Whether `c` is a Seal Card (an Extra Seal is one: SM 621.6.2).
function SM.is_seal(c) return c.category == "seal" end
--- Whether `c` is a Mystic Card.
function SM.is_mystic(c) return c.category == "mystic" end

--- A player's Seals in the Arena that count as one Seal each (SM 509.2): the Seals in a Line or
--- in no Line, not attached (a combination counts once, as its Main Seal), not being cast.
local SEAL_CARDS = { category = "seal" } -- ctx:cards' filter: the kernel keeps the Seals
function SM.seals(ctx, p)
  local out = {}
  for _, z in ipairs(SM.SEAL_PLACES) do
    for _, c in ipairs(ctx:cards(z, p, SEAL_CARDS)) do out[#out + 1] = c end
  end
  return out
end

--- The Seals of both players (the attack-Subturn player's first).
function SM.all_seals(ctx)
  return util.concat(SM.seals(ctx, ctx.turn_player), SM.seals(ctx, SM.defender(ctx)))
end

--- A player's Seals in their At Line and Df Line (SM 501.2).
function SM.line_seals(ctx, p)
  return util.concat(ctx:cards("at_line", p), ctx:cards("df_line", p))
end

--- A player's Mystic Cards in the Arena: in the Arena's Mystic place and pasted on cards.
function SM.mystics(ctx, p)
  local out = util.filter(ctx:cards("arena", p), SM.is_mystic)
  for _, c in ipairs(SM.field_cards(ctx, p)) do
    if SM.is_mystic(c) and c.host ~= nil then out[#out + 1] = c end
  end
  return out
end

--- Every card of a player's part of the Arena and every card attached to them, at any depth.
function SM.field_cards(ctx, p)
  local out = {}
  local function walk(c)
    out[#out + 1] = c
    for _, a in ipairs(c.attachments) do walk(a) end
  end
  for _, z in ipairs(SM.FIELD) do
    for _, c in ipairs(ctx:cards(z, p)) do walk(c) end
  end
  return out
end

--- The Support Seals under a Main Seal (SM 510).
function SM.supports(c)
  return util.filter(c.attachments, SM.is_seal)
end

--- The Mystic Cards pasted on a card (SM 201.8.2.1, 201.8.2.3).
function SM.pasted_on(c)
  return util.filter(c.attachments, SM.is_mystic)
end

--- Whether a Seal is combined: a Main Seal with Support Seals under it (SM 508.4).
function SM.combined(c) return #SM.supports(c) > 0 end

--- The Shrine a card goes to (SM 301.1).
function SM.shrine_of(c) return SM.is_seal(c) and "seal_shrine" or "mystic_shrine" end
--- The Library a card returns to (SM 300.2).
function SM.library_of(c) return SM.is_seal(c) and "seal_library" or "mystic_library" end

--- The total Level of the Seals in a player's Shrine (SM 103.2, 301.1.1).
function SM.shrine_level(ctx, p)
  return util.sum(ctx:cards("seal_shrine", p), function(c) return c.level end)
end

--- A player's Shrine Max (SM 103.1; Gl: Shrine Max, below 0 read as 0).
function SM.shrine_max(ctx, p) return ctx:value(p, "shrine_max") end

-- Ownership and control (Gl: Control; SM 712) --------------------------------------------------

--- Whether `c` is controlled by a player other than its owner (Gl: Control changes the card's
--- owner for the game; the kernel's controller is that player, `owner` the deck's: docs/rulings A.24).
function SM.controlled(c) return c.controller ~= c.owner end

-- Statuses -------------------------------------------------------------------------------------

--- Whether a Seal is Active (Gl: Active Seal).
function SM.active(c) return c.orientation == "active" end

--- The Curses (SM 709), each a characteristic that is above 0 while the Curse is on the Seal.
SM.CURSES = { "stone", "freeze", "charm", "poison", "last_dance", "dimension" }

--- Whether Seal `c` has Curse `kind`, or (no kind) any Curse (SM 709.12, 508.10.6).
function SM.cursed(c, kind)
  if kind ~= nil then return kind ~= "death" and (c[kind] or 0) > 0 end
  for _, k in ipairs(SM.CURSES) do
    if c[k] > 0 then return true end
  end
  return false
end

--- Whether the Seal may not be commanded because of a Curse (SM 709.5.1, 709.11.3).
function SM.uncommandable(c) return c.stone > 0 or c.dimension > 0 end

-- Mp (Gl: Mp ของผู้เล่น, Mp Max; SM 102.6) -------------------------------------------------------------

--- A player's Mp now.
function SM.mp(ctx, p) return ctx:value(p, "mp") end

--- Whether `p` can pay `n` Mp for a payment of kind `kind` ("cast" for casting a card, or
--- "other"). SM 102.6: the first player's starting Mp pays only for Seal and Mystic Cards in their
--- first Subturn (docs/rulings A.2: casting costs only).
function SM.can_pay(ctx, p, n, kind)
  if n <= 0 then return true end
  if kind ~= "cast" and ctx:value(p, "first_mp") > 0 then return false end
  return SM.mp(ctx, p) >= n
end

--- Pays `n` Mp (SM 504.5, 605.6, 610.1.3): false, and nothing paid, when it cannot be paid.
function SM.pay(ctx, p, n, kind)
  if not SM.can_pay(ctx, p, n, kind) then return false end
  if n > 0 then ctx:add_value(p, "mp", -n) end
  return true
end

-- Small things --------------------------------------------------------------------------------

--- nil, a card or a list of cards, as a list.
function SM.list(x)
  if x == nil then return {} end
  if type(x) == "userdata" then return { x } end
  return x
end

--- Position of `x` in `list`, or nil.
function SM.index_of(list, x)
  for i, y in ipairs(list) do
    if y == x then return i end
  end
  return nil
end
