-- RF03-019 Signal Flare
-- [Main] Draw 1 card.
local main = main_event { operate = function(ctx) draw(ctx, 1) end }
return card {
  main,
  -- [Trigger] Activate this card's [Main] effect (OP 10-2-3-1-1).
  trigger { operate = function(ctx) main.operate(ctx) end },
}
