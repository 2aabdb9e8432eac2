-- RF03-017 Deep Haul
return card {
  -- [Main] Draw 2 cards (one at a time, OP 4-5-3). Then, trash 1 card from your hand.
  main_event { operate = function(ctx)
    draw(ctx, 2)
    trash_from_hand(ctx, 1)
  end },
}
