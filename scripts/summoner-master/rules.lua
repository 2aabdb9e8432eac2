-- The rules' own abilities (hooks.rule_abilities): the level's values (SM 101.3, 103.1), a
-- combination's values (508.5, 200.12.3), Shade of (200.20, 201.17), the
-- zones Extra Cards and destroyed or losing Seals may go to (621.6.3, 701.1, 713.2), and the
-- Curses whose Turns run out (709.8.1, 709.10.3).

SM = SM or {}

--- A combination's move values, one static ability per value: the move's value when it gives one
--- (SM 508.5), the Seal's own otherwise (200.12.3).
local function form_value(char, field)
  return {
    kind = "static",
    affects = function(ctx, c)
      if c.host ~= nil or c.category ~= "seal" or not c.alive then return false end
      -- SM 508.5; Gl: อยู่ในสภาพ (a Seal considered in a form): SM.form_of, which for a Seal
      -- with nothing attached is the move it is considered in (read at every value of a Seal).
      local m
      if #c.attachments == 0 then m = SM.considered_move(c) else m = SM.form_of(c) end
      return m ~= nil and m[field] ~= nil
    end,
    modify = { { char = char, op = "set_base", layer = "form", value = function(ctx, c) return SM.form_of(c)[field] end } },
  }
end

--- SM 508.8, 508.9, 513.3: the characteristic `misfit`, 1 while Seal `c` is combined and no special
--- move fits its Supports: SM.combined(c) and SM.form_of(c) == nil (SM.best_moves finds none),
--- without ranking the moves that fit. Kept: the board check reads it after every change in the
--- Arena, and it changes only with the Seal's attachments, their names and the Seal's moves.
local function misfit()
  local function fits_no_move(c)
    local supports = util.filter(c.attachments, SM.is_seal)
    if #supports == 0 then return false end
    for _, m in ipairs(SM.moves(c)) do
      if SM.fits(supports, m.supports or {}) then return false end
    end
    return true
  end
  return {
    kind = "static",
    affects = function(ctx, c) return c.category == "seal" and #c.attachments > 0 end,
    modify = { { char = "misfit", op = "set_base", layer = "form", value = function(ctx, c) return fits_no_move(c) and 1 or 0 end } },
  }
end

--- The zones of the Arena where a Seal stands (SM.SEAL_PLACES), as a set.
local SEAL_PLACE = { at_line = true, df_line = true, no_line = true }

