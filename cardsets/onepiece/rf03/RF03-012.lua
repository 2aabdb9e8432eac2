-- RF03-012 Ember Ghost
return card {
  -- [DON!! x1] [On K.O.] Draw 1 card: the condition is read on the field (OP 10-2-17-1).
  on_ko { don = 1, operate = function(ctx) draw(ctx, 1) end },
}
