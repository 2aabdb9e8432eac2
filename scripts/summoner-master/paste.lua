-- Pasting: SM 201.8.2.1 (a PS Mystic Card: when the Effect it made on its Seal is destroyed or
-- cancelled it falls off to the Shrine at once), 201.8.2.3 (a PM Mystic Card likewise, also when
-- its Effect disappears from the host), 610.2.12.1, 708.2.8.1 and 617 (where a PS or PM Mystic Card
-- is pasted: a cast, an entry, a Progress: docs/rulings A.20), and the cancelling of a cast.
--
-- The Effect a pasted card made on its host is a marker Effect tagged `paste` (characteristic
-- `pastes`) whose source is the Mystic Card, made once the card is attached; the card then carries
-- the flag `paste_held`. A card whose marker is gone (ended by `cancel_mystic`, or by any
-- `ctx:end_effect` of a `paste` Effect) falls to the Shrine (the pastes' part of the `board` check, board.lua).

SM = SM or {}

--- Pastes Mystic Card `m` (PS or PM) on `host` for player `p` (SM 610.2.12.1, 708.2.8.1, 617.2.8):
--- it is attached, then its Effect on the host is made (its source: the card as pasted) and it is
--- held by it. Returns the pasted card (nil if it could not be).
function SM.paste(ctx, m, host, p)
  if m == nil or not m.alive or host == nil or not host.alive then return nil end
  local n = ctx:attach(m, host, { reason = "paste" })
  if n == nil or not n.alive or n.host == nil then return n end
  ctx:with({ source = n, player = p }):modify(n.host, { char = "pastes", op = "add", value = 1 }, { tag = "paste" })
  ctx:set_flag(n, "paste_held", true)
  return n
end

--- The pasted Mystic Cards whose Effect on their host is gone (SM 201.8.2.1, 201.8.2.3).
local function unheld(ctx)
  local out = {}
  local function walk(c)
    for _, a in ipairs(c.attachments) do
      if a.category == "mystic" and a:flag_on("paste_held") and #ctx:effects({ source = a, tag = "paste" }) == 0 then
        out[#out + 1] = a
      end
      walk(a)
    end
  end
  for p = 1, 2 do
    for _, z in ipairs(SM.FIELD) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if #c.attachments > 0 then walk(c) end
      end
    end
  end
  return out
end

--- The pastes' test (a part of the `board` check, board.lua).
function SM.pastes_due(ctx) return #unheld(ctx) > 0 end

--- SM 201.8.2.1, 201.8.2.3: such a card falls off to the Shrine at once.
function SM.fix_pastes(ctx)
  for _, m in ipairs(unheld(ctx)) do
    ctx:move(m, "mystic_shrine", { player = m.owner, reason = "cancelled", by = false })
  end
end

--- Cancels Mystic Card `m`'s Effect (SM 201.8.2.1, 201.8.2.3): a pasted PS or PM card's Effect on its
--- host ends, so the card falls to the Shrine; a card being cast has its cast cancelled: after the
--- cast's Interfere Step it goes to the Shrine instead of succeeding (610.2.10). Returns whether
--- there was something to cancel.
function SM.cancel_mystic(ctx, m)
  if m == nil or not m.alive or not SM.is_mystic(m) then return false end
  if m:flag_on("being_cast") then
    ctx:set_flag(m, "cancelled", true)
    return true
  end
  local any = false
  for _, e in ipairs(ctx:effects({ source = m, tag = "paste" })) do
    if ctx:end_effect(e.handle) then any = true end
  end
  return any
end

--- "Cancel <Mystic Card>'s Effect": a pasted PS or PM card falls to the Shrine; a card being cast is
--- cancelled (SM 201.8.2.1).
function cancel_mystic(ctx, m) return SM.cancel_mystic(ctx, m) end

--- For a `target` function: Mystic Cards whose Effect can be cancelled: pasted (PS, PM) or being
--- cast.
function cancellable_mystics(ctx)
  local out = {}
  for p = 1, 2 do
    for _, m in ipairs(SM.mystics(ctx, p)) do
      if m.host ~= nil and m:flag_on("paste_held") then out[#out + 1] = m end
    end
    for _, m in ipairs(ctx:cards("casting", p)) do
      if SM.is_mystic(m) and m:flag_on("being_cast") and not m:flag_on("cancelled") then out[#out + 1] = m end
    end
  end
  return out
end

-- A progressing Mystic Card (SM 617.2.8, docs/rulings A.20) --------------------------------------------

--- SM 617.2.8-617.2.11: a progressing Mystic Card comes into the Arena: a PS or PM card is pasted on
--- what its player chooses (as 708.2.5; with nothing to paste on it goes to the Shrine, 708.2.6),
--- with its Turns (201.9.2.2); "when pasted" abilities work after its "enters" ones. Returns the card
--- in the Arena, or nil.
function SM.progress_mystic(ctx, c, p)
  local kind, turns = SM.mystic_kind(c), SM.mystic_turns(c)
  local n
  if kind == "PS" or kind == "PM" then
    local hosts = SM.paste_hosts(ctx, c)
    if #hosts == 0 then
      ctx:move(c, "mystic_shrine", { player = c.owner, reason = "no_target", by = false })
      return nil
    end
    local host = ctx:choose_cards(p, hosts, { prompt = "paste_target" })
    n = SM.paste(ctx, c, host, p)
  else
    n = ctx:move(c, "arena", { player = p, reason = "progress" })[1]
  end
  if n ~= nil and type(turns) == "number" and turns > 0 then ctx:add_counter(n, "turns", 2 * turns, "progress") end
  return n
end
