-- RF03-048 Bulwark Gull
return card {
  -- When this Character is attacked, it gains +2000 power during this battle: checked at the
  -- start of the Counter Step against the card attacked then, a Blocker included (OP 7-1-3-1).
  when_attacked { operate = function(ctx) give_power(ctx, ctx.source, 2000, "battle") end },
}
