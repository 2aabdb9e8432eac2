-- SM03-009 Tide Dancer
return card {
  -- Skill (Mp 2): this Seal is considered in Tidal Waltz for 1 Turn.
  skill { name = "Lone Waltz", cost = 2,
    condition = function(ctx) return not SM.combined(this_seal(ctx)) end,
    operate = function(ctx) considered_in(ctx, this_seal(ctx), "Tidal Waltz", { turns = 1 }) end },
  -- While this Seal is in a normal combination, it has Weak Touch.
  continuous { condition = function(ctx) return SM.normally_combined(this_seal(ctx)) end, modify = { gains("weak_touch") } },
}
