-- RF03-076 Harbor Levy Writ
-- The ① more, once this Event resolved (a one-shot effect's added cost, OP 8-3-1-2).
local levy = added_cost { dormant = true, cost = Cost.don(1),
  to = function(ctx, ab) return ab.def.timing == "main" and not ab.def.event and ab.source.controller ~= ctx.player end }
return card {
  -- [Main] Until the end of your opponent's next turn, their [Activate: Main] effects cost ① more.
  main_event { operate = function(ctx) add_rules(ctx, levy, "opponents_next_turn") end },
  levy,
}
