-- SM01-013 Gloom Witch
return card {
  -- Skill (Mp 2): put a Poison Curse for 1 Turn on an opponent's Seal.
  skill { name = "Nightshade", cost = 2,
    target = function(ctx) return curse_targets(ctx, "poison", opponent_seals(ctx)) end,
    operate = function(ctx, a) curse(ctx, a.target, "poison", { turns = 1 }) end },
}
