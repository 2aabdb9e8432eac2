-- RF02-035 Gravedigger Senna
return card {
  -- [On Play] Play up to 1 cost 2 or less {Blackwater Guild} Character card from your trash rested.
  on_play { operate = function(ctx)
    play_from(ctx, pick_in(ctx, "trash", F.character * F.type("Blackwater Guild") * F.cost_max(2)), { rested = true })
  end },
}
