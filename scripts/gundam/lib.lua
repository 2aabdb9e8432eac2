-- Gundam ruleset library: the game's nouns on top of the kernel's ctx. Rules sections 2-5
-- (card information, areas, terms), 12 (who is an opponent or an ally).

GD = GD or {}

-- Players ------------------------------------------------------------------------------------

--- The players against `p` still in the game, in turn order after `p` (GD 12-2-6: "opponent"
--- means every other player; 12-3: the other team).
function GD.opponents(ctx, p) return ctx:opponents(p or ctx.player) end

--- "Friendly" players: `p` and, in Team Battle, their teammate (GD 12-3-10).
function GD.allies(ctx, p) return ctx:allies(p or ctx.player) end

--- How the log names player `p` as what an attack is on: `P2`, or in Team Battle the team
--- (`team P2+P4`: an attack is on the opposing team, GD 12-3-12).
function GD.player_label(ctx, p)
  if ctx:option("mode") ~= "team" then return "P" .. p end
  return "team " .. table.concat(util.map(ctx:teams()[ctx:team(p)], function(x) return "P" .. x end), "+")
end

--- Whether it is `p`'s turn (their side's, in Team Battle: GD 12-3-1).
function GD.my_turn(ctx, p) return ctx:is_turn_of(p or ctx.player) end

-- Cards on the field -------------------------------------------------------------------------

--- A player's Units: the cards in their Battle Area (GD 3-2-1; a paired Pilot is under its
--- Unit, not in the list: 3-3-4).
function GD.units(ctx, p) return ctx:cards("battle_area", p or ctx.player) end

--- The Units of several players, in order.
function GD.units_of(ctx, players)
  local out = {}
  for _, q in ipairs(players) do
    for _, u in ipairs(ctx:cards("battle_area", q)) do out[#out + 1] = u end
  end
  return out
end

--- Every opposing Unit (GD 12-2-6).
function GD.enemy_units(ctx, p) return GD.units_of(ctx, GD.opponents(ctx, p)) end

--- Every friendly Unit, a teammate's included (GD 12-3-10).
function GD.friendly_units(ctx, p) return GD.units_of(ctx, GD.allies(ctx, p)) end

--- The Base of `p`'s Shield Area, or nil (GD 3-5-1; in Team Battle the team's: 12-3-7).
function GD.base(ctx, p) return ctx:cards("base_section", p or ctx.player)[1] end

--- The shields of `p`'s Shield Area, bottom to top (GD 4-6-4).
function GD.shields(ctx, p) return ctx:cards("shields", p or ctx.player) end

--- The top shield, or nil (GD 4-6-4-1: the one taken unless specified).
function GD.top_shield(ctx, p) return ctx:top("shields", p or ctx.player, 1)[1] end

--- The first card of `p`'s Shield Area (GD 13-1-2-2, 3-5-3): the Base if any, else the top
--- shield, else nil.
function GD.shield_area_front(ctx, p) return GD.base(ctx, p) or GD.top_shield(ctx, p) end

--- Whether `p`'s Shield Area holds no card at all (GD 1-2-2-1).
function GD.shield_area_empty(ctx, p)
  return ctx:count("base_section", p) == 0 and ctx:count("shields", p) == 0
end

-- Resources and levels (GD 2-9, 2-10) --------------------------------------------------------

local ACTIVE = { orientation = "active" }

--- A player's Lv.: their resources, active or rested, EX Resources included (GD 2-9-4).
function GD.level(ctx, p) return ctx:count("resource_area", p or ctx.player) end

--- Whether a card's token is an EX Resource (GD 5-17-3-2).
function GD.is_ex_resource(c) return c.token and c.category == "resource" end

