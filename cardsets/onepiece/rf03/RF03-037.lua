-- RF03-037 Boarding Hook Vell
return card {
  -- [When Attacking] Draw 1 card.
  when_attacking { operate = function(ctx) draw(ctx, 1) end },
}
