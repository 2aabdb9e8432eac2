-- SM03-104 Rally Horn
return card {
  -- Free cast a Seal of Level 2 or less from your hand.
  spell { operate = function(ctx) free_cast(ctx, pick_in(ctx, "hand", F.seal * F.level_max(2))) end },
}
