-- RF02-008 Scorching Broadside
-- [Main] K.O. up to 1 of your opponent's Characters with 4000 power or less.
local function broadside(ctx) ko(ctx, pick_opponent_character(ctx, F.power_max(4000))) end -- mutant: equivalent, every power, printed or given, is a multiple of 1000, so none is 4001

return card {
  main_event { operate = broadside },
  -- [Trigger] Activate this card's [Main] effect.
  trigger { operate = broadside },
}
