-- SM02-014 Starfall Sprite
return card {
  -- Twinkling Interfere Skill (Mp 0): a Seal of yours gets Df+3 until the end of the Subturn (Gl:
  -- Twinkling: a Skill of the hand; the card is Removed or discarded as its cost).
  skill { name = "Falling Star", hand = true, twinkling = true, interfere = true,
    target = function(ctx) return seals(ctx) end,
    operate = function(ctx, a) give_df(ctx, a.target, 3, "subturn") end },
}