--- The active resources of `p`, the EX Resources last.
function GD.active_resources(ctx, p)
  local plain, ex = {}, {}
  for _, r in ipairs(ctx:cards("resource_area", p or ctx.player, ACTIVE)) do
    if GD.is_ex_resource(r) then ex[#ex + 1] = r else plain[#plain + 1] = r end
  end
  for _, r in ipairs(ex) do plain[#plain + 1] = r end
  return plain
end

--- How many active resources `p` has.
function GD.active_resource_count(ctx, p) return ctx:count("resource_area", p or ctx.player, ACTIVE) end

--- Pays a cost of `n` (GD 2-10-1, 7-5-2-2 c): rests `n` active resources of `p`. An EX
--- Resource used so is removed from the game instead (5-17-3-2-3); it is used only when the
--- others do not cover the cost (docs/rulings: it counts toward Lv. while it stays, 2-9-4, and
--- any other resource is rested back in the next Active Step). False, and nothing paid, when
--- `p` has fewer than `n`.
function GD.pay(ctx, p, n)
  if n <= 0 then return true end
  local active = GD.active_resources(ctx, p)
  if #active < n then return false end
  local rest, spend = {}, {}
  for i = 1, n do
    if GD.is_ex_resource(active[i]) then spend[#spend + 1] = active[i] else rest[#rest + 1] = active[i] end
  end
  if #rest > 0 then ctx:set_orientation(rest, "rested", "cost") end
  if #spend > 0 then ctx:move(spend, "removal", { reason = "cost" }) end
  return true
end

-- Units, pilots and links (GD 3-2, 3-3, 3-4-6) -----------------------------------------------

--- The Pilot paired with Unit `u`, or nil (GD 3-3-4: at most one).
function GD.pilot(u) return u.attachments[1] end

--- Whether a card in hand can be paired as a Pilot: a Pilot card, or a Command with a
--- 【Pilot】 block (GD 3-4-6-2).
function GD.can_pilot(c)
  return c.category == "pilot" or (c.category == "command" and #c.pilot_names > 0)
end

--- Whether Pilot `p` meets Unit `u`'s link condition (GD 2-12, 3-2-6): it has one of the
--- names, or one of the traits, the condition lists ("/" is "or": 5-19).
function GD.meets_link(u, p)
  if p == nil then return false end
  for _, n in ipairs(u.link_pilots) do
    if p:has("names", n) then return true end
  end
  for _, t in ipairs(u.link_traits) do
    if p:has("traits", t) then return true end
  end
  return false
end

--- Whether `u` is a Link Unit now (GD 3-2-6-2): its paired Pilot meets its link condition.
function GD.is_link(u) return GD.meets_link(u, u.attachments[1]) end

--- The Unit an ability speaks of as "this unit": for a paired Pilot's text, its Unit (GD
--- 3-3-9-2); otherwise the card itself.
function GD.this_unit(ctx)
  local s = ctx.source
  return s.host or s
end

--- Whether `u` is damaged (GD 5-6-3).
function GD.damaged(c) return c:counter_value("damage") > 0 end

-- Battle state (GD 8) ------------------------------------------------------------------------

--- The battle going on now, or nil: `{attacker, target (the unit attacked now; nil when a
--- player is), attacked (the unit the attack was declared on), defender (the player attacked,
--- or the controller of the unit attacked), blocker}`, as the last step left it. A copy.
function GD.current_battle(ctx) return ctx:running("battle") end

--- Whether a unit is attacking now (GD 8-2).
function GD.is_attacking(c) return c:flag_on("attacking") end

-- Durations (GD 8-6-1, 7-6-6-1) ----------------------------------------------------------------

--- Passes the expiry point `point` ("this_battle", "this_turn"): for each player in turn
--- order, then for the game, so the effects end in that order. When no continuous effect
--- lasts until it, one pass for the game is all it takes (one operation instead of one per
--- player): an ability given for the duration (a prohibition of verbs' `forbid`; no card
--- gives one yet) still ends in it, though several players' would end in the order they
--- were given rather than player by player.
function GD.expire(ctx, point)
  for _, e in ipairs(ctx:effects()) do
    if e["until"] == point then
      for _, p in ipairs(ctx:turn_order()) do ctx:expire(point, p) end
      return ctx:expire(point)
    end
  end
  return ctx:expire(point)
end

-- Small things --------------------------------------------------------------------------------

--- nil, a card or a list of cards, as a list.
function GD.list(x)
  if x == nil then return {} end
  if type(x) == "userdata" then return { x } end
  return x
end
