-- RF02-030 Rainmaker Oswin
return card {
  -- [On K.O.] Add up to 1 DON!! card from your DON!! deck and rest it.
  on_ko { operate = function(ctx) add_don(ctx, up_to(1), "rested") end },
}
