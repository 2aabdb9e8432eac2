-- Deck construction: OP 5-1-2 (1 Leader, 50 cards, 10 DON!!, ≤4 per card number, the
-- Leader's colour), with card-defined exceptions (5-1-2-4: `deck_limit` in card YAML).

OP = OP or {}

--- One card's deck limits (hooks.card_legality): the most copies of a card number in the
--- deck, 4 (OP 5-1-2-3) unless the card says otherwise (5-1-2-4: `deck_limit`).
function OP.card_legality(id)
  local info = card_info(id)
  if info.category == "leader" then return { copies = 1, note = "OP 5-1-2: the deck's one Leader" } end
  if info.category == "don" then return { note = "OP 5-1-2: 10 DON!! cards in the DON!! deck" } end
  if info.deck_limit then return { copies = info.deck_limit, note = "OP 5-1-2-4: the card's own limit" } end
  return { copies = 4, note = "OP 5-1-2-3" }
end

function OP.validate_deck(deck)
  local errors = {}
  local function count(section) return util.total(deck[section]) end
  if count("leader") ~= 1 then errors[#errors + 1] = "OP 5-1-2: a deck needs exactly 1 Leader, found " .. count("leader") end
  if count("main") ~= 50 then errors[#errors + 1] = "OP 5-1-2: the deck needs exactly 50 cards, found " .. count("main") end
  if count("don") ~= 10 then errors[#errors + 1] = "OP 5-1-2: the DON!! deck needs exactly 10 DON!!, found " .. count("don") end
  local leader = nil
  for id in pairs(deck.leader or {}) do leader = id end
  local linfo = leader and card_info(leader)
  if linfo and linfo.category ~= "leader" then errors[#errors + 1] = leader .. " is not a Leader" end
  local ids = {}
  for id in pairs(deck.main or {}) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local n = deck.main[id]
    local info = card_info(id)
    if info == nil then
      errors[#errors + 1] = "no card " .. id
    else
      if info.category ~= "character" and info.category ~= "event" and info.category ~= "stage" then
        errors[#errors + 1] = "OP 5-1-2-1: " .. id .. " (" .. info.category .. ") cannot be in the deck"
      end
      local limit = OP.card_legality(id).copies
      if limit and n > limit then
        errors[#errors + 1] = "OP 5-1-2-3: at most " .. limit .. " copies of " .. id .. ", found " .. n
      end
      if linfo and not OP.shares_color(info.colors or {}, linfo.colors or {}) then
        errors[#errors + 1] = "OP 5-1-2-2: " .. id .. " does not share a colour with the Leader"
      end
    end
  end
  for id in pairs(deck.don or {}) do
    local info = card_info(id)
    if info == nil or info.category ~= "don" then errors[#errors + 1] = "OP 5-1-2: " .. id .. " is not a DON!! card" end
  end
  return errors
end
