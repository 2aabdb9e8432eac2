-- RF02-006 Vera Quickmatch
return card {
  -- [End of Your Turn] Trash this Character.
  end_of_your_turn { operate = function(ctx) OP.trash(ctx, ctx.source) end },
}
