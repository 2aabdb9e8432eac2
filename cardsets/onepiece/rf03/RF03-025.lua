-- RF03-025 Dusk Herald
return card {
  -- [End of Your Turn] You may play up to 1 Character card with a cost of 2 or less from your hand.
  end_of_your_turn { operate = function(ctx)
    OP.play_card(ctx, pick_in(ctx, "hand", F.character * F.cost_max(2)), ctx.player)
  end },
}
