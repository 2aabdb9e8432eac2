-- SM01-014 Siren of Mirrors
return card {
  -- Skill (Mp 3): put a Charm Curse for 1 Turn on an opponent's Seal of Level 2 or less.
  skill { name = "Mirror Song", cost = 3,
    target = function(ctx) return curse_targets(ctx, "charm", those(opponent_seals(ctx), F.level_max(2))) end,
    operate = function(ctx, a) curse(ctx, a.target, "charm", { turns = 1 }) end },
}
