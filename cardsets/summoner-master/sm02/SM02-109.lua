-- SM02-109 Silence Chime
return card {
  -- Interfere. A Seal loses its text until the end of the Subturn (not an unlosable one, nor a Hyper Drive card's).
  spell { prompt = "Seal", target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) lose_text(ctx, a.target, "subturn") end },
}
