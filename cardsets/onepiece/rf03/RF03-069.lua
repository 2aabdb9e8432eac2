-- RF03-069 Toll Collector
return card {
  -- Your opponent's [Activate: Main] abilities also cost trashing 1 card from their hand (OP 8-3-1-2).
  added_cost { cost = Cost.trash_from_hand(1),
    to = function(ctx, ab) return ab.def.timing == "main" and not ab.def.event and ab.source.controller ~= ctx.player end },
}
