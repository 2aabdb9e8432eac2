-- SM02-013 Mirror Tortoise
return card {
  -- Skill (Mp 1): swap this Seal's At and Df until the end of the Subturn (Gl: สลับค่าพลัง).
  skill { name = "Mirrored Shell", cost = 1,
    operate = function(ctx) swap_powers(ctx, this_seal(ctx), "at", "df", "subturn") end },
  -- Skill (Mp 1): swap this Seal's Df and Sp until the end of the Subturn.
  skill { name = "Tidal Turn", cost = 1,
    operate = function(ctx) swap_powers(ctx, this_seal(ctx), "df", "sp", "subturn") end },
}
