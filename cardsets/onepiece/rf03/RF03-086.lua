-- RF03-086 Call for the Cook
return card {
  -- [Main] Look for up to 1 [Kettle Mags] in your deck, reveal it and add it to your hand.
  -- Then, shuffle your deck.
  main_event { operate = function(ctx)
    add_to_hand(ctx, pick_in(ctx, "deck", F.named("Kettle Mags")))
    ctx:shuffle("deck", ctx.player)
  end },
}
