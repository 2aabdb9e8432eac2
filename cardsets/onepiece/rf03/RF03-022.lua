-- RF03-022 Skittish Cabin Boy
return card {
  -- [On Your Opponent's Attack] If this Character is being attacked, return it to the owner's
  -- hand (the battle then ends at the end of the Attack Step, OP 7-1-1-4).
  on_opponent_attack { operate = function(ctx)
    if ctx.event.target == ctx.source then return_to_hand(ctx, ctx.source) end
  end },
}
