-- RF03-018 Careful Haul
return card {
  -- [Main] Draw up to 2 cards: the player may stop before each draw (OP 4-5-4).
  main_event { operate = function(ctx) OP.draw_up_to(ctx, ctx.player, 2) end },
}
