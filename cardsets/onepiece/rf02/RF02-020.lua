-- RF02-020 Quartermaster Rill
return card {
  -- [On Play] Return up to 1 Character with a cost of 3 or less to the owner's hand.
  on_play { operate = function(ctx) return_to_hand(ctx, pick_any_character(ctx, F.cost_max(3))) end },
}
