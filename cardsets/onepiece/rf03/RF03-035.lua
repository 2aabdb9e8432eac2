-- RF03-035 Harbor Brawler Jory
return card {
  -- [DON!! x1] [Your Turn] This Character gains +2000 power.
  permanent { don = 1, your_turn = true, modify = { plus_power(2000) } },
  -- [Opponent's Turn] This Character gains +1000 power.
  permanent { opponent_turn = true, modify = { plus_power(1000) } },
}
