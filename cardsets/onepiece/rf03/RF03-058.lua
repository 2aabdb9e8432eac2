-- RF03-058 Ridgeback Corsair Amos
return card {
  -- [Your Turn] This Character gains +1000 power.
  permanent { your_turn = true, modify = { plus_power(1000) } },
  -- [When Attacking] This Character gains +2000 power during this turn.
  when_attacking { operate = function(ctx) give_power(ctx, ctx.source, 2000, "turn") end },
}
