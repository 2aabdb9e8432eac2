-- Combination: SM 200.12 (special moves), 508 (Combination: forms, their ranking 508.6-508.7,
-- the zones where it lasts 508.8, falling back 508.9, conditions 508.10), 509 (the Main Seal),
-- 510 (Support Seals), 511 (Double and Triple), 512 (the procedure), 513 (Break Combination and
-- an invalid combination), 514 (the Break procedure).
--
-- A combined Seal is a composite: its Support Seals are attached under its Main Seal (game.yaml
-- `attachments`: the same objects, their effects paused and abilities lost, SM 510.3, 510.4).
-- Its values are its special move's (a rule static ability of rules.lua, layer `form`).
--
-- A Seal's moves are card data (`moves`): each names the Supports it needs, one condition per
-- Support Seal (one card meets one condition at most, as 611.6), and the values, attack Mp and
-- attack kind it uses; a value the move does not give stays the Seal's own (200.12.3).

SM = SM or {}

--- How specific a Support condition is (SM 508.6: name, part of name, set, group, race, element).
SM.SPECIFICITY = { name = 1, name_part = 2, series = 3, group = 4, race = 5, element = 6 }

--- Whether Seal `s` meets Support condition `need` ({name = ...}, {name_part = ...}, {series},
--- {group}, {race} or {element}; the Multi Element symbol counts as every element, 200.3.4).
function SM.meets(s, need)
  if need.name then return s:has("names", need.name) end
  if need.name_part then
    local part = string.lower(need.name_part)
    for _, n in ipairs(s.names) do
      if string.find(string.lower(n), part, 1, true) then return true end
    end
    return false
  end
  if need.series then return s:has("series", need.series) end
  if need.group then return s:has("groups", need.group) end
  if need.race then return s:has("races", need.race) end
  if need.element then return s:has("elements", need.element) or s:has("elements", "multi") end
  return false
end

--- Whether `cards` meet `needs` one card each (SM 611.6 alike: a card meets one need at most).
function SM.fits(cards, needs)
  if #cards ~= #needs then return false end
  local used = {}
  local function go(i)
    if i > #needs then return true end
    for j, c in ipairs(cards) do
      if not used[j] and SM.meets(c, needs[i]) then
        used[j] = true
        if go(i + 1) then return true end
        used[j] = false
      end
    end
    return false
  end
  return go(1)
end

