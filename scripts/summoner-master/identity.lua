-- A card's printed components replaced by another card's: SM 620.2, 620.4 (a Reflection beside the
-- deck replaces the components of its player's cards of its name, in every zone; 200.2.4: the
-- components follow the Reflection's Oracle Wording) and Gl: Wisdom 1-11 (a card with Wisdom names a
-- card of its scope before its normal cast from the hand and has that card's states until the end
-- of the game, in every zone).
--
-- What the kernel lets a ruleset replace: characteristics (values, names, elements, races, set,
-- group, Mystic type, keywords), in the first layer (`reflection`, SM 603.3). A Reflection does it
-- with rule static abilities (reading the Reflection beside the deck); a Wisdom with Effects that
-- persist in every zone and cannot be cancelled. What it does not let a ruleset replace: the other
-- printed components (special moves, Growth and Progress Boxes, Mystic kind and Turns, exceptions,
-- Shade of) and the text (the script's abilities), which the kernel reads from the card's own
-- definition and no effect can point elsewhere (docs/rulings B.8, B.32; a gap reported:
-- /work/spec/gaps.md). `SM.printed` is where the ruleset reads printed components: the one place a
-- kernel mechanism for them would plug in.

SM = SM or {}

--- Every zone a card of the game can be in (Gl: Wisdom 4: "in every zone").
SM.ALL_ZONES = { "seal_library", "mystic_library", "hand", "at_line", "df_line", "no_line", "arena", "casting",
  "seal_shrine", "mystic_shrine", "remove_zone" }

--- Card `c`'s printed component `field` as the rules read it (nil: it has none, Gl: คำ -). Today the
--- card's own (see the file's head).
function SM.printed(c, field) return c:printed(field) end

--- The characteristics a Reflection or a Wisdom replaces, each with how to read it from printed
--- card data (a card's `printed`, or `card_info`).
local REPLACED = {
  at = function(i) return i.at end,
  df = function(i) return i.df end,
  sp = function(i) return i.sp end,
  level = function(i) return i.level end,
  cast_mp = function(i) return i.mp and i.mp.cast end,
  attack_mp = function(i) return i.mp and i.mp.attack end,
  names = function(i) return i.name and { i.name } end,
  elements = function(i) return i.elements end,
  races = function(i) return i.races end,
  series = function(i) return i.series and { i.series } end,
  groups = function(i) return i.group and { i.group } end,
  mystic_types = function(i) return i.mystic_type and { i.mystic_type } end,
  keywords = function(i) return i.keywords end,
}
local REPLACED_ORDER = { "at", "df", "sp", "level", "cast_mp", "attack_mp", "names", "elements", "races", "series",
  "groups", "mystic_types", "keywords" }

-- Reflection (SM 620) -------------------------------------------------------------------------------

--- The Reflection card's printed data for card `c`, as card_info gives it, or nil.
local function reflection_info(ctx, c)
  local r = SM.reflection_for(ctx, c)
  if r == nil then return nil end
  return card_info(r.card_id)
end

--- SM 620.2, 620.4: characteristic `char` of a card its player shows a Reflection of is the
--- Reflection's, in every zone (where the Reflection prints one).
local function reflected(char)
  local read = REPLACED[char]
  return {
    kind = "static",
    affects = function(ctx, c)
      local info = reflection_info(ctx, c)
      return info ~= nil and read(info) ~= nil
    end,
    modify = { { char = char, op = "set", layer = "reflection", value = function(ctx, c)
      return read(reflection_info(ctx, c))
    end } },
  }
end

-- Names are the Reflection's by definition (SM 200.2.4.2); a set, a group and a Mystic type are
-- the same card's (the Reflection is that card's Oracle entry) and left as printed.
for _, char in ipairs({ "at", "df", "sp", "level", "cast_mp", "attack_mp", "elements", "races", "keywords" }) do
  SM.RULES[#SM.RULES + 1] = reflected(char)
end

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
--- the [fire-dove] symbol (11, card data `fire_dove`).
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
  if info.fire_dove then return false end -- 11
  return SM.wisdom_can_become(c, info)
end

--- The printed components a card takes only through its definition (see the file's head).
local UNREPLACED = { "paste", "turns", "exceptions", "moves", "growth", "progress", "shade_of", "attack", "attacks",
  "as_support" }

--- A printed value as text, to compare two cards' components.
local function shape(v)
  if type(v) ~= "table" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local x = v[k]
    if x == nil then x = v[tonumber(k)] end
    out[#out + 1] = k .. "=" .. shape(x)
  end
  return "{" .. table.concat(out, ",") .. "}"
end

--- Whether card `c` can take every state of the card `info` describes (docs/rulings B.32): what the
--- kernel cannot replace must already be the same: its text (the named card has no script
--- abilities and no valued keyword), its components of UNREPLACED, and which of At, Df and Sp it
--- prints (Gl: คำ -).
function SM.wisdom_can_become(c, info)
  if (info.abilities or 0) > 0 then return false end
  for _, k in ipairs(info.keywords or {}) do
    if k == "charging" or k == "vanish" then return false end
  end
  for _, f in ipairs(UNREPLACED) do
    if shape(c:printed(f)) ~= shape(info[f]) then return false end
  end
  for _, f in ipairs({ "at", "df", "sp" }) do
    if (c:printed(f) == nil) ~= (info[f] == nil) then return false end
  end
  return true
end

--- The ids of the cards player `p` may know of in this game (docs/rulings B.33: until the kernel can
--- list the loaded content, the cards of the world a Wisdom may name are those of the game that `p`
--- has seen: their own, in every zone and beside the deck, and the opponent's public ones), in order.
local function known_ids(ctx, p)
  local seen, out = {}, {}
  local function add(c)
    if not seen[c.card_id] then
      seen[c.card_id] = true
      out[#out + 1] = c.card_id
    end
  end
  local mine = util.concat(SM.ALL_ZONES, { "extra", "reflection" })
  local theirs = { "at_line", "df_line", "no_line", "arena", "casting", "seal_shrine", "mystic_shrine", "remove_zone", "reflection" }
  for _, z in ipairs(mine) do
    for _, c in ipairs(ctx:cards(z, p)) do
      add(c)
      for _, a in ipairs(c.attachments) do add(a) end
    end
  end
  for _, z in ipairs(theirs) do
    for _, c in ipairs(ctx:cards(z, SM.other(p))) do
      add(c)
      for _, a in ipairs(c.attachments) do add(a) end
    end
  end
  table.sort(out)
  return out
end

--- The Wisdom cast options of card `c` in player `p`'s hand (Gl: Wisdom 1.1, 1.2: before a normal
--- cast from the hand; `interfere`: in an Interfere Step, 5): one per card it may name.
function SM.wisdom_options(ctx, c, p, interfere)
  local out = {}
  for _, id in ipairs(known_ids(ctx, p)) do
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
--- the game, in every zone: an uncancellable Effect per characteristic (layer `reflection`) that
--- persists everywhere; the players see the name (event `named`; the card is shown, Gl: Wisdom 2).
--- Returns whether it did.
function SM.wisdom_name(ctx, c, id, p)
  local info = card_info(id)
  if info == nil or not c.alive then return false end
  local wctx = ctx:with({ source = c, player = p })
  for _, char in ipairs(REPLACED_ORDER) do
    local v = REPLACED[char](info)
    if v ~= nil then
      wctx:modify(c, { char = char, op = "set", layer = "reflection", value = v },
        { persists_in = SM.ALL_ZONES, uncancellable = true })
    end
  end
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
