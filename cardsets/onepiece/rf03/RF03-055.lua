-- RF03-055 Drillmaster Oakes of the Plain Banner
return card {
  -- Your Characters with no base effect (OP 2-8-5; negated ones are not, 8-2-2) gain +1000 power.
  permanent { affects = your_cards("character", F.no_base_effect), modify = { plus_power(1000) } },
}
