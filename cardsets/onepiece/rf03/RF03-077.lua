-- RF03-077 Low Water Notice
-- The added condition, once this Event resolved (a one-shot effect's, OP 8-3-2-2).
local notice = added_condition { dormant = true,
  to = function(ctx, ab) return ab.def.timing == "main" and not ab.def.event and ab.source.controller ~= ctx.player end,
  requires = function(actx) return life_count(actx) >= 3 end }
return card {
  -- [Main] Until the end of your opponent's next turn, their [Activate: Main] effects need 3+ Life.
  main_event { operate = function(ctx) add_rules(ctx, notice, "opponents_next_turn") end },
  notice,
}
