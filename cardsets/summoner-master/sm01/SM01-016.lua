-- SM01-016 Mist Oracle
return card {
  -- Interfere Hand Skill (Mp 1): your Seal gets Df+2 until the end of the Subturn; then discard
  -- this card (SM 619: declared by name, the card shown only after the Interfere Step).
  skill { name = "Veil of Mist", hand = true, interfere = true, cost = 1,
    target = function(ctx) return seals(ctx) end,
    operate = function(ctx, a)
      give_df(ctx, a.target, 2, "subturn")
      discard_this(ctx)
    end },
}
