-- Deck construction: GD 6-1 (50 cards of Units, Pilots, Commands and Bases in 1 or 2
-- colors, at most 4 of a card number; 10 Resource cards, any number alike), with
-- card-defined exceptions (`deck_limit` in card YAML, GD 1-3-1).

GD = GD or {}

local MAIN = { unit = true, pilot = true, command = true, base = true }

--- One card's deck limits (hooks.card_legality): at most 4 of a card number in the deck
--- (GD 6-1-1-3) unless the card says otherwise (1-3-1: `deck_limit`); a token is never in a
--- deck (5-17-1, 6-1-2); Resource cards, any number alike (6-1-1-4).
function GD.card_legality(id)
  local info = card_info(id)
  if info.token then return { copies = 0, note = "GD 5-17-1, 6-1-2: a token is never in a deck" } end
  if info.category == "resource" then return { note = "GD 6-1-1-4: 10 Resource cards in the resource deck, any alike" } end
  if info.deck_limit then return { copies = info.deck_limit, note = "GD 1-3-1: the card's own limit" } end
  return { copies = 4, note = "GD 6-1-1-3" }
end

function GD.validate_deck(deck, options)
  local errors = {}
  local function count(section) return util.total(deck[section]) end
  for name in pairs(deck) do
    if name ~= "main" and name ~= "resource" then
      errors[#errors + 1] = "GD 6-1-1: a deck has the sections `main` and `resource`, not `" .. name .. "`"
    end
  end
  if count("main") ~= 50 then errors[#errors + 1] = "GD 6-1-1: the deck needs exactly 50 cards, found " .. count("main") end
  if count("resource") ~= 10 then
    errors[#errors + 1] = "GD 6-1-1: the resource deck needs exactly 10 cards, found " .. count("resource")
  end
  local ids, colors, ncolors = {}, {}, 0
  for id in pairs(deck.main or {}) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local n, info = deck.main[id], card_info(id)
    if info == nil then
      errors[#errors + 1] = "no card " .. id
    elseif info.token then
      errors[#errors + 1] = "GD 5-17-1, 6-1-2: " .. id .. " is a token, not a card of the deck"
    elseif not MAIN[info.category] then
      errors[#errors + 1] = "GD 6-1-1-1: " .. id .. " (" .. info.category .. ") cannot be in the deck"
    else
      local limit = GD.card_legality(id).copies
      if limit and n > limit then
        errors[#errors + 1] = "GD 6-1-1-3: at most " .. limit .. " copies of " .. id .. ", found " .. n
      end
      for _, c in ipairs(info.colors or {}) do
        if not colors[c] then colors[c] = true; ncolors = ncolors + 1 end
      end
    end
  end
  if ncolors > 2 then
    local list = {}
    for c in pairs(colors) do list[#list + 1] = c end
    table.sort(list)
    errors[#errors + 1] = "GD 6-1-1-2: a deck has 1 or 2 colors, found " .. ncolors .. " (" .. table.concat(list, ", ") .. ")"
  end
  for id in pairs(deck.resource or {}) do
    local info = card_info(id)
    if info == nil then
      errors[#errors + 1] = "no card " .. id
    elseif info.category ~= "resource" or info.token then
      errors[#errors + 1] = "GD 6-1-1-4: " .. id .. " is not a Resource card"
    end
  end
  return errors
end