--- A move's specificity (SM 508.6): the ranks of its conditions, most specific first.
local function rank_of(move)
  local r = {}
  for _, need in ipairs(move.supports or {}) do
    for k, v in pairs(SM.SPECIFICITY) do
      if need[k] then r[#r + 1] = v end
    end
  end
  table.sort(r)
  return r
end

--- -1, 0 or 1 as rank `a` is more, as, or less specific than `b`.
local function cmp_rank(a, b)
  for i = 1, math.max(#a, #b) do
    local x, y = a[i] or 99, b[i] or 99
    if x ~= y then return x < y and -1 or 1 end
  end
  return 0
end

--- Seal `c`'s moves (its printed special moves, SM 200.12).
function SM.moves(c) return SM.printed(c, "moves") or {} end

--- The moves `main` could use with Support Seals `supports`, the most specific first: the best
--- and those as specific (SM 508.6, 508.7). Returns a list of {index, move}.
function SM.best_moves(main, supports)
  local best, out = nil, {}
  for i, m in ipairs(SM.moves(main)) do
    if SM.fits(supports, m.supports or {}) then
      local r = rank_of(m)
      local c = best and cmp_rank(r, best) or -1
      if c < 0 then best, out = r, { { index = i, move = m } }
      elseif c == 0 then out[#out + 1] = { index = i, move = m } end
    end
  end
  return out
end

--- The special move combined Seal `c` uses now (SM 508.5, 508.6; 508.7: the one its player chose
--- among equals; 508.9: another that fits when a Support no longer does), or nil; an uncombined
--- Seal considered in a form uses that form's move (Gl: อยู่ในสภาพ, support.lua).
function SM.form_of(c)
  if c == nil or not c.alive then return nil end
  -- (Read at every value of a Seal, through the rules' static abilities: each card field once.)
  local attachments = c.attachments
  local supports = #attachments == 0 and attachments or util.filter(attachments, SM.is_seal)
  if #supports == 0 then
    if c.host ~= nil then return nil end
    return SM.considered_move(c) -- SM.considered_form
  end
  local fitting = SM.best_moves(c, supports)
  if #fitting == 0 then return nil end
  local chosen = c:counter_value("move")
  for _, f in ipairs(fitting) do
    if f.index == chosen then return f.move end
  end
  return fitting[1].move
end

-- Conditions (SM 508.10) ---------------------------------------------------------------------------

--- Whether Seal `c` may be commanded to combine as the Main Seal by `p` (SM 508.10.1, 508.10.3-
--- 508.10.5; Gl: Control: a controlled Seal cannot; 709.5.2, 709.11.4: Stone, Dimension).
function SM.may_be_main(ctx, c, p)
  return c.alive and c.host == nil and SM.is_seal(c) and c.controller == p and c.owner == p
    and util.contains(SM.SEAL_PLACES, c.zone) and SM.active(c) and not c:flag_on("pending")
    and not SM.uncommandable(c) and not c:has("keywords", "cannot_combine")
    and ctx:uses(c, "combine") == 0 and #SM.moves(c) > 0
end

--- Whether Seal `s` may be a Support Seal for `p` now (SM 508.10.3, 508.10.6-508.10.8; Gl: Dancing
--- 1, Control).
--- `listed`: `s` was just listed among SM.seals(ctx, p) (alive, not attached, a Seal in a Line
--- or in no Line: not read again). (All reads: the six Curses, the most reads, come last.)
function SM.may_support(ctx, s, p, listed)
  if not listed and not (s.alive and s.host == nil and SM.is_seal(s)) then return false end
  if not (s.controller == p and s.owner == p) then return false end
  if not listed and not util.contains(SM.SEAL_PLACES, s.zone) then return false end
  if #s.attachments > 0 then return false end -- in normal state, nothing pasted
  if not SM.active(s) or s:flag_on("pending") or s:has("keywords", "cannot_combine") then return false end
  -- SM 508.10.7: cast from the Hand less than a Turn (two Subturns) ago; 508.10.8: any other way in
  -- does not count.
  if s:flag_on("from_hand") and ctx.turn - s.entered_turn < 2 then return false end
  if ctx:uses(s, "danced") > 0 then return false end -- Gl: Dancing 1
  return not SM.cursed(s)
end

--- Seal `c`'s moves if it may be commanded to combine as the Main Seal by `p` (SM.may_be_main),
--- else nil: its moves read once, and first (few Seals print any: the other tests are read only
--- for those).
--- (`c` was just listed among SM.seals(ctx, p): alive, not attached, a Seal in a Line or in no Line.)
local function main_moves(ctx, c, p)
  local moves = SM.moves(c)
  if #moves == 0 then return nil end
  if not (c.controller == p and c.owner == p and SM.active(c) and not c:flag_on("pending")
      and not SM.uncommandable(c) and not c:has("keywords", "cannot_combine")
      and ctx:uses(c, "combine") == 0) then return nil end
  return moves
end

--- Whether move `i` of `moves` (fitting Supports `all`) is among the most specific moves that fit
--- them (SM 508.6: SM.best_moves lists it): no move that fits them is more specific. `ranks`:
--- each move's rank_of, worked out once.
local function among_best(moves, ranks, i, all)
  local r = ranks[i]
  for j, m in ipairs(moves) do
    if j ~= i and cmp_rank(ranks[j], r) < 0 and SM.fits(all, m.supports or {}) then return false end
  end
  return true
end

--- The combinations player `p` may command now: {main, supports (the new ones), move, index,
--- all (every Support after it)}. A Triple may be made from three Seals, or from a Double and one
--- more (SM 511.2). `seals`: SM.seals(ctx, p), when the caller has it.
function SM.combinations(ctx, p, seals)
  local out = {}
  seals = seals or SM.seals(ctx, p)
  local pool -- the Seals that may support, looked for once a Seal may be the Main
  for _, main in ipairs(seals) do
    local moves = main_moves(ctx, main, p)
    if moves ~= nil then
      pool = pool or util.filter(seals, function(s) return SM.may_support(ctx, s, p, true) end)
      local have = SM.supports(main)
      local others = {}
      for _, s in ipairs(pool) do
        if s ~= main then others[#others + 1] = s end
      end
      local ranks -- each move's specificity (SM 508.6), once a combination fits one
      for i, m in ipairs(moves) do
        local need = #(m.supports or {}) - #have
        local function try(chosen)
          local all = util.concat(have, chosen)
          if SM.fits(all, m.supports) then
            -- The move the combination would use must be this one or one as specific (508.6).
            if ranks == nil then
              ranks = {}
              for j, mj in ipairs(moves) do ranks[j] = rank_of(mj) end
            end
            if among_best(moves, ranks, i, all) then
              out[#out + 1] = { main = main, supports = chosen, move = m, index = i, all = all }
            end
          end
        end
        if need == 1 then
          for _, s in ipairs(others) do try({ s }) end
        elseif need == 2 then
          for a = 1, #others do
            for b = a + 1, #others do try({ others[a], others[b] }) end
          end
        end
      end
    end
  end
  return out
end

-- Combination (SM 512) -----------------------------------------------------------------------------

--- The Main Step's combination options of player `p` (SM 512.1-512.3). `seals`: as
--- SM.combinations's.
function SM.combine_options(ctx, p, seals)
  local out = {}
  for _, c in ipairs(SM.combinations(ctx, p, seals)) do
    local names = table.concat(util.map(c.supports, function(s) return s.label end), " + ")
    local cost = c.move.cost or 0
    if SM.can_pay(ctx, p, cost, "combination") then
      out[#out + 1] = { label = "combine " .. c.main.label .. " with " .. names .. ": " .. c.move.name,
        kind = "combine", card = c.main, target = c.supports[1], procedure = "combine",
        data = { card = c.main, supports = c.supports, index = c.index, player = p, kind = "combination" } }
    end
  end
  return out
end

--- The move the record declares.
local function declared_move(d) return SM.moves(d.card)[d.index] end

--- Whether the declared combination may still be made (SM 512.9): the Main and the new Supports
--- meet their conditions, and together with the Supports it has they fit the move.
local function still_valid(ctx, d)
  local main, move = d.card, declared_move(d)
  if not (SM.still_commands(d, main) and util.contains(SM.SEAL_PLACES, main.zone) and SM.active(main)
      and not SM.uncommandable(main) and move ~= nil) then return false end
  for _, s in ipairs(d.supports) do
    if not (s.alive and s ~= main and s.host == nil and s.controller == d.player and SM.in_field(s)
        and #s.attachments == 0 and not SM.cursed(s) and SM.active(s)) then return false end
  end
  return SM.fits(util.concat(SM.supports(main), d.supports), move.supports)
end

--- SM 512.1-512.5: the Seal is commanded to combine; the cost, if any, is paid; it is the Seal
--- being combined. "When a player commands / declares a Combination" abilities work after.
function SM.combine_declare(ctx, d)
  local main = d.card
  if not SM.may_be_main(ctx, main, d.player) then return "stop" end
  for _, s in ipairs(d.supports) do
    if not SM.may_support(ctx, s, d.player) then return "stop" end
  end
  if not still_valid(ctx, d) then return "stop" end
  if not SM.pay(ctx, d.player, declared_move(d).cost or 0, "combination") then return "stop" end -- SM 512.4, 512.5
  ctx:use(main, "combine") -- SM 508.10.1
  SM.declare_command(ctx, d, main, "combining", "combination")
end

--- SM 512.6: "when it combines / combination succeeds" abilities choose.
function SM.combine_choose(ctx, d) SM.slot_choose(ctx, d, "combines", { d.card }) end

--- SM 512.8: their targets are checked after the Interfere Step (a failed one chooses again).
function SM.combine_check(ctx, d) return SM.slot_validate(ctx, d, "choose") end

--- SM 512.9: the conditions are checked again: other Support Seals may be declared unpaid, else a
--- Triple is lowered to a Double; from a Double the combination fails (508.3: nothing moved).
function SM.combine_validate(ctx, d)
  if still_valid(ctx, d) then return nil end
  local main = d.card
  if not (SM.still_commands(d, main) and util.contains(SM.SEAL_PLACES, main.zone)) then return "stop" end
  -- SM 512.9: other Supports for the same move, else a lower form; the player declares them
  -- (512.3, 512.2): with more than one way, they choose (docs/rulings B.51).
  local same, lower = {}, {}
  local size = #util.concat(SM.supports(main), d.supports)
  for _, c in ipairs(SM.combinations_for(ctx, d.player, main)) do
    if c.index == d.index then same[#same + 1] = c
    elseif #c.all < size then lower[#lower + 1] = c end
  end
  local ways = #same > 0 and same or lower
  if #ways == 0 then return "stop" end
  local best = ways[1]
  if #ways > 1 then
    local opts = {}
    for _, c in ipairs(ways) do
      local names = table.concat(util.map(c.supports, function(s) return s.label end), " + ")
      opts[#opts + 1] = { label = names .. ": " .. c.move.name, kind = "supports", card = c.supports[1],
        target = c.supports[2], way = c }
    end
    best = ctx:choose(d.player, opts, { prompt = "supports" }).way
  end
  d.supports, d.index = best.supports, best.index
end

--- The combinations with Main Seal `main` (its once-per-Subturn use already counted).
function SM.combinations_for(ctx, p, main)
  local out = {}
  local pool = util.filter(SM.seals(ctx, p), function(s) return s ~= main and SM.may_support(ctx, s, p) end)
  local have = SM.supports(main)
  for i, m in ipairs(SM.moves(main)) do
    local need = #(m.supports or {}) - #have
    local function try(chosen)
      if SM.fits(util.concat(have, chosen), m.supports) then
        out[#out + 1] = { main = main, supports = chosen, move = m, index = i, all = util.concat(have, chosen) }
      end
    end
    if need == 1 then
      for _, s in ipairs(pool) do try({ s }) end
    elseif need == 2 then
      for a = 1, #pool do
        for b = a + 1, #pool do try({ pool[a], pool[b] }) end
      end
    end
  end
  return out
end

--- SM 512.10: the combination is complete: the Support Seals go under the Main Seal.
function SM.combine_complete(ctx, d)
  local main = d.card
  -- The Supports go under the Main together (SM 512.10, 603.6.2): the rule checks wait for the
  -- last of them (a Triple's first Support alone may fit no move: it is no invalid combination).
  ctx:set_game_value("batch", ctx:game_value("batch") + 1)
  for _, s in ipairs(d.supports) do
    if s.alive then ctx:attach(s, main, { reason = "combination" }) end
  end
  ctx:set_game_value("batch", ctx:game_value("batch") - 1)
  local fitting = SM.best_moves(main, SM.supports(main))
  if #fitting == 0 then return "stop" end
  d.ties = #fitting
  ctx:add_counter(main, "move", fitting[1].index - main:counter_value("move"), "combination")
  ctx:emit("combined", { card = main, player = d.player, key = fitting[1].move.name })
end

--- SM 508.7: among equally specific moves its player chooses one (a window).
function SM.combine_move_actions(ctx, p, d)
  if (d.ties or 0) < 2 or d.move_chosen then return {} end
  local out = {}
  for _, f in ipairs(SM.best_moves(d.card, SM.supports(d.card))) do
    out[#out + 1] = { label = f.move.name, kind = "move", index = f.index, run = function(ctx, o, d)
      d.move_chosen = true
      ctx:add_counter(d.card, "move", o.index - d.card:counter_value("move"), "combination")
    end }
  end
  return out
end

--- SM 512.11: the "combines" abilities are checked and work.
function SM.combine_fire(ctx, d) SM.slot_check(ctx, d, nil) end

--- SM 512.12, 500.3: the end; the Seal stays Active.
function SM.combine_end(ctx, d)
  SM.clear_flags(ctx, { d.card }, { "combining" })
  SM.end_command(ctx, d)
end

-- Break Combination (SM 513, 514) -------------------------------------------------------------------

--- Whether `c` may be commanded to Break by `p` (SM 513.4): combined, Active, no command pending,
--- owned (513.4.2; Gl: Control), not combined by its player this Subturn (513.4.3), once per
--- Subturn (513.4.4), not forbidden (513.4.5).
function SM.may_break(ctx, c, p)
  return c.alive and c.host == nil and SM.combined(c) and c.controller == p and c.owner == p and SM.active(c)
    and not c:flag_on("pending") and not SM.uncommandable(c) and not c:has("keywords", "cannot_combine")
    and ctx:uses(c, "combine") == 0 and ctx:uses(c, "break") == 0
end

--- The Main Step's Break options of player `p`. `seals`: SM.seals(ctx, p), when the caller has it.
function SM.break_options(ctx, p, seals)
  local out = {}
  for _, c in ipairs(seals or SM.seals(ctx, p)) do
    -- (SM.combined first: most Seals have nothing attached, and a listed one is alive and not
    -- attached, the tests SM.may_break makes before it.)
    if #c.attachments > 0 and SM.may_break(ctx, c, p) then
      out[#out + 1] = { label = "break " .. c.label, kind = "break", card = c, procedure = "break",
        data = { card = c, player = p, kind = "break" } }
    end
  end
  return out
end

--- SM 514.1-514.3: the Seal is commanded to Break; it is the Seal being separated.
function SM.break_declare(ctx, d)
  local c = d.card
  if not SM.may_break(ctx, c, d.player) then return "stop" end
  ctx:use(c, "break")
  SM.declare_command(ctx, d, c, "separating", "break")
end

--- SM 514.4: "when it separates" abilities choose.
function SM.break_choose(ctx, d) SM.slot_choose(ctx, d, "separates", { d.card }) end

--- SM 514.6: their targets are checked (a failed one chooses again).
function SM.break_check(ctx, d) return SM.slot_validate(ctx, d, "choose") end

--- SM 514.7: the conditions are checked again.
function SM.break_validate(ctx, d)
  local c = d.card
  if not (SM.still_commands(d, c) and SM.combined(c) and SM.in_field(c) and not SM.uncommandable(c)) then return "stop" end
end

--- SM 513.2: the Main Seal's controller chooses on which side of it its Supports go.
function SM.side_actions(ctx, p, d)
  if d.side ~= nil or not SM.in_line(d.card) then return {} end
  local function side(kind, at)
    return { label = kind, kind = kind, run = function(ctx, o, d) d.side = at end }
  end
  return { side("left", 0), side("right", 1) }
end

--- Separates combined Seal `main`: its Support Seals go beside it in its Line (SM 513.2), on side
--- `side` (0 left, 1 right), or into its zone when it is in no Line. Not a Line assignment. A
--- Support whose controller is not the Main's goes to its own side, in the Main's Line (Gl:
--- Control: only the Main Seal stays controlled).
function SM.separate(ctx, main, side, reason)
  local supports = SM.supports(main)
  if #supports == 0 then return end
  ctx:set_game_value("batch", ctx:game_value("batch") + 1) -- together (SM 603.6.2)
  for _, s in ipairs(supports) do
    if s.controller ~= main.zone_owner then
      ctx:move(s, main.zone, { player = s.controller, reason = reason, by = false })
    elseif SM.in_line(main) then
      local at = side == 0 and main.position or main.position + 1
      ctx:move(s, main.zone, { player = main.zone_owner, position = at, reason = reason, by = false })
    else
      ctx:move(s, main.zone, { player = main.zone_owner, reason = reason, by = false })
    end
  end
  ctx:set_game_value("batch", ctx:game_value("batch") - 1)
  if main:counter_value("move") > 0 then ctx:add_counter(main, "move", -main:counter_value("move"), reason) end
  ctx:emit("separated", { card = main, player = main.controller, reason = reason })
end

--- SM 513.2: the combination of `main` breaks (by an effect or the rules): in a Line its
--- controller chooses the side its Supports go to.
function SM.separate_beside(ctx, main, reason)
  local side = 1
  if SM.in_line(main) then
    side = ctx:choose(main.controller, { { label = "left", kind = "left", at = 0 }, { label = "right", kind = "right", at = 1 } },
      { prompt = "side" }).at
  end
  SM.separate(ctx, main, side, reason)
end

--- SM 514.8, 514.9: the Supports go beside the Main; the "separates" abilities work.
function SM.break_complete(ctx, d)
  SM.separate(ctx, d.card, d.side or 1, "break")
  SM.slot_check(ctx, d, nil)
end

--- SM 514.10, 500.3: the end; the Seal stays Active.
function SM.break_end(ctx, d)
  SM.clear_flags(ctx, { d.card }, { "separating" })
  SM.end_command(ctx, d)
end

-- Invalid combinations (SM 508.8, 513.3) -------------------------------------------------------------

--- The forms' test (a part of the `board` check, board.lua): a Main Seal in the Arena whose Supports fit none of its moves (not
--- while cards change zone together: SM 603.6.2, 512.10).
function SM.forms_due(ctx)
  if ctx:game_value("batch") > 0 then return false end
  for p = 1, 2 do
    for _, c in ipairs(SM.seals(ctx, p)) do
      if #c.attachments > 0 and SM.combined(c) and SM.form_of(c) == nil then return true end
    end
  end
  return false
end

--- SM 513.3: every Support of such a Main Seal is separated at once beside it (not a Break
--- Combination); its controller chooses the side (513.2).
function SM.fix_forms(ctx)
  for p = 1, 2 do
    for _, c in ipairs(SM.seals(ctx, p)) do
      if SM.combined(c) and SM.form_of(c) == nil then SM.separate_beside(ctx, c, "invalid") end
    end
  end
end
