-- SM02-108 Inevitable Verdict
return card {
  -- (Cannot be cancelled: keyword `uncancellable`.) Destroy an opponent's Seal.
  spell { prompt = "opponent's Seal", target = function(ctx) return opponent_seals(ctx) end, destroys = true,
    operate = function(ctx, a) destroy(ctx, a.target) end },
}
