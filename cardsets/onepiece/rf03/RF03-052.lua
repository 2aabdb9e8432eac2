-- RF03-052 Shrinking Charm
return card {
  -- [Main] The base power of up to 1 Character becomes 3000 during this turn (with several
  -- such effects the highest applies, OP 4-9-2-1).
  main_event { operate = function(ctx) set_base_power(ctx, pick_any_character(ctx), 3000, "turn") end },
}
