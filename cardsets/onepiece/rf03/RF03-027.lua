-- RF03-027 Ouroboros Buoy
-- Two mandatory effects that start each other forever, with nobody deciding anything: an
-- infinite loop no player can stop (OP 11-1-1-1), to test the loop guard.
return card {
  -- When a card is placed in your trash from your deck, place it at the bottom of your deck.
  on_event { on = "moved", zones = { "stage" },
    when = function(ctx, ev) return Happened.deck_to_trash(ctx, ev, true) end,
    operate = function(ctx)
      ctx:move(ctx.event.card, "deck", { player = ctx.player, position = "bottom", reason = "effect" })
    end },
  -- When a card is placed at the bottom of your deck from your trash, place the bottom card of
  -- your deck in your trash.
  on_event { on = "moved", zones = { "stage" }, when = Happened.trash_to_your_deck,
    operate = trash_deck_bottom },
  -- [Activate: Main] Place the top card of your deck in your trash.
  activate_main { operate = function(ctx) trash_deck_top(ctx, 1) end },
}
