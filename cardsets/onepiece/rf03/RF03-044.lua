-- RF03-044 Dusk Watch Petra
return card {
  -- [End of Your Turn] If this Character has 6000 power or more, draw 1 card. It resolves before
  -- "during this turn" effects end (OP 6-6-1-1, 6-6-1-3).
  end_of_your_turn { operate = function(ctx)
    if ctx.source.power >= 6000 then draw(ctx, 1) end
  end },
}
