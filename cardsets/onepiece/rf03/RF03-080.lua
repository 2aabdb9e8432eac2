-- RF03-080 Lantern Decoy Brin
return card {
  -- Your opponent may attack only this Character (a prohibition: OP 1-3-3).
  attack_only_this {},
}
