-- Randomness: Gl: Random (1: the opponent of the thing randomized does the random pick, unless an
-- Effect names someone else; 2: when the Effect does not say Seal or Mystic Card and both could be
-- picked, the randomizer first chooses which; 3: a pick is valid even when its result is known, as
-- long as the randomizer does not see the card), Gl: Fortune (a right-wrong pick at random among
-- the options a text states) and Gl: คำ - (a card picked at random that has "-" for the value the
-- Effect needs is picked again).
--
-- The blind pick is the kernel's seeded generator (`ctx:random`, docs/rulings B.2): the same seed
-- gives the same picks, so the same game and the same log. The randomizer is still asked what
-- the rules let them choose (the kind, Random 2), and the events name them.

SM = SM or {}

--- Gl: Random 1: who picks at random among cards of player `owner`: their opponent, unless `by`
--- names a player.
function SM.randomizer(owner, by) return by or SM.other(owner) end

--- Gl: Random: one card picked at random among `cards` (a card, a list, or nil), all of one player
--- (`opts.owner`, or the first card's owner). opts: `by` (who randomizes, Random 1), `kind`
--- ("seal" or "mystic": the Effect says which), `needs` (a printed value the Effect needs, "at",
--- "df" or "sp": a card with "-" there is not picked, Gl: คำ -). Returns the card, or nil when
--- there is none to pick.
function SM.random_card(ctx, cards, opts)
  opts = opts or {}
  local pool = util.filter(SM.list(cards), function(c) return c.alive end)
  if opts.needs ~= nil then
    -- Gl: คำ -: "if the target was random, randomize again": as a pick among the others.
    pool = util.filter(pool, function(c) return c:printed(opts.needs) ~= nil end)
  end
  if #pool == 0 then return nil end
  local by = SM.randomizer(opts.owner or pool[1].owner, opts.by)
  local kind = opts.kind
  if kind == nil then
    -- Gl: Random 2: both kinds could be picked: the randomizer chooses one first (a card's back
    -- shows its kind: the choice is among the kinds there are).
    local seals = #util.filter(pool, SM.is_seal)
    if seals > 0 and seals < #pool then
      kind = ctx:choose(by, {
        { label = "a Seal Card", kind = "seal" },
        { label = "a Mystic Card", kind = "mystic" },
      }, { prompt = "random_kind" }).kind
    end
  end
  if kind ~= nil then pool = util.filter(pool, function(c) return c.category == kind end) end
  if #pool == 0 then return nil end
  -- Gl: Random 3: one card left is still a random pick.
  local c = pool[ctx:random(#pool)]
  ctx:emit("randomized", { card = c, player = by, key = c.category })
  return c
end

--- Gl: Fortune: a right-wrong pick at random among `n` options of which `right` (default 1) are
--- right, for the ability of `ctx.source`; the opponent of its controller picks (Gl: Random 1).
--- Returns whether the pick is right, and the option picked (1 to n; the right ones are 1 to
--- `right`).
function SM.fortune(ctx, n, right)
  n = math.max(1, n or 2)
  right = math.min(n, right or 1)
  local k = ctx:random(n)
  local ok = k <= right
  ctx:emit("fortune", { card = ctx.source, player = SM.other(ctx.player), key = ok and "right" or "wrong",
    result = k .. "/" .. n })
  return ok, k
end

-- Verbs (docs/scripting-summoner-master.md) -----------------------------------------------------------

--- "Fortune N": a pick at random among N options, `right` of them right (default 1). Returns
--- whether it is right, and the option picked.
function fortune(ctx, n, right) return SM.fortune(ctx, n, right) end

--- "1 card at random from <pool>" (Gl: Random): opts.by, opts.kind, opts.needs as SM.random_card.
function random_card(ctx, pool, opts) return SM.random_card(ctx, pool, opts) end

--- "1 card at random from the opponent's hand" (Gl: Random: you pick, being its owner's opponent).
function random_from_hand(ctx, p, opts)
  p = p or SM.other(ctx.player)
  opts = opts or {}
  opts.owner = p
  return SM.random_card(ctx, ctx:cards("hand", p), opts)
end
