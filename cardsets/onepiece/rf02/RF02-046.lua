-- RF02-046 Sunspire Shieldbearer
return card {
  -- When this Character is attacked, it gains +2000 power during this battle.
  when_attacked { operate = function(ctx) give_power(ctx, ctx.source, 2000, "battle") end },
}
