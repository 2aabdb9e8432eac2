-- RF03-031 Lifeline Buoy
return card {
  -- [Main] Draw 1 card.
  main_event { operate = function(ctx) draw(ctx, 1) end },
  -- [Trigger] Add up to 1 card from the top of your deck to the top of your Life cards.
  trigger { operate = function(ctx) add_life_from_deck(ctx, up_to(1)) end },
}
