-- SM90-101 Sundial Halt
return card {
  -- Interfere. End this Subturn (what is going on finishes; then the End of Subturn Step, without
  -- SM 103.5's loss: docs/rulings B.52).
  spell { operate = function(ctx) end_subturn(ctx) end },
}
