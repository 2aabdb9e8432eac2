-- RF02-050 Sunspire Beacon
return card {
  -- [Your Turn] If you have 2 or fewer Life cards, your {Sunspire Islanders} Characters gain +1000 power.
  permanent { your_turn = true, condition = function(ctx) return life_count(ctx) <= 2 end,
              affects = your_cards("character", F.type("Sunspire Islanders")), modify = { plus_power(1000) } },
}
