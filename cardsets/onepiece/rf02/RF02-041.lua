-- RF02-041 Blackwater Ossuary
return card {
  -- [Your Turn] [Once Per Turn] When your opponent's Character is K.O.'d, draw 1 card.
  on_event { on = "moved", when = Happened.opponent_character_ko, your_turn = true, once_per_turn = true,
             operate = function(ctx) draw(ctx, 1) end },
}
