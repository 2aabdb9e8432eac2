-- RF02-004 Gunwale Rix
return card {
  -- [On Play] Up to 1 of your opponent's cost 4 or less Characters cannot [Blocker] this turn.
  on_play { operate = function(ctx)
    grant(ctx, pick_opponent_character(ctx, F.cost_max(4)), "cannot_block", "turn")
  end },
}
