-- Lines: SM 303.2-303.3 (the At Line, the Df Line, and Seals in no Line), 515 (assigning a Line),
-- 516 (from one Line to the other), 517 (from no Line), with the Curses that hold a Seal's Line
-- (Freeze 709.6.1, Dimension 709.11) and Dancing (Gl).
--
-- A Line is an ordered zone of its player (1 is the leftmost place, SM 515.6); moving between the
-- Lines and the no-Line state keeps the Seal the same object (game.yaml `identity`).

SM = SM or {}

--- Whether Seal `c` may go to Line `line` now: Freeze keeps it in the Df Line (SM 709.6.1);
--- Dimension in no Line (709.11.1).
function SM.may_enter_line(c, line)
  if line ~= "at_line" and line ~= "df_line" then return false end
  if c.dimension > 0 then return false end
  if line == "at_line" and c.freeze > 0 then return false end
  return true
end

--- The options of a window choosing a Line and a place in it for Seal `c` on player `side`'s
--- part of the Arena (SM 610.1.6, 708.1.3, 517.2; 515.6: anywhere in the Line): "At Line 1",
--- "Df Line 2"... `kind` is the options' kind ("line" or "place"); `only` keeps one Line.
function SM.line_place_options(ctx, c, side, kind, only)
  local out = {}
  for _, line in ipairs(SM.LINES) do
    if (only == nil or only == line) and SM.may_enter_line(c, line) then
      local here = ctx:cards(line, side)
      local n = #here + 1
      if c.zone == line and c.zone_owner == side then n = #here end
      for i = 1, n do
        out[#out + 1] = { label = SM.LINE_NAME[line] .. " " .. i, kind = kind, line = line, place = i,
          run = function(ctx, o, d)
            d.line, d.place, d.line_ok = o.line, o.place, true
          end }
      end
    end
  end
  return out
end

--- Puts Seal `c` into `line` of player `side` at place `place` (clamped to the Line), the same
--- object. Returns it (nil when it could not move).
function SM.place_in_line(ctx, c, line, place, side, reason)
  side = side or c.controller
  local n = ctx:count(line, side)
  if c.zone == line then n = n - 1 end
  place = math.max(1, math.min(place or (n + 1), n + 1))
  return ctx:move(c, line, { player = side, position = place, reason = reason or "line" })[1]
end

-- Line changes commanded (SM 516) -----------------------------------------------------------------

--- Whether Seal `c` may be assigned a Line by its player now (SM 515.9): once per Subturn
--- (515.9.1), no effect forbids it (515.9.2, 709.5.2, 709.11.4), Active with no command pending
--- (515.9.3, 500.1).
--- `listed`: `c` was just listed in a Line (not attached: not read again).
function SM.may_assign_line(ctx, c, p, listed)
  return c.controller == p and (listed or c.host == nil) and SM.active(c) and not c:flag_on("pending")
    and not SM.uncommandable(c) and not c:has("keywords", "cannot_change_line")
    and ctx:uses(c, "line") == 0
end

--- The Main Step's Line changes of player `p` (SM 516.1, 516.2): each Seal in a Line to the other.
function SM.line_options(ctx, p)
  local out = {}
  for _, line in ipairs(SM.LINES) do
    local to = line == "at_line" and "df_line" or "at_line"
    for _, c in ipairs(ctx:cards(line, p)) do
      -- SM.may_enter_line(c, to): a Seal that may be assigned a Line has no Dimension (SM.uncommandable).
      if SM.may_assign_line(ctx, c, p, true) and (to ~= "at_line" or c.freeze == 0) then
        out[#out + 1] = { label = "move " .. c.label .. " to the " .. SM.LINE_NAME[to], kind = "line", card = c,
          procedure = "line", data = { card = c, player = p, line = to, kind = "line" } }
      end
    end
  end
  return out
end

--- SM 516.1-516.3: the Seal is being assigned a Line; "when a player commands / declares a Line
--- assignment" abilities work after this step.
function SM.line_declare(ctx, d)
  local c = d.card
  if not (SM.may_assign_line(ctx, c, d.player) and SM.may_enter_line(c, d.line) and c.zone ~= d.line) then return "stop" end
  ctx:use(c, "line") -- SM 515.9.1
  SM.declare_command(ctx, d, c, "assigning", "line")
end

--- SM 516.4: the Line abilities (and Dancing) choose.
function SM.line_choose(ctx, d) SM.slot_choose(ctx, d, "line_change", { d.card }) end

