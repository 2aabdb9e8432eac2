-- SM01-020 Ashfeather Chick
return card {
  -- When this Seal goes to the Shrine, you gain Mp 1 (SM 703.7: it works from the Shrine).
  when_falls { operate = function(ctx) gain_mp(ctx, 1) end },
}
