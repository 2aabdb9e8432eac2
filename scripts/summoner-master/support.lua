-- Combination words of the glossary: "as Support of <xxx>:" (Gl: เป็นใบรอง <xxx>:, "as long as [S] is
-- the Support Seal of <xxx>": the one text of a Support Seal that works, SM 510.3 suppressing the
-- others), "considered in <combination form>" (Gl: อยู่ในสภาพ <ท่ารวมร่าง>: an uncombined Seal counts
-- as being in that special move's form) and "normal combination" (Gl: รวมร่างปกติ: a real Main and
-- Support combination, which "considered in" does not make).
--
-- "As Support of" is card data (`as_support`): what the Main Seal gets while the card is its
-- Support Seal (docs/rulings B.34). A rule static ability applies it, so the common shape needs no
-- script. A text of another shape can be a card's own ability marked `attached = "works"` (the
-- kernel spares it from the Supports' suppression, game.yaml `attachments`; docs/kernel.md).

SM = SM or {}

--- The `as_support` entries of Support Seal `s` that apply under Main Seal `main` now: each entry's
--- `of` (a condition, Gl: <xxx>; none: under any Main Seal) must be met by the Main.
function SM.support_grants(s, main)
  local out = {}
  for _, g in ipairs(SM.printed(s, "as_support") or {}) do
    if g.of == nil or SM.meets(main, g.of) then out[#out + 1] = g end
  end
  return out
end

--- The sum of field `field` ("at", "df", "sp") over the `as_support` entries that apply to Main
--- Seal `main` (0 when none).
local function granted(main, field)
  local n = 0
  for _, s in ipairs(SM.supports(main)) do
    for _, g in ipairs(SM.support_grants(s, main)) do n = n + (g[field] or 0) end
  end
  return n
end

--- The keywords the `as_support` entries give Main Seal `main`.
local function granted_keywords(main)
  local out = {}
  for _, s in ipairs(SM.supports(main)) do
    for _, g in ipairs(SM.support_grants(s, main)) do
      for _, k in ipairs(g.keywords or {}) do out[#out + 1] = k end
    end
  end
  return out
end

--- Whether card `c` is a Main Seal with a Support whose `as_support` applies.
local function backed(c)
  if c.host ~= nil or not SM.is_seal(c) or #c.attachments == 0 then return false end
  for _, s in ipairs(SM.supports(c)) do
    if #SM.support_grants(s, c) > 0 then return true end
  end
  return false
end

--- Gl: เป็นใบรอง: the Main Seal gets At+N (Df, Sp) from its Supports' "as Support of" text (a
--- Changing Power Effect, SM 602.4.1: applied last, 603.4).
--- The kernel's own test (`affects = {attached = 1}`) passes only a card with a card attached, so
--- that a card without (most of them, each time one of their values is worked out) runs no Lua;
--- with nothing to add the value is 0 (adding 0 changes nothing).
local function support_power(char)
  return {
    kind = "static",
    affects = { attached = 1 },
    modify = { { char = char, op = "add", value = function(ctx, c) return backed(c) and granted(c, char) or 0 end } },
  }
end

SM.RULES[#SM.RULES + 1] = support_power("at")
SM.RULES[#SM.RULES + 1] = support_power("df")
SM.RULES[#SM.RULES + 1] = support_power("sp")
--- Gl: เป็นใบรอง: the keywords its Supports' "as Support of" text gives the Main Seal.
--- (As `support_power`: a card with nothing attached runs no Lua; nothing to give grants none.)
SM.RULES[#SM.RULES + 1] = {
  kind = "static",
  affects = { attached = 1 },
  modify = { { char = "keywords", op = "grant", value = function(ctx, c) return backed(c) and granted_keywords(c) or {} end } },
}

-- Considered in a form; normal combination (Gl: อยู่ในสภาพ, รวมร่างปกติ) ------------------------------

--- Whether Seal `c` is in a normal combination (Gl: รวมร่างปกติ): a Main Seal with Support Seals
--- under it, not one only considered in a form.
function SM.normally_combined(c) return c ~= nil and c.alive and c.host == nil and SM.combined(c) end

--- The special move uncombined Seal `c` is considered in (Gl: อยู่ในสภาพ), or nil: the move the
--- latest such Effect names (its place among the Seal's moves, SM 603.3).
function SM.considered_form(c)
  if c == nil or not c.alive or c.host ~= nil or #SM.supports(c) > 0 then return nil end
  return SM.considered_move(c)
end

--- SM.considered_form of a Seal known to be alive and not attached, with no Support Seal.
function SM.considered_move(c)
  local i = c.considered
  if i == nil or i <= 0 then return nil end
  return SM.moves(c)[i]
end

--- "This Seal is considered in <move>" (Gl: อยู่ในสภาพ <ท่ารวมร่าง>): while uncombined, Seal `seal`
--- counts as in that special move's form (its values, its kind of attack, Skills needing the form:
--- SM 508.5, 200.12.3, 604.6.1), for a duration (verbs.lua `lasts`). Not a normal combination.
--- Returns whether the Seal has that move.
function considered_in(ctx, seal, move, duration)
  if seal == nil or not seal.alive or not SM.in_field(seal) or seal.host ~= nil then return false end
  for i, m in ipairs(SM.moves(seal)) do
    if m.name == move then
      ctx:modify(seal, { char = "considered", op = "set", value = i }, lasts(ctx, duration))
      return true
    end
  end
  return false
end

--- Filters: in a normal combination (Gl: รวมร่างปกติ); in a form, combined or considered (by name).
F.normally_combined = filter("normally combined", function(c) return SM.normally_combined(c) end)
function F.in_form(name)
  return filter("in " .. name, function(c)
    local m = SM.form_of(c)
    return m ~= nil and m.name == name
  end)
end
