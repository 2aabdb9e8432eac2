-- RF03-066 Shared Hardship
return card {
  -- [Counter] Each player trashes 1 card from their hand (the turn player chooses first, OP 1-3-4).
  counter_event { operate = function(ctx)
    local picks = each_player_chooses(ctx, function(pctx) return pick_in(pctx, "hand", F.any, { min = 1 }) end)
    for _, p in ipairs(ctx:turn_order()) do
      if picks[p] then OP.trash(ctx, picks[p]) end
    end
  end },
}
