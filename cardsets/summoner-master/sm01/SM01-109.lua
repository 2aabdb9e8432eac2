-- SM01-109 Recall Tide
return card {
  -- Return a Seal to its owner's hand.
  spell { prompt = "Seal",
    target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) return_to_hand(ctx, a.target) end },
}
