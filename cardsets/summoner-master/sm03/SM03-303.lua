-- SM03-303 Mimic Sprite
return card {
  -- Skill (Mp 1): a Seal gains Shade of <Dragon> until the end of the Subturn.
  skill { name = "Borrowed Scales", cost = 1,
    target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) gain_shade(ctx, a.target, { race = "Dragon" }, "subturn") end },
}
