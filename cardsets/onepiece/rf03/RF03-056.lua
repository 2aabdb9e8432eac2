-- RF03-056 Sweep the Nameless
return card {
  -- [Main] K.O. up to 1 of your opponent's Characters with no base effect (OP 2-8-5, 8-2-2) and cost 4 or less.
  main_event { operate = function(ctx) ko(ctx, pick_opponent_character(ctx, F.no_base_effect * F.cost_max(4))) end },
}
