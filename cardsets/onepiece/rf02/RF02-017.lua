-- RF02-017 Kelpwood Canopy
return card {
  -- [Opponent's Turn] Your {Kelpwood Crew} Characters gain +1000 power.
  permanent { opponent_turn = true, affects = your_cards("character", F.type("Kelpwood Crew")),
              modify = { plus_power(1000) } },
}
