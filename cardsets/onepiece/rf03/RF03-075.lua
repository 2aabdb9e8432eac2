-- RF03-075 Ebb Tide Ledger
-- [Main] Place up to 3 cards from your trash at the bottom of your deck in any order.
return card {
  main_event { operate = function(ctx)
    to_deck_bottom(ctx, pick_in(ctx, "trash", F.any, { max = 3, prompt = "pick: to the bottom of your deck" }))
  end },
}
