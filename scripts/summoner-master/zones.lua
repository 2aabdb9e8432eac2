-- Cards changing zones: SM 701 (destruction), 702 (discard), 703 (falling to the Shrine), 704
-- (returning to the Library), 705 (to the hand), 706 (Removed), 707-708 (brought into the Arena
-- without a cast), with the batches of 603.6.2, the losing Seals of 713, the Shrine's and the
-- Library's order (300.5, 300.7, 301.4), Wake Up (Gl). Steal and Vanish (Gl) are steal.lua and vanish.lua.
--
-- A zone change by the rules or an effect is the kernel-run procedure `zone_change` (game.yaml).
-- Its record: `cards` (the cards that change zone together, 603.6.2), `to` ("shrine", "library",
-- "hand" or "remove"), `cause` ("destroy" or "discard": the cards are first destroyed or
-- discarded, 701, 702, then fall to the Shrine, docs/rulings A.22), `reason`, `player` (who does
-- it), `position` (a Library's "top" or "bottom": then no shuffle, 300.7), `moved` (the cards as
-- they arrived) and the slot lists. Bringing a card into the Arena is the procedure `enter`.

SM = SM or {}

--- The slot of "when this card goes to <zone>" for each destination.
local ARRIVAL_SLOT = { shrine = "falls", library = "to_library", hand = "to_hand", remove = "removed" }

--- Whether card `c` may be destroyed by an effect now (SM 701.1: not twice; 713.1: a battle's
--- loser only by its battle).
local function destroyable(c, reason)
  if not c.alive or c:flag_on("destroyed") then return false end
  if c:flag_on("loser") and reason ~= "battle" then return false end
  return true
end

