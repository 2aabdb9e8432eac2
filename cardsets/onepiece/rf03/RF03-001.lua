-- RF03-001 Harbormaster Ilse Varrow
return card {
  -- At the start of the game (OP 5-2-1-5-1), add up to 1 cost 1 Character card from your deck
  -- to your hand (revealed, OP 11-2-1; the ruleset shuffles the deck afterwards, 5-2-1-5-2).
  start_of_game { operate = function(ctx)
    add_to_hand(ctx, pick_in(ctx, "deck", F.character * F.cost_max(1)))
  end },
}
