-- RF03-033 Dawn Chorus Chapel
return card {
  -- At the start of your turn (OP 6-2-2: before your cards are set active, 6-2-4), if this
  -- Stage is rested, draw 1 card.
  start_of_your_turn { operate = function(ctx)
    if ctx.source.orientation == "rested" then draw(ctx, 1) end
  end },
}
