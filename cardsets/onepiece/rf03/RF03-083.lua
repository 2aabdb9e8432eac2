-- RF03-083 Pickpocket's Gambit
return card {
  -- [Main] Your opponent trashes 1 card from their hand (they choose it).
  main_event { operate = function(ctx) opponent_trashes_from_hand(ctx, 1) end },
}
