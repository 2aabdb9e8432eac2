-- GX01-042 Last Light Sortie
return card {
  -- 【Main】 Draw 1.
  -- (【Pilot】[Rell Okonkwo]: the card's pilot block, game data.)
  command { main = true, operate = function(ctx) draw(ctx, 1) end },
}
