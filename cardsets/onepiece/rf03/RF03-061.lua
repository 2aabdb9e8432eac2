-- RF03-061 Grudge Bosun
return card {
  -- [On K.O.] If this Character was K.O.'d by your opponent's effect, draw 1 card.
  on_ko { operate = function(ctx)
    if Happened.ko_by_opponent(ctx, ctx.event) then draw(ctx, 1) end
  end },
}
