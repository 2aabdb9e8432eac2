-- RF02-029 Gale Auditor Fenn
return card {
  -- [Activate: Main] [Once Per Turn] DON!! -2: Play up to 1 cost 4 or less {Stormcaller Syndicate} Character card from your hand.
  activate_main { once_per_turn = true, cost = Cost.don_minus(2), operate = function(ctx)
    play_from(ctx, pick_in(ctx, "hand", F.character * F.type("Stormcaller Syndicate") * F.cost_max(4)))
  end },
}
