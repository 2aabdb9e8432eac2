-- RF03-020 Flare Buoy Keeper
return card {
  -- [Trigger] Play this card (then it does not go to the trash, OP 10-1-5-3 "unless specified").
  trigger { operate = function(ctx) OP.play_card(ctx, ctx.source, ctx.player) end },
}
