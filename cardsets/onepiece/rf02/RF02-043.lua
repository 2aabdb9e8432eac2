-- RF02-043 Dawnbell Keeper Ama
return card {
  -- At the start of your turn, if you have 2 or fewer Life cards, draw 1 card.
  start_of_your_turn { operate = function(ctx)
    if life_count(ctx) <= 2 then draw(ctx, 1) end
  end },
}
