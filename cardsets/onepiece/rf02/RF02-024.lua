-- RF02-024 Chart the Currents
-- [Main] Look at 5: add up to 1 Event card to your hand; the rest to the bottom.
local function chart(ctx) search_top(ctx, 5, F.event) end

return card {
  main_event { operate = chart },
  -- [Trigger] Activate this card's [Main] effect.
  trigger { operate = chart },
}