--- The characteristic `board_bits` of a card of the Arena (the kernel's test: in a zone of SM.FIELD,
--- or attached there): what the board check (board.lua) reads of it, as bits. 1 while it does not
--- obey the player it should (Gl: Control, SM 709.7.1: SM.control_due of the card), or it is a Seal
--- in a Line or in no Line where it may not stand (709.6.1 Freeze, 709.11.1 Dimension, 515.3 no
--- Line: SM.misplaced); 2 when it prints a (Zone X Work Y) (Gl: limits.lua); 4 while cards are
--- attached to it (a list the check then reads). Kept: the check reads it of every card of the Arena
--- after every change there, and it changes only with the card's place and attachments, its Curses,
--- control effects and the card it is.
local function board_bits()
  --- Bit 1 (SM.rightful_controller, SM.misplaced).
  local function unsettled(c)
    local charm = c.charm
    local obeys = charm
    if charm <= 0 then
      local control = c.control
      obeys = control > 0 and control or c.owner
    end
    if c.controller ~= obeys then return true end
    local z = c.zone
    if SEAL_PLACE[z] and c.category == "seal" then
      if c.dimension > 0 then return z ~= "no_line" end
      if z == "no_line" then return true end
      return z == "at_line" and c.freeze > 0 and not c:has("keywords", "cannot_change_line")
    end
    return false
  end
  return {
    kind = "static",
    affects = { zones = SM.FIELD },
    modify = { { char = "board_bits", op = "set_base", layer = "form", value = function(ctx, c)
      return (unsettled(c) and 1 or 0) + (c:printed("work") ~= nil and 2 or 0) + (#c.attachments > 0 and 4 or 0)
    end } },
  }
end

--- The characteristic `cast_bits` of a card of the hand: what the cast listing (SM.cast_options)
--- reads of it, as bits: 1 it has Interfere (SM.has_interfere), 2 it has Wisdom
--- (SM.wisdom_pending), 4 it is a Seal. Kept: the casts are listed at every decision of the Main
--- Step and of every Interfere Step.
local function cast_bits()
  return {
    kind = "static",
    affects = { zones = { "hand" } },
    modify = { { char = "cast_bits", op = "set_base", layer = "form", value = function(ctx, c)
      return (SM.has_interfere(c) and 1 or 0) + (SM.wisdom_pending(c) and 2 or 0) + (SM.is_seal(c) and 4 or 0)
    end } },
  }
end

--- SM 200.20, 201.17, 200.9.4, Gl: Shade of: a card has the names, races, elements, Mystic
--- types and sets its `shade_of` lists, in any zone, a Support Seal too.
local function shade(char, field)
  return {
    kind = "static",
    affects = function(ctx, c)
      local shades = c:printed("shade_of") -- SM.printed (read at every read of these sets)
      if shades == nil then return false end
      for _, s in ipairs(shades) do
        if s[field] then return true end
      end
      return false
    end,
    modify = { { char = char, op = "grant", layer = "shade", value = function(ctx, c)
      local out = {}
      for _, s in ipairs(SM.printed(c, "shade_of") or {}) do
        if s[field] then out[#out + 1] = s[field] end
      end
      return out
    end } },
  }
end

--- A player characteristic the level gives (SM 101.3, 103.1).
local function level_value(char)
  return {
    kind = "static", target = "players",
    affects = function(ctx, p) return true end,
    modify = { { char = char, op = "add", value = function(ctx, p) return SM.level(ctx)[char] end } },
  }
end

SM.RULES = {
  level_value("mp_max"),
  level_value("hand_max"),
  level_value("shrine_max"),
  form_value("at", "at"),
  form_value("df", "df"),
  form_value("sp", "sp"),
  form_value("attack_mp", "attack_mp"),
  shade("names", "name"),
  shade("races", "race"),
  shade("elements", "element"),
  shade("mystic_types", "mystic_type"),
  shade("series", "series"),
  -- SM 621.6.3, 621.6.4: an Extra Card that would go to a hand or a Library goes to the Remove
  -- Zone instead, and never back beside the deck.
  { kind = "replacement", replaces = "move",
    match = { to = { "hand", "seal_library", "mystic_library", "extra" } }, -- (the kernel's test first)
    applies = function(ctx, op)
      return op.zone ~= nil and op.card:printed("extra") == true
        and util.contains({ "hand", "seal_library", "mystic_library", "extra" }, op.zone) and op.from ~= "extra"
    end,
    replace = function(ctx, op)
      op.zone, op.position = "remove_zone", nil
      return op
    end },
  -- SM 701.1, 713.1, 713.2 (docs/rulings B.48, B.49): a card being destroyed, or a battle's
  -- loser, leaves the Arena only by its destruction: any other move out of it does nothing (the
  -- destruction clears the status just before its own move). An effect that moves a losing Seal
  -- as such clears the status first (zones.lua).
  { kind = "replacement", replaces = "move",
    match = { from = SM.FIELD, to = SM.NOT_FIELD }, -- (the kernel's test first)
    applies = function(ctx, op)
      local c = op.card
      return op.zone ~= nil and (c:flag_on("destroyed") or c:flag_on("loser"))
        and op.from ~= nil and util.contains(SM.FIELD, op.from) and not util.contains(SM.FIELD, op.zone)
    end,
    replace = function(ctx, op) return nil end },
  -- SM 709.8.1, 709.10.3: a Poison or Last Dance Curse whose Turns ran out destroys its Seal.
  { kind = "triggered", on = "expired",
    when = function(ctx, ev)
      return (ev.key == "poison" or ev.key == "last_dance") and ev.card ~= nil and ev.card.alive and SM.in_field(ev.card)
    end,
    operate = function(ctx)
      SM.destroy_cards(ctx, { ctx.event.card }, { reason = "effect", player = ctx.event.player })
    end },
  misfit(),
  board_bits(),
  cast_bits(),
}