--- SM 516.6: after the Interfere Step, targets are checked (a failed one chooses again).
function SM.line_check(ctx, d) return SM.slot_validate(ctx, d, "choose") end

--- SM 516.7: the conditions are checked again.
function SM.line_validate(ctx, d)
  local c = d.card
  if not (SM.still_commands(d, c) and SM.in_line(c) and c.zone ~= d.line and SM.may_enter_line(c, d.line)
      and not SM.uncommandable(c) and not c:has("keywords", "cannot_change_line")) then
    return "stop"
  end
end

--- SM 516.8: where in its new Line the Seal goes (a window of its player).
function SM.line_place_actions(ctx, p, d)
  if d.placed then return {} end
  return SM.line_place_options(ctx, d.card, d.card.zone_owner, "place", d.line)
end

--- SM 516.8, 516.9: the Seal goes to its Line; the Line abilities work.
function SM.line_complete(ctx, d)
  local c = SM.place_in_line(ctx, d.card, d.line, d.place, d.card.zone_owner, "line")
  if c == nil then return "stop" end
  ctx:emit("line_assigned", { card = c, player = d.player, key = d.line, line = SM.LINE_NAME[d.line] })
  SM.slot_check(ctx, d, nil)
end

--- SM 516.10, 500.3: the end; the Seal stays Active.
function SM.line_end(ctx, d)
  SM.clear_flags(ctx, { d.card }, { "assigning" })
  SM.end_command(ctx, d)
end

-- A Line from no Line (SM 517, 515.3) ------------------------------------------------------------

--- SM 517.2: the Line and the place of a Seal in no Line (a window of its controller).
function SM.assign_line_actions(ctx, p, d)
  if d.line_ok then return {} end
  return SM.line_place_options(ctx, d.card, d.card.zone_owner, "line")
end

--- SM 517.3-517.7: the Seal goes to its Line; "when assigned a Line" abilities choose and work.
function SM.assign_line_complete(ctx, d)
  local c = d.card
  if not (c.alive and c.zone == "no_line") or d.line == nil or not SM.may_enter_line(c, d.line) then return "stop" end
  local n = SM.place_in_line(ctx, c, d.line, d.place, c.zone_owner, "line")
  if n == nil then return "stop" end
  ctx:emit("line_assigned", { card = n, player = n.controller, key = d.line, line = SM.LINE_NAME[d.line] })
  SM.slot_fire(ctx, d, "line_change", { n })
end

-- The Lines check (SM 709.6.1, 709.11.1, 515.3) ---------------------------------------------------

--- Whether a Seal must move: Dimension holds it in no Line, Freeze in the Df Line; a Seal in no
--- Line otherwise gets one at once.
function SM.misplaced(c)
  if c.host ~= nil or not SM.is_seal(c) then return false end
  if c.dimension > 0 then return c.zone ~= "no_line" end
  if c.zone == "no_line" then return true end
  return c.zone == "at_line" and c.freeze > 0 and not c:has("keywords", "cannot_change_line")
end

--- The Lines' test (a part of the `board` check, board.lua).
function SM.lines_due(ctx)
  for p = 1, 2 do
    for _, z in ipairs(SM.SEAL_PLACES) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if SM.misplaced(c) then return true end
      end
    end
  end
  return false
end

--- SM 709.11.1, 709.11.2: Dimension moves a Seal out of its Line (Dimension wins over other Line
--- effects); 709.6.1: Freeze moves it to the Df Line (docs/rulings A.30: not when an effect says
--- it cannot change Line). Neither is a Line assignment (515.8). SM 515.3, 709.11.8: a Seal in no
--- Line is assigned one at once by its controller, even if it had its assignment this Subturn,
--- outside their attack Subturn too (517, with no Interfere Step).
function SM.fix_lines(ctx)
  for p = 1, 2 do
    for _, z in ipairs(SM.LINES) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c.dimension > 0 then
          ctx:move(c, "no_line", { player = p, reason = "dimension", by = false })
        elseif z == "at_line" and c.freeze > 0 and not c:has("keywords", "cannot_change_line") then
          SM.place_in_line(ctx, c, "df_line", nil, p, "freeze")
        end
      end
    end
    for _, c in ipairs(ctx:cards("no_line", p)) do
      if SM.is_seal(c) and c.dimension == 0 and c.alive and c.zone == "no_line" then
        ctx:procedure("assign_line", { card = c, player = c.controller, kind = "assign_line" })
      end
    end
  end
end
