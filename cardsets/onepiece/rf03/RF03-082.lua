-- RF03-082 Tide Reader Voss
return card {
  -- [On Play] Look at the top 3 cards of your deck and place them at the top or bottom of the deck in any order.
  on_play { operate = function(ctx) arrange_top(ctx, 3) end },
}
