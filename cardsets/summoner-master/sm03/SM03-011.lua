-- SM03-011 Relentless Wolf
return card {
  -- When this Seal's attack succeeds, it may attack once more this Subturn without paying attack Mp, even if Inactive.
  on_attack_success { operate = function(ctx) attack_once_more(ctx, this_seal(ctx), { free = true }) end },
}
