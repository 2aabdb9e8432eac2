-- SM03-003 Sly Magpie
return card {
  -- Skill (Mp 2): Steal a card at random from the opponent's hand.
  skill { name = "Snatch", cost = 2,
    condition = function(ctx) return hand_count(ctx, opponent(ctx)) > 0 end,
    operate = function(ctx) steal(ctx, random_from_hand(ctx)) end },
}
