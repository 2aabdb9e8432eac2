-- RF02-048 Sunspire Bulwark
return card {
  -- [Opponent's Turn] If you have 2 or fewer Life cards, this Character cannot be K.O.'d.
  permanent { opponent_turn = true, condition = function(ctx) return life_count(ctx) <= 2 end,
              modify = { gains("cannot_be_ko") } },
}
