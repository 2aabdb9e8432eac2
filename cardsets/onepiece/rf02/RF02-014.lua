-- RF02-014 Gnarlbark Colossus
return card {
  -- [Opponent's Turn] [Once Per Turn] If this would be K.O.'d, you may rest 2 active DON!! instead.
  instead_of_ko { opponent_turn = true, once_per_turn = true, cost = Cost.don(2) },
}
