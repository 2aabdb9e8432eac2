-- SM02-008 Clockwork Sentry
return card {
  -- Skill (Fixed Mp 2): this Seal gets Df+2 until the end of the Subturn (Gl: Fixed Mp: no effect changes the 2).
  skill { name = "Wind the Spring", fixed_mp = 2,
    operate = function(ctx) give_df(ctx, this_seal(ctx), 2, "subturn") end },
}
