-- SM02-006 Lantern Twin
return card {
  -- Skill (Mp 1): draw 1 card from your Mystic Library ([S] 1/Turn: every Lantern Twin of yours shares it).
  skill { name = "Kindled Insight", cost = 1, limit = { 1, "turn", shared = true },
    operate = function(ctx) draw(ctx, 1, "mystic_library") end },
}
