-- SM01-113 Mana Spring
return card {
  -- You gain 2 Mp.
  spell { operate = function(ctx) gain_mp(ctx, 2) end },
}
