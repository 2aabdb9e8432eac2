-- RF02-016 Tangleroot Snare
return card {
  -- [Main] Up to 1 of your opponent's cost 5 or less Characters cannot attack until the end of your opponent's next turn.
  main_event { operate = function(ctx)
    grant(ctx, pick_opponent_character(ctx, F.cost_max(5)), "cannot_attack", "opponents_next_turn")
  end },
  -- [Trigger] Rest up to 1 of your opponent's Characters with a cost of 4 or less.
  trigger { operate = function(ctx) rest(ctx, pick_opponent_character(ctx, F.cost_max(4))) end },
}
