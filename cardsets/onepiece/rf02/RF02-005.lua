-- RF02-005 Cinderwake Jory
return card {
  -- [DON!! x2] [When Attacking] This Character cannot be blocked during this battle.
  when_attacking { don = 2, operate = function(ctx)
    grant(ctx, ctx.source, "unblockable", "battle")
  end },
}
