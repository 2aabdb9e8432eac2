-- Deck construction: SM 101.2 (the least Seal and Mystic Cards by level), 101.4 (copies of a card
-- by name: Seals by Level, Mystics), 102.2 and 105.3.2 (Extra and Reflection cards beside the
-- deck, never in a Library), 620.5 (a Reflection), 202.2.1 (Extras are not counted by 101.2).

SM = SM or {}

local SECTIONS = { seals = true, mystics = true, extras = true, reflections = true }

--- SM 101.4: the most copies of a card (by name) a deck may hold.
local function copy_limit(info)
  if info.category == "mystic" then return 2 end -- SM 101.4.4
  local lv = info.level or 0
  if lv <= 2 then return 4 end                   -- SM 101.4.1
  if lv <= 4 then return 3 end                   -- SM 101.4.2
  return 2                                       -- SM 101.4.3
end
SM.copy_limit = copy_limit -- Gl: Wisdom 7

--- One card's deck limits (hooks.card_legality): copies counted by name (SM 101.4); a
--- banned card only with its Reflection beside the deck (620.5); Extra and Reflection cards
--- lie beside the deck (102.2).
function SM.card_legality(id)
  local info = card_info(id)
  if info.extra or info.reflection then
    return { note = "SM 102.2: beside the deck, not in a Library" }
  end
  local out = { copies = copy_limit(info), by = "name", note = "SM 101.4" }
  if info.banned then
    out.banned = true
    out.note = "SM 620.5: banned; only with its Reflection beside the deck"
  end
  return out
end

function SM.validate_deck(deck, options)
  local errors = {}
  local level = SM.LEVELS[options.level or "summoner"]
  for name in pairs(deck) do
    if not SECTIONS[name] then
      errors[#errors + 1] = "SM 300.2: a deck has the sections `seals`, `mystics`, `extras` and `reflections`, not `" .. name .. "`"
    end
  end
  local by_name, limit_of = {}, {}
  local reflected = {}
  for id in pairs(deck.reflections or {}) do
    local info = card_info(id)
    if info ~= nil and info.reflection == true then reflected[info.name] = true end
  end
  local function check(section, want, what)
    local ids = {}
    for id in pairs(deck[section] or {}) do ids[#ids + 1] = id end
    table.sort(ids)
    for _, id in ipairs(ids) do
      local n, info = deck[section][id], card_info(id)
      if info == nil then
        errors[#errors + 1] = "no card " .. id
      elseif info.category ~= want or (info.extra == true) ~= (section == "extras")
          or (info.reflection == true) ~= (section == "reflections") then
        errors[#errors + 1] = "SM 300.2, 102.2: " .. id .. " cannot be in the " .. what
      elseif section == "seals" or section == "mystics" then
        by_name[info.name] = (by_name[info.name] or 0) + n
        limit_of[info.name] = copy_limit(info)
        -- SM 620.5: a banned card may be used only with its Reflection shown beside the deck.
        if info.banned and not reflected[info.name] then
          errors[#errors + 1] = "SM 620.5: " .. id .. " (" .. info.name .. ") is banned: only with its Reflection beside the deck"
        end
      end
    end
  end
  check("seals", "seal", "Seal Library")
  check("mystics", "mystic", "Mystic Library")
  for id in pairs(deck.extras or {}) do
    local info = card_info(id)
    if info == nil then errors[#errors + 1] = "no card " .. id
    elseif info.extra ~= true then errors[#errors + 1] = "SM 102.2, 621.1: " .. id .. " is not an Extra Card" end
  end
  for id in pairs(deck.reflections or {}) do
    local info = card_info(id)
    if info == nil then errors[#errors + 1] = "no card " .. id
    elseif info.reflection ~= true then errors[#errors + 1] = "SM 102.2, 620.1: " .. id .. " is not a Reflection card" end
  end
  local seals, mystics = util.total(deck.seals), util.total(deck.mystics)
  if seals < level.seals then
    errors[#errors + 1] = "SM 101.2: at this level a deck needs at least " .. level.seals .. " Seal Cards, found " .. seals
  end
  if mystics < level.mystics then
    errors[#errors + 1] = "SM 101.2: at this level a deck needs at least " .. level.mystics .. " Mystic Cards, found " .. mystics
  end
  local names = {}
  for name in pairs(by_name) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    if by_name[name] > limit_of[name] then
      errors[#errors + 1] = "SM 101.4: at most " .. limit_of[name] .. " copies of " .. name .. ", found " .. by_name[name]
    end
  end
  return errors
end
