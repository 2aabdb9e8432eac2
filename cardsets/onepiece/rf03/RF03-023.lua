-- RF03-023 Decoy Barrel
return card {
  -- [On Block] Place this Character in the owner's trash: the attacked card has left, so the
  -- battle ends at the end of the Block Step (OP 7-1-2-3).
  on_block { operate = function(ctx) OP.trash(ctx, ctx.source, "effect") end },
}
