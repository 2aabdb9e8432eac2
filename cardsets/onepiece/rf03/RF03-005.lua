-- RF03-005 Tally Clerk Anselm
return card {
  -- [Activate: Main] [Once Per Turn] DON!! -1, (1): Draw 1 card. Both parts are checked before
  -- activation (OP 8-3-1-3); with a single DON!! the first part makes the second unpayable
  -- (8-3-1-3-1), and the use still counts (10-2-13-5).
  activate_main { once_per_turn = true, cost = Cost.all(Cost.don_minus(1), Cost.don(1)),
    operate = function(ctx) draw(ctx, 1) end },
}
