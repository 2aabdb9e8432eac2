-- RF02-038 Iron-Vow Brannoch
return card {
  -- [Once Per Turn] If this Character would be K.O.'d, you may trash 1 card from your hand instead.
  instead_of_ko { once_per_turn = true, cost = Cost.trash_from_hand(1) },
}
