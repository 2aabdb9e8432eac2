-- Pre-game procedure: GD 6-2, with the multiplayer changes of 12-2 (Battle Royal) and 12-3
-- (Team Battle). The formats and teams: GD.teams. (Deck construction, 6-1, is deck.lua.)

GD = GD or {}

--- The token card ids the rules place at setup (GD 5-17-3, 6-1-2).
GD.EX_BASE = "GDT-EXB"
GD.EX_RESOURCE = "GDT-EXR"

--- The format: "standard" (two players), "battle-royal" (12-2) or "team" (12-3).
function GD.mode(ctx) return ctx:option("mode") end

--- hooks.teams: the teams of a format, each leader first (GD 12-3-2: the team leader is the
--- one who settles disagreements, 12-3-4, and takes the team's turn as its first seat). Team
--- Battle seats A1 B1 A2 B2, so the two teams alternate round the table. A format that does
--- not fit the number of players is refused before the game starts.
function GD.teams(options, n)
  local mode = options.mode
  if mode == "team" then
    if n ~= 4 then error("Team Battle (GD 12-1, 12-3) is for exactly 4 players, not " .. n, 0) end
    return { { 1, 3 }, { 2, 4 } }
  end
  if mode == "battle-royal" and n < 3 then
    error("Battle Royal (GD 12-1, 12-2) is for 3 or more players, not " .. n .. " (give --mode standard)", 0)
  end
  if mode == "standard" and n ~= 2 then
    error("the standard game (GD 1-1-1) is for 2 players; with " .. n .. " give --mode battle-royal or --mode team", 0)
  end
  local out = {}
  for p = 1, n do out[p] = { p } end
  return out
end

--- Draws the top card of `p`'s deck into their hand, unseen by others (GD 5-14). Returns the
--- card, or nil when the deck is empty.
function GD.draw_one(ctx, p)
  local top = ctx:top("deck", p, 1)[1]
  if top == nil then return nil end
  return ctx:move(top, "hand", { reason = "draw" })[1]
end

--- Draws `p`'s top `n` cards (fewer when the deck has fewer), one at a time: one operation
--- that moves them in turn, the top card first, as `n` draws would.
local function draw_n(ctx, p, n)
  local top = ctx:top("deck", p, n)
  if #top > 0 then ctx:move(top, "hand", { reason = "draw" }) end
end

function GD.setup(ctx)
  local mode = GD.mode(ctx)
  -- GD 6-2-1-2: each deck is shuffled; 6-2-1-3: the resource decks are placed as they are.
  for _, p in ipairs(ctx:turn_order()) do ctx:shuffle("deck", p) end
  -- GD 6-2-1-4: one player, drawn at random, decides who goes first (docs/rulings: one draw of
  -- the game's seeded RNG stands for rock-paper-scissors). In Team Battle the team leaders
  -- decide (12-3-2): the decider is a leader, and the first player is a leader.
  local deciders = {}
  for _, team in ipairs(ctx:teams()) do deciders[#deciders + 1] = team[1] end
  local decider = deciders[ctx:random(#deciders)]
  local go = ctx:choose(decider, {
    { label = "go first", kind = "first" },
    { label = "go second", kind = "second" },
  }, { prompt = "first_or_second" })
  local first = decider
  if go.kind == "second" then
    -- The next team's leader in turn order (with two sides, the other one).
    for _, q in ipairs(ctx:players_from(decider)) do
      if ctx:team(q) ~= ctx:team(decider) then first = ctx:teams()[ctx:team(q)][1] break end
    end
  end
  ctx:set_first_player(first)
  ctx:set_game_value("first_player", first)
  -- GD 12-2-1: in Battle Royal the first player chooses which way turns go.
  if mode == "battle-royal" then
    local d = ctx:choose(first, {
      { label = "clockwise", kind = "clockwise" },
      { label = "counterclockwise", kind = "counterclockwise" },
    }, { prompt = "direction" })
    ctx:set_direction(d.kind)
  end
  local order = ctx:players_from(first)
  -- GD 6-2-1-5: 5 cards each.
  for _, p in ipairs(order) do draw_n(ctx, p, 5) end
  -- GD 6-2-1-6, 6-2-1-7, 12-2-3: once each, in turn order from the first player: the hand to
  -- the bottom of the deck, 5 new cards, then the deck is shuffled.
  for _, p in ipairs(order) do
    if ctx:yes_no(p, "redraw") then
      ctx:move(ctx:cards("hand", p), "deck", { position = "bottom", reason = "redraw" })
      draw_n(ctx, p, 5)
      ctx:shuffle("deck", p)
    end
  end
  if mode == "team" then
    -- GD 12-3-5: each player takes their top 4 cards; the teammates place them one at a time
    -- in turn, unseen, into the team's shared shields (docs/rulings: the leader first).
    -- (One operation per team moving the cards in that order.)
    for _, team in ipairs(ctx:teams()) do
      local tops = {}
      for i, p in ipairs(team) do tops[i] = ctx:top("deck", p, 4) end
      local cards = {}
      for k = 1, 4 do
        for i = 1, #team do cards[#cards + 1] = tops[i][k] end
      end
      if #cards > 0 then ctx:move(cards, "shields", { player = team[1], reason = "setup", face = "down" }) end
    end
    -- GD 12-3-7: one EX Base per team (docs/rulings: the leader's token).
    for _, team in ipairs(ctx:teams()) do ctx:create_token(GD.EX_BASE, "base_section", team[1]) end
  else
    -- GD 6-2-2: 6 shields each, from the top of the deck, one at a time (one operation
    -- moving them in turn, the top card first).
    for _, p in ipairs(order) do
      local top = ctx:top("deck", p, 6)
      if #top > 0 then ctx:move(top, "shields", { player = p, reason = "setup", face = "down" }) end
    end
    -- GD 6-2-3: an EX Base each, active.
    for _, p in ipairs(order) do ctx:create_token(GD.EX_BASE, "base_section", p) end
  end
  -- GD 6-2-4, 12-2-2, 12-3-6: an EX Resource for every player who does not go first (with
  -- two players, the second player; in Team Battle, each member of the second team).
  for _, p in ipairs(order) do
    if ctx:team(p) ~= ctx:team(first) then ctx:create_token(GD.EX_RESOURCE, "resource_area", p) end
  end
  -- GD 6-2-5: the first player's turn begins (the kernel starts turn 1 with them).
end
