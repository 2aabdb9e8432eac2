-- The Arena's rule checks, tested in one scan (game.yaml `checks`: `board`): control (Gl: Control,
-- SM 709.7.1), the Lines (709.6.1, 709.11.1, 515.3), invalid combinations (508.8, 508.9, 513.3),
-- the exceptions of pasted Mystic Cards (201.11.3), (Zone X Work Y) (Gl) and the pasted cards
-- whose Effect is gone (201.8.2.1, 201.8.2.3) read the same cards of the Arena. Six checks scanned
-- it one after the other after every change there; one check scans it once and, when something
-- is due, runs their fixes in the order the six checks had, each tested again just before it
-- runs (as the kernel tested them one after the other). Each part's own test and fix stay where
-- its rule is (curses.lua, lines.lua, combination.lua, casting.lua, limits.lua, paste.lua).

SM = SM or {}

--- The zones of the Arena where a Seal stands (SM.SEAL_PLACES), as a set.
local SEAL_PLACE = { at_line = true, df_line = true, no_line = true }

--- Whether a Mystic Card pasted among `attachments` (those of `host`), at any depth, breaks one of
--- its exceptions (SM 201.11.3; casting.lua's `breaking`), or is held no more by its Effect on its
--- host (201.8.2.1, 201.8.2.3; paste.lua's `unheld`).
local function due_under(ctx, host, attachments)
  for _, a in ipairs(attachments) do
    if SM.is_mystic(a) then
      if SM.breaks_exception(a, host) then return true end
      if a:flag_on("paste_held") and #ctx:effects({ source = a, tag = "paste" }) == 0 then return true end
    end
    local under = a.attachments
    if #under > 0 and due_under(ctx, a, under) then return true end
  end
  return false
end

--- The `board` check's test: whether one of SM.control_due, SM.lines_due, SM.forms_due,
--- SM.exceptions_due, SM.work_due (of the Arena's groups) and SM.pastes_due holds, reading each
--- card of the Arena once. (Only whether one holds: the order of the tests does not matter. A card
--- listed in a zone is attached to none; its zone is the one listed.)
function SM.board_due(ctx)
  local known = ctx:game_value("zone_work")
  if known == 0 then return true end -- SM.work_due: the zones the cards name not looked at yet
  -- The Arena's groups: SM.work_due looks only if a card of the Arena prints one.
  local work = bit32.band(known - 1, SM.WORK_ARENA) ~= 0
  local forms -- SM 603.6.2: not while cards change zone together (read once a Seal has attachments)
  for p = 1, 2 do
    for _, z in ipairs(SM.FIELD) do
      local place = SEAL_PLACE[z]
      for _, c in ipairs(ctx:cards(z, p)) do
        -- control (SM.rightful_controller) and the Lines (SM.misplaced); a (Zone X Work Y) printed;
        -- cards attached (rules.lua)
        local bits = c.board_bits
        if bits % 2 == 1 then return true end
        if work and bits % 4 >= 2 then
          if SM.work_due(ctx, "arena") then return true end
          work = false
        end
        if bits >= 4 then
          local attachments = c.attachments
          local seal = place and c.category == "seal"
          -- an invalid combination
          if seal and forms == nil then forms = ctx:game_value("batch") == 0 end
          if forms and seal and c.misfit > 0 then return true end -- (rules.lua)
          if due_under(ctx, c, attachments) then return true end -- an exception, a paste
        end
      end
    end
  end
  return false
end

--- The `outside` check's test: SM.work_due of the groups outside the Arena, if the game's cards
--- name any zone there, so that the `board` check reads no zone outside the Arena (a card drawn or
--- discarded does not scan the Arena again). Its fixes are the `board` check's, which looked at
--- these groups too when it was one check: with the defeat check due, not before it (game.yaml).
function SM.outside_due(ctx)
  local known = ctx:game_value("zone_work")
  -- 0: the `board` check is due and looks at every zone.
  if known == 0 or bit32.band(known - 1, SM.WORK_OUTSIDE) == 0 then return false end
  return SM.work_due(ctx, "outside") and not SM.defeat_due(ctx)
end

--- The `board` check's fixes, in the order of their rules' checks.
function SM.fix_board(ctx)
  if SM.control_due(ctx) then SM.fix_control(ctx) end
  if SM.lines_due(ctx) then SM.fix_lines(ctx) end
  if SM.forms_due(ctx) then SM.fix_forms(ctx) end
  if SM.exceptions_due(ctx) then SM.fix_exceptions(ctx) end
  if SM.work_due(ctx) then SM.fix_work(ctx) end
  if SM.pastes_due(ctx) then SM.fix_pastes(ctx) end
end