--- An effect's zone change (no destruction nor discard) leaves out the cards it may not move:
--- a card being destroyed goes to the Shrine by its destruction only (SM 701.1, 701.7: docs/rulings
--- B.49); a battle's loser goes nowhere but by its battle (713.1, 713.2), unless the effect moves
--- a losing Seal as such (`losing`: 713.2's exception, B.48) to a zone other than the Shrine: it
--- loses the status as it leaves, and its battle goes on without it (713.3); a card a
--- prohibition keeps out of the hand or the Library stays (100.2).
function SM.zone_spare(ctx, d)
  local kept = {}
  for _, c in ipairs(d.cards) do
    if c:flag_on("destroyed") then
      -- SM 701.1: not moved by this effect
    elseif (d.to == "hand" or d.to == "library") and not SM.may_move(ctx:with({ player = d.player }), c, d.to) then
      -- SM 100.2: "this card cannot be returned to the hand / the Library" (prohibitions.lua)
    elseif c:flag_on("loser") then
      if d.losing and d.to ~= "shrine" then
        ctx:set_flag(c, "loser", false)
        kept[#kept + 1] = c
      end
    else
      kept[#kept + 1] = c
    end
  end
  d.cards = kept
  if #kept == 0 then return "stop" end
end

--- SM 701.1-701.5, 702.1-702.5: the cards are destroyed (discarded): "when destroyed" ("when
--- discarded") abilities work after this step, the cards still where they are.
function SM.zone_mark(ctx, d)
  if d.cause == nil then return SM.zone_spare(ctx, d) end
  local kept = {}
  for _, c in ipairs(d.cards) do
    if d.cause == "destroy" and destroyable(c, d.reason) then
      ctx:set_flag(c, "destroyed", true)
      kept[#kept + 1] = c
    elseif d.cause == "discard" and c.alive and c.zone == "hand" then
      ctx:set_flag(c, "discarded", true)
      kept[#kept + 1] = c
    end
  end
  d.cards = kept
  if #kept == 0 then return "stop" end
  for _, c in ipairs(kept) do
    if d.cause == "destroy" then
      ctx:emit("destroyed", { card = c, player = d.player, reason = d.reason or "effect" })
    else
      ctx:emit("discarded", { card = c, player = c.owner })
    end
  end
end

--- Whether the cards are not all copies of one card (then their order tells nothing).
local function mixed(cards)
  for _, c in ipairs(cards) do
    if c.card_id ~= cards[1].card_id then return true end
  end
  return false
end

--- Orders the cards of each owner going to the top of a Shrine together (SM 301.4, 703.2: their
--- owner puts them there one by one; the attack-Subturn player's first). Copies of one card are
--- not asked about.
local function shrine_order(ctx, cards)
  local out = {}
  for _, p in ipairs({ ctx.turn_player, SM.defender(ctx) }) do
    local left = util.filter(cards, function(c) return c.owner == p end)
    while #left > 1 and mixed(left) do
      local c = ctx:choose_cards(p, left, { prompt = "shrine_order" })
      out[#out + 1] = c
      left = util.filter(left, function(x) return x ~= c end)
    end
    for _, c in ipairs(left) do out[#out + 1] = c end
  end
  return out
end

--- SM 701.6-701.7, 702.6-702.7, 703.2, 704.2, 705.2, 706.2: the cards lose the destroyed
--- (discarded) status and go where they go, together; each counts as there from now; a
--- Mystic Card pasted on them falls to the Shrine (game.yaml `attachments`); they forget the
--- effects on them (a new object). A card returned to a Library is shuffled in (704.2, 300.7).
function SM.zone_put(ctx, d)
  local cards = util.filter(d.cards, function(c) return c.alive end)
  if #cards == 0 then return "stop" end
  local flag = d.cause == "destroy" and "destroyed" or (d.cause == "discard" and "discarded" or nil)
  if flag then
    ctx:together(function(ctx) SM.clear_flags(ctx, cards, { flag }) end)
  end
  d.from = util.map(cards, function(c) return c.zone end)
  local moved = {}
  local to = d.to or "shrine"
  local reason = d.reason or d.cause or to
  -- SM 603.6.2: the cards change zone together: the defeat check (SM 103.2, 103.4) waits for the
  -- last of them (the kernel checks after each card of a move: docs/kernel.md, the gap reported).
  -- (`batch` is raised in the group: the rule checks, which found nothing to do before it and
  -- read nothing else that changed, are not tested for it alone.)
  ctx:together(function(ctx)
    ctx:set_game_value("batch", ctx:game_value("batch") + 1)
    if to == "shrine" then
      for _, c in ipairs(shrine_order(ctx, cards)) do
        moved[#moved + 1] = ctx:move(c, SM.shrine_of(c), { player = c.owner, reason = reason })[1] or false
      end
    elseif to == "library" then
      for _, c in ipairs(cards) do
        moved[#moved + 1] = ctx:move(c, SM.library_of(c), { player = c.owner, reason = reason,
          position = d.position or "top" })[1] or false
      end
    elseif to == "hand" then
      for _, c in ipairs(cards) do
        moved[#moved + 1] = ctx:move(c, "hand", { player = c.owner, reason = reason })[1] or false
      end
    else
      for _, c in ipairs(cards) do
        moved[#moved + 1] = ctx:move(c, "remove_zone", { player = c.owner, reason = reason })[1] or false
      end
    end
  end)
  ctx:set_game_value("batch", ctx:game_value("batch") - 1)
  if to == "library" and d.position == nil then
    -- SM 704.2, 300.7: the Library is shuffled every time.
    local done = {}
    for _, c in ipairs(cards) do
      local key = c.owner .. SM.library_of(c)
      if not done[key] then
        done[key] = true
        ctx:shuffle(SM.library_of(c), c.owner)
      end
    end
  end
  d.moved = util.filter(moved, function(c) return c ~= false end)
end

--- SM 703.3-703.4 (704.3-704.4, 705.3-705.4, 706.3-706.4): "when this card goes to <there>" and
--- "when it leaves the Arena" abilities choose (601.1.5: a Shrine's Levels were counted first).
function SM.zone_choose(ctx, d)
  local moved = d.moved or {}
  local slot = ARRIVAL_SLOT[d.to or "shrine"]
  local arrived = util.filter(moved, function(c) return c.alive end)
  SM.slot_choose(ctx, d, slot, arrived)
  local left = {}
  for i, c in ipairs(moved) do
    if d.from and util.contains(SM.FIELD, d.from[i]) then left[#left + 1] = c end
  end
  SM.slot_choose(ctx, d, "leaves", left)
end

--- SM 703.6-703.7 (704.6-704.7, 705.6-705.7, 706.6-706.7): they are checked and work.
function SM.zone_check(ctx, d) return SM.slot_check(ctx, d, "choose") end

-- Verbs the rules and card text share ------------------------------------------------------------

--- Destroys cards (SM 701), together: they go to their owners' Shrines (701.7, 703).
--- opts: reason ("battle" or "effect"), player (who destroys them).
function SM.destroy_cards(ctx, cards, opts)
  local call = SM.destroying(ctx, cards, opts)
  if call then return ctx:procedure(call.procedure, call.data) end
end

--- The procedure call that destroys cards (nil when there are none): what a procedure step
--- returns to end with the destruction, so that the kernel runs it once the step's script is
--- over and its Interfere Step (703.5) is asked with no script waiting.
function SM.destroying(ctx, cards, opts)
  cards = SM.list(cards)
  if #cards == 0 then return nil end
  opts = opts or {}
  return { procedure = "zone_change", data = { cards = cards, cause = "destroy", to = "shrine",
    reason = opts.reason or "effect", player = opts.player or ctx.player, kind = "zone_change" } }
end

--- Discards cards from the hand (SM 702), together.
function SM.discard_cards(ctx, cards)
  cards = SM.list(cards)
  if #cards == 0 then return end
  return ctx:procedure("zone_change", { cards = cards, cause = "discard", to = "shrine", reason = "discard",
    player = ctx.player or ctx.turn_player, kind = "zone_change" })
end

--- Puts cards into a zone by an effect (SM 703 Shrine, 704 Library, 705 hand, 706 Remove):
--- `to` is "shrine", "library", "hand" or "remove". opts: reason, position (a Library's "top"
--- or "bottom", no shuffle), losing (the effect moves a Seal that lost its battle as such: SM
--- 713.2's exception).
function SM.change_zone(ctx, cards, to, opts)
  cards = SM.list(cards)
  if #cards == 0 then return end
  opts = opts or {}
  return ctx:procedure("zone_change", { cards = cards, to = to, reason = opts.reason, position = opts.position,
    losing = opts.losing, player = ctx.player, kind = "zone_change" })
end

-- Bringing a card into the Arena (SM 707, 708) ----------------------------------------------------

--- Brings card `c` into the Arena without a cast (SM 707.1: from any zone, no cast Mp), for
--- player `p`: a Seal to the Line its player chooses (708.1), a Mystic Card as it is pasted or
--- placed (708.2). opts: reason ("effect", "wake_up", "vanish"...), line (an effect naming a Line:
--- then it is not a Line assignment, 515.8). Returns the record.
function SM.bring_in(ctx, c, p, opts)
  opts = opts or {}
  return ctx:procedure("enter", { card = c, player = p or c.owner, reason = opts.reason or "effect",
    line = opts.line, line_ok = opts.line ~= nil, kind = "enter", as_effect = true })
end

--- SM 708.1.1-708.1.2, 708.2.1-708.2.4: the card is entering: in the Arena already (707.2), a Seal
--- Active.
function SM.enter_declare(ctx, d)
  local c = d.card
  if not c.alive or SM.in_field(c) then return "stop" end
  if SM.is_mystic(c) then
    local kind = SM.mystic_kind(c)
    if (kind == "PS" or kind == "PM") and #SM.paste_hosts(ctx, c) == 0 then return "stop" end -- SM 708.2.3
  end
  local n = ctx:move(c, "casting", { player = d.player, reason = d.reason })[1]
  if n == nil then return "stop" end
  d.card = n
  ctx:set_flag(n, "entering", true)
  if d.reason == "wake_up" then ctx:use(d.player, "wake_up") end -- Gl: Wake Up 3: one per Subturn (commands.lua)
end

--- SM 708.1.3: the Seal's Line (a window of its player).
function SM.enter_line_actions(ctx, p, d)
  if not SM.is_seal(d.card) or d.line_ok then return {} end
  return SM.line_place_options(ctx, d.card, p, "line")
end

--- SM 708.1.4-708.1.6, 708.2.2, 708.2.5-708.2.6: the abilities that will work choose (a PS or PM
--- Mystic Card what it is pasted on) and are checked at once (no Interfere Step).
function SM.enter_choose(ctx, d)
  local c = d.card
  if SM.is_mystic(c) then
    local kind = SM.mystic_kind(c)
    if kind == "PS" or kind == "PM" then
      local hosts = SM.paste_hosts(ctx, c)
      if #hosts == 0 then
        ctx:move(c, "mystic_shrine", { player = c.owner, reason = "no_target", by = false }) -- SM 708.2.6
        return "stop"
      end
      d.host = ctx:choose_cards(d.player, hosts, { prompt = "paste_target" })
    end
    SM.slot_choose(ctx, d, "effect", { c })
  end
  SM.slot_choose(ctx, d, "enters", { c })
  SM.slot_validate(ctx, d, nil)
end

--- SM 708.1.7-708.1.8, 708.2.7-708.2.8: the entry succeeds: the Seal goes to its Line, the Mystic
--- Card is pasted or placed; "enters the Arena" abilities work.
function SM.enter_success(ctx, d)
  local c, p = d.card, d.player
  ctx:set_flag(c, "entering", false)
  local placed
  if SM.is_seal(c) then
    if d.line == nil or not SM.may_enter_line(c, d.line) then
      placed = ctx:move(c, "no_line", { player = p, reason = d.reason })[1] -- SM 515.3: a Line at once
    else
      placed = SM.place_in_line(ctx, c, d.line, d.place, p, d.reason)
    end
    if placed ~= nil then ctx:set_value(p, "brought_seal", 1) end -- SM 103.5
  else
    local kind, turns = SM.mystic_kind(c), SM.mystic_turns(c)
    if kind == "PS" or kind == "PM" then
      placed = SM.paste(ctx, c, d.host, p) -- paste.lua (SM 708.2.8.1, 201.8.2.1)
    elseif kind == "PA" or turns ~= 0 then
      placed = ctx:move(c, "arena", { player = p, reason = d.reason })[1]
    else
      placed = c
    end
    if placed ~= nil and type(turns) == "number" and turns > 0 then ctx:add_counter(placed, "turns", 2 * turns, "enter") end
  end
  if placed == nil then return "stop" end
  d.card = placed
  ctx:emit("entered", { card = placed, player = p, reason = d.reason })
  SM.slot_check(ctx, d, nil)
  if SM.is_seal(placed) then SM.waiting_curses_take_effect(ctx, placed) end -- SM 707.4 (docs/rulings B.14)
  SM.fix_cancel(ctx) -- Gl: Cancel (protection.lua)
  if placed.alive and SM.is_mystic(placed) and placed.host ~= nil then
    ctx:emit("pasted", { card = placed, target = placed.host, player = p }) -- SM 708.2.8.3
  end
end

--- SM 708.1.9, 708.2.9: the end; a 0-Turn Mystic Card goes to the Shrine.
function SM.enter_end(ctx, d)
  SM.done_if_zero_turns(ctx, d.card)
  SM.clear_flags(ctx, { d.card }, { "entering" })
  -- SM 300.7: a card taken from a Library changed its position there (Wake Up).
  if d.shuffle ~= nil then ctx:shuffle(d.shuffle, d.player) end
end

-- Wake Up (Gl: Wake Up) ------------------------------------------------------------------------------

--- Player `p` searches their Libraries for the cards the options `actions(ctx, p, d)` lists offer
--- from there (Wake Up and Progress take a card "from the Library"): they look at those cards, so
--- the window's choice names them to them alone (a choice among cards its chooser cannot see is
--- blind). Taking one shuffles that Library (SM 300.7), which ends the look.
--- With no option at all, nothing was done: the window right after (the next step of the same
--- procedure, asking the same player) would list none either, so it is told (`d.none_found`) and
--- lists nothing without looking again (SM.wake_up_actions, SM.progress_actions).
function SM.search_libraries(ctx, d, actions)
  local p = ctx.turn_player
  local found = {}
  local options = actions(ctx, p, d)
  for _, o in ipairs(options) do
    if o.card and o.card.zone ~= "hand" then found[#found + 1] = o.card end
  end
  if #found > 0 then ctx:look(found, p) end
  d.none_found = #options == 0 or nil
end

--- The step before the Wake Up window (its options from a Library, looked at).
function SM.wake_up_search(ctx, d) SM.search_libraries(ctx, d, SM.wake_up_actions) end

--- The Wake Up window's options (main_step): entering their Main Step, player `p` may bring one
--- card with Wake Up from their Library or hand into the Arena for free (procedure `enter`); one per
--- Subturn (the window is asked once); not while a card of the same name of theirs is in the Arena.
function SM.wake_up_actions(ctx, p, d)
  local out = {}
  if d ~= nil and d.none_found then return out end -- the search before found none (SM.search_libraries)
  if ctx:uses(p, "wake_up") > 0 then return out end -- one per Subturn (a Wake Up <condition> too)
  local in_field = nil -- the names of the Arena's cards, once a card with Wake Up asks
  for _, z in ipairs({ "hand", "seal_library", "mystic_library" }) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c:keyword("wake_up") ~= nil then -- (as c:has("keywords", "wake_up"))
        if in_field == nil then
          in_field = {}
          for _, x in ipairs(SM.field_cards(ctx, p)) do in_field[x.name] = true end
        end
        if not in_field[c.name] then
          out[#out + 1] = { label = c.label, kind = "card", card = c, procedure = "enter",
            data = { card = c, player = p, reason = "wake_up", kind = "enter", as_effect = true,
              shuffle = z ~= "hand" and z or nil } }
        end
      end
    end
  end
  if #out > 0 then
    out[#out + 1] = { label = "no Wake Up", kind = "no", pass = true }
  end
  return out
end
