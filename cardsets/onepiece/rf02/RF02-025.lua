-- RF02-025 Tidewarden Lighthouse
return card {
  -- [Activate: Main] [Once Per Turn] ①, rest this Stage: If you have 4 or fewer cards in hand, draw 1 card.
  activate_main { once_per_turn = true, cost = Cost.all(Cost.don(1), Cost.rest_self()), operate = function(ctx)
    if hand_count(ctx) <= 4 then draw(ctx, 1) end
  end },
}
