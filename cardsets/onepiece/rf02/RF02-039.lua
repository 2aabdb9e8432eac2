-- RF02-039 Blackwater Recruit
-- Under the rules of this game, any number in a deck: `deck_limit` in the YAML (OP 5-1-2-4).
return card {
  -- [On K.O.] Draw 1 card.
  on_ko { operate = function(ctx) draw(ctx, 1) end },
}
