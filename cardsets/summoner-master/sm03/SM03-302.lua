-- SM03-302 Briar Warden (Reflection): its text replaces the printed card's (SM 620.2).
return card {
  -- Skill (Mp 1): this Seal gets Df+2 until the end of the Subturn.
  skill { name = "Bark Shield", cost = 1,
    operate = function(ctx) give_df(ctx, this_seal(ctx), 2, "subturn") end },
}
