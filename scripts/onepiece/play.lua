-- Main Phase actions: OP 6-5 (play cards 6-5-3, activate effects 6-5-4, attach DON!! 6-5-5,
-- battle 6-5-6) and the 5-Character / 1-Stage limits (3-7-6-1, 3-8-5-1).

OP = OP or {}

local function event_ability(ctx, c, timing)
  for _, ab in ipairs(ctx:abilities({ card = c, timing = timing })) do return ab end
  return nil
end
OP.event_ability = event_ability

--- Puts Character or Stage card `c` into player `p`'s area: a "play" (OP 3-7-3, 3-8-3), active
--- unless `orientation` says otherwise (3-7-5, 3-8-4). With 5 Characters (or a Stage) already
--- there, the player first puts one of them into its owner's trash (OP 3-7-6-1, 3-8-5-1). That
--- trash is a rules-level process (OP 3-7-6-1-1): not a K.O. ([On K.O.] and "cannot be K.O.'d"
--- do not apply) and no effect applies to it (reason "rule": no replacement sees it). The
--- cost, if any, has been paid before (docs/rulings: reveal, pay, trash, play).
--- Returns the played card (nil if it could not move).
function OP.enter_field(ctx, c, p, orientation)
  local zone = c.category
  if zone == "character" and ctx:count("character", p) >= 5 then
    local out = ctx:choose_cards(p, ctx:cards("character", p), { prompt = "character_limit" }) -- OP 3-7-6-1
    ctx:move(out, "trash", { player = out.owner, reason = "rule" })
  elseif zone == "stage" and ctx:count("stage", p) >= 1 then
    local old = ctx:cards("stage", p)[1]
    ctx:move(old, "trash", { player = old.owner, reason = "rule" }) -- OP 3-8-5-1
  end
  return ctx:move(c, zone, { player = p, reason = "play", orientation = orientation or "active" })[1]
end

--- Plays a Character or Stage card by an effect (from hand, trash, deck, Life...): a play but
--- not a use (OP 4-7-1, docs/rulings "Play by an effect"): no cost, and "cannot use cards"
--- does not stop it. [On Play] triggers. Returns the played card.
function OP.play_card(ctx, c, p, orientation)
  if c == nil or (c.category ~= "character" and c.category ~= "stage") then return nil end
  return OP.enter_field(ctx, c, p or ctx.player, orientation)
end

--- Whether player `p` may use cards from hand (OP 4-7-2: "cannot use cards").
function OP.may_use_cards(ctx, p) return not ctx:has(p, "cannot_use_cards") end

--- Uses card `c` from hand (OP 4-7-1, 6-5-3): reveal it (2-7-2), pay its cost, then play it or,
--- for an Event, put it in the trash and resolve its effect there (2-7-3, 8-4-2).
function OP.use_card(ctx, c)
  local p = c.controller
  if not OP.may_use_cards(ctx, p) then return false end -- OP 4-7-2
  ctx:reveal(c) -- OP 2-7-2
  if not OP.pay_don(ctx, p, c.cost) then ctx:conceal(c) return false end -- OP 6-5-3-1
  if c.category == "event" then
    local ab = event_ability(ctx, c, "main")
    local used = OP.trash(ctx, c, "use") -- OP 2-7-3, 8-4-2: to the trash, then the effect
    ctx:emit("event_used", { card = used, player = p }) -- OP 8-5-4
    if ab and used then OP.activate(ctx:with({ source = used, player = p }), { source = used, def = ab.def, key = ab.key }, {}) end
    return true
  end
  return OP.enter_field(ctx, c, p) ~= nil
end

--- Whether `c` may attack now (OP 7-1-1-1: an active Leader or Character; 3-7-4, 6-5-6-1, 10-1-1).
function OP.can_attack(ctx, c)
  if c.orientation ~= "active" then return false end -- OP 7-1-1-1, 1-3-2-1
  if OP.first_turn_of(ctx, c.controller) then return false end -- OP 6-5-6-1: Rush does not lift it (docs/rulings)
  if c.zone == "character" and c.entered_turn == ctx.turn and not c:has("keywords", "rush") then return false end -- OP 3-7-4, 10-1-1-1
  return not c:has("keywords", "cannot_attack") -- OP 1-3-3
end

--- OP 6-5-3: plays a Character or Stage card chosen in the Main Phase (the `play` action the
--- kernel lists: game.yaml `actions`).
function OP.play_action(ctx, o) OP.use_card(ctx, o.card) end

--- OP 6-5-5-1: gives one active DON!! to the chosen Leader or Character (the `attach` action),
--- one at a time (6-5-5-3).
function OP.attach_action(ctx, o)
  local d = OP.active_don(ctx, o.card.controller)[1]
  if d then ctx:attach(d, o.card) end
end

--- OP 6-5-3, 10-2-3-1: whether Event card `c` may be used from hand now: it has a [Main] and
--- that ability's activation cost is payable (8-3-1-3). (The `play_event` action: its cost
--- in DON!! and "cannot use cards", 4-7-2, are checked by the kernel and `allowed`.)
function OP.event_playable(ctx, c)
  local ab = event_ability(ctx, c, "main")
  return ab ~= nil and OP.can_activate(ctx:with({ source = c, player = c.controller }), ab)
end

--- OP 6-5-4-1, 10-2-2-1: whether an [Activate: Main] ability may be activated now (the
--- `activate` action; never during a battle: only in the Main Phase).
function OP.may_activate_main(ctx, ab)
  return not ab.def.event and OP.can_activate(ctx:with({ source = ab.source }), ab)
end

function OP.activate_action(ctx, o) OP.activate(ctx:with({ source = o.card }), o.ability, {}) end
