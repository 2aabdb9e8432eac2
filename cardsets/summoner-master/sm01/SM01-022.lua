-- SM01-022 Lantern Wisp
return card {
  -- When this Seal is destroyed, draw 1 card from your Mystic Library (SM 701.5: before it goes
  -- to the Shrine).
  when_destroyed { operate = function(ctx) draw(ctx, 1, "mystic_library") end },
}
