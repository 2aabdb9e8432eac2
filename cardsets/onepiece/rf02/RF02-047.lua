-- RF02-047 High Lantern Verity
return card {
  -- [On K.O.] Add up to 1 card from the top of your deck to the top of your Life cards.
  on_ko { operate = function(ctx) add_life_from_deck(ctx, up_to(1), "down") end },
}
