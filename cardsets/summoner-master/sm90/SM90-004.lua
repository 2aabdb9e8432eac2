-- SM90-004 Vengeful Cinder
return card {
  -- When this Seal is destroyed, destroy a Seal (not one being destroyed: SM 701.1).
  when_destroyed { operate = function(ctx)
    destroy(ctx, choose_from(ctx, all_seals(ctx), F.seal, { destroys = true }))
  end },
}
