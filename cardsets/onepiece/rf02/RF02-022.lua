-- RF02-022 Harbor Clerk Imogen
return card {
  -- [End of Your Opponent's Turn] If you have 3 or fewer cards in your hand, draw 1 card.
  end_of_opponent_turn { operate = function(ctx)
    if hand_count(ctx) <= 3 then draw(ctx, 1) end
  end },
}
