-- SM02-107 Drifting Sigil
return card {
  -- Interfere. Move a Mystic Card pasted on a Seal to another Seal it may be pasted on (Gl: Move Mystic Card).
  spell { prompt = "pasted Mystic Card", target = function(ctx) return movable_mystics(ctx) end,
    operate = function(ctx, a)
      move_mystic(ctx, a.target, choose_from(ctx, mystic_hosts(ctx, a.target), nil, { min = 1, prompt = "pick: Seal" }))
    end },
}
