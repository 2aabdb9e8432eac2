-- RF03-079 Scrap Exchange
return card {
  -- [Activate: Main] [Once Per Turn] Trash 1 Event and 1 cost 2 or less card from your hand: Draw 3.
  -- One card cannot pay both parts (OP 8-3-1-3: the whole cost, each card once).
  activate_main { once_per_turn = true,
    cost = Cost.all(Cost.trash_from_hand(1, F.event), Cost.trash_from_hand(1, F.cost_max(2))),
    operate = function(ctx) draw(ctx, 3) end },
}
