-- SM03-020 Briar Warden
return card {
  -- Skill (Mp 1): this Seal gets At+1 until the end of the Subturn.
  skill { name = "Thorn Burst", cost = 1,
    operate = function(ctx) give_at(ctx, this_seal(ctx), 1, "subturn") end },
}
