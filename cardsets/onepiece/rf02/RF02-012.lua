-- RF02-012 Mossback Warden
return card {
  -- [End of Your Turn] Set up to 1 of your {Kelpwood Crew} Characters as active.
  end_of_your_turn { operate = function(ctx)
    set_active(ctx, pick_character(ctx, F.type("Kelpwood Crew")))
  end },
}
