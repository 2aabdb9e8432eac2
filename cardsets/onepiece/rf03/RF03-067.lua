-- RF03-067 Toll Gate
return card {
  -- Your opponent's [Activate: Main] abilities cost ① more (paid after their own, OP 8-3-1-2).
  added_cost { cost = Cost.don(1),
    to = function(ctx, ab) return ab.def.timing == "main" and not ab.def.event and ab.source.controller ~= ctx.player end },
}
