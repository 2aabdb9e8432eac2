-- RF02-011 Briarwall Sentry
return card {
  -- [On Block] Rest up to 1 of your opponent's Characters with a cost of 3 or less.
  on_block { operate = function(ctx) rest(ctx, pick_opponent_character(ctx, F.cost_max(3))) end },
}
