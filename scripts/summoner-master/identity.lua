-- A card's printed components replaced by another card's: SM 620.2, 620.4 (a Reflection beside the
-- deck replaces all the components of its player's cards of its name, in every zone; 200.2.4: the
-- components follow the Reflection's Oracle Wording) and Gl: Wisdom 1-11 (a card with Wisdom names a
-- card of its scope before its normal cast from the hand and has that card's states until the end
-- of the game, in every zone).
--
-- Both are the kernel's definition redirect: the card takes its printed data (values, names,
-- keywords, special moves, boxes, Mystic kind and Turns...), its text (the script's abilities and
-- Skills) and its name in views and logs from the other card's definition. A Reflection by the
-- zone `reflection` declared in game.yaml's `stand_ins` (it lasts while the Reflection is beside
-- the deck: the whole game); a Wisdom by an uncancellable redirect that persists in every zone
-- (`ctx:take_definition`). `SM.printed` is where the ruleset reads printed components.

SM = SM or {}

--- Every zone a card of the game can be in (Gl: Wisdom 4: "in every zone").
SM.ALL_ZONES = { "seal_library", "mystic_library", "hand", "at_line", "df_line", "no_line", "arena", "casting",
  "seal_shrine", "mystic_shrine", "remove_zone" }

--- Card `c`'s printed component `field` as the rules read it (nil: it has none, Gl: คำ -): that of
--- the definition it takes now (a Reflection's, a named card's; see the file's head).
function SM.printed(c, field) return c:printed(field) end

-- Wisdom (Gl: Wisdom 1-11) ---------------------------------------------------------------------------

--- Whether printed card data `info` meets condition `need` (as SM.meets for a card object).
local function info_meets(info, need)
  if need.name then return info.name == need.name end
  if need.name_part then return string.find(string.lower(info.name), string.lower(need.name_part), 1, true) ~= nil end
  if need.series then return info.series == need.series end
  if need.group then return info.group == need.group end
  if need.race then return util.contains(info.races or {}, need.race) end
  if need.element then
    return util.contains(info.elements or {}, need.element) or util.contains(info.elements or {}, "multi")
  end
  if need.mystic_type then return info.mystic_type == need.mystic_type end
  return false
end

--- How many cards of player `p`'s deck are named `name` now (Gl: Wisdom 7): in every zone, under
--- the names the rules read (a card a Wisdom renamed counts as its new name), leaving out `but`.
local function copies(ctx, p, name, but)
  local n = 0
  for _, z in ipairs(SM.ALL_ZONES) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c ~= but and not c:printed("extra") and c:has("names", name) then n = n + 1 end
      for _, a in ipairs(c.attachments) do
        if a ~= but and a.owner == p and a:has("names", name) then n = n + 1 end
      end
    end
  end
  return n
end

--- Whether Wisdom card `c` of player `p` may name the card `info` (card_info of it) now (Gl: Wisdom
--- 3, 5-11): in its scope (its category and its card data `wisdom_scope`, every condition met), an
--- Interfere card when cast as an Interfere (`interfere`), not banned (6), not beyond its copy limit
--- in the deck (7, SM 101.4), one `p` has the Mp to cast (8), one that can be cast from the hand and
--- has something to be pasted on (9: not an Extra nor a Reflection), without Wisdom (10), without
--- the [fire-dove] symbol (11, card data `fire_dove`). Any text: the card takes it (B.32).
function SM.wisdom_may_name(ctx, c, info, p, interfere)
  if info == nil or info.id == c.card_id or info.category ~= c.category then return false end
  for _, need in ipairs(c:printed("wisdom_scope") or {}) do
    if not info_meets(info, need) then return false end
  end
  local kws = info.keywords or {}
  if interfere and not util.contains(kws, "interfere") then return false end -- 5
  if info.banned then return false end -- 6
  if copies(ctx, p, info.name, c) + 1 > SM.copy_limit(info) then return false end -- 7
  if not SM.can_pay(ctx, p, (info.mp and info.mp.cast) or 0, "cast") then return false end -- 8
  if info.extra or info.reflection then return false end -- 9: never cast from a hand
  if info.paste == "PS" or info.paste == "PM" then
    local any = false
    for q = 1, 2 do
      local pool = info.paste == "PS" and SM.seals(ctx, q) or SM.mystics(ctx, q)
      for _, h in ipairs(pool) do
        if not h:flag_on("being_cast") and not h:flag_on("entering") then any = true end
      end
    end
    if not any then return false end -- 9: it could target nothing
  end
  if util.contains(kws, "wisdom") then return false end -- 10
  return not info.fire_dove -- 11
end

--- The Wisdom cast options of card `c` in player `p`'s hand (Gl: Wisdom 1.1, 1.2: before a normal
--- cast from the hand; `interfere`: in an Interfere Step, 5): one per card it may name.
function SM.wisdom_options(ctx, c, p, interfere)
  local out = {}
  -- Gl: Wisdom 2, 3: every card of the world (the loaded content) of its category (docs/rulings B.33).
  for _, id in ipairs(card_ids({ category = c.category })) do
    local info = card_info(id)
    if SM.wisdom_may_name(ctx, c, info, p, interfere) then
      local cost = (info.mp and info.mp.cast) or 0
      out[#out + 1] = { label = "cast " .. c.label .. " as " .. info.label .. " (Mp " .. cost .. ")", kind = "wisdom",
        card = c, procedure = "cast", data = { card = c, player = p, from = "hand", kind = "cast", wisdom = id,
          interfere = interfere or nil } }
    end
  end
  return out
end

--- Whether card `c` is a Wisdom card that has named nothing yet (once named it has the named card's
--- keywords, never Wisdom: Gl: Wisdom 10).
function SM.wisdom_pending(c) return c:has("keywords", "wisdom") end

--- Gl: Wisdom 2, 4: card `c` has the states of the card `id` names from now on, until the end of
--- the game, in every zone: all its components and its text (a definition redirect that cannot
--- be cancelled and persists everywhere); the players see the name (event `named`; the card is
--- shown, Gl: Wisdom 2). Returns whether it did.
function SM.wisdom_name(ctx, c, id, p)
  local info = card_info(id)
  if info == nil or not c.alive then return false end
  ctx:with({ source = c, player = p }):take_definition(c, id, { persists_in = SM.ALL_ZONES, uncancellable = true })
  ctx:set_game_value("zone_work", 0) -- the card may now print a (Zone X Work Y): limits.lua looks again
  ctx:reveal(c)
  ctx:emit("named", { card = c, player = p, key = id, name = info.name })
  return true
end

--- "Wisdom" as the result of a Skill or Ability (Gl: Wisdom 1.3): card `c` of player `p` becomes the
--- card `id` (the same prohibitions; the scope is the Effect's, `opts.scope`, a list of conditions).
function wisdom(ctx, c, id, opts)
  opts = opts or {}
  local info = card_info(id)
  if c == nil or info == nil then return false end
  for _, need in ipairs(opts.scope or {}) do
    if not info_meets(info, need) then return false end
  end
  return SM.wisdom_name(ctx, c, id, ctx.player)
end
