-- RF02-044 Sunward Herald Pema
return card {
  -- [On Play] If you have 3 or fewer Life cards, add the top card of your deck to the top of your Life face up.
  on_play { operate = function(ctx)
    if life_count(ctx) <= 3 then add_life_from_deck(ctx, up_to(1), "up") end
  end },
}
