-- RF03-008 Ebb Tide
return card {
  -- [Main] Return up to 1 Character to the owner's hand.
  main_event { operate = function(ctx) return_to_hand(ctx, pick_any_character(ctx)) end },
}
