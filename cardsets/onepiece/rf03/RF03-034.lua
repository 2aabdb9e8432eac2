-- RF03-034 Morning Drill Yard
return card {
  -- At the start of your Main Phase (OP 6-5-1), up to 1 of your Characters gains +1000 power
  -- during this turn.
  on_event { on = "main_started", when = function(ctx, ev) return ev.player == ctx.player end,
    operate = function(ctx) give_power(ctx, pick_character(ctx), 1000, "turn") end },
}
