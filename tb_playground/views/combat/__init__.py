"""The combat pages: the GM's dashboard (``/gm``) and the players' table (``/table``).

Each page is a module an app builds (``gm_page``, ``table_page``); what both pages share sits
beside them: the session bound to a table (``combat_session``), the HTML drawn from a table's
view (``combat_render``), the actions of a turn (``action_panel``), the attack's steps
(``steps``) and the odds as the dice land (``dice_landing``), the chance to win
(``win_chart``), the fight's story (``fight_story``, ``replay_panel``, ``night_panel``), the
seats (``seat_session``, ``seat_list``) and the GM's "Add to the fight" (``add_combatant``).
The GM page's own parts: its key prompt (``gm_key_gate``), its list of tables
(``gm_table_chooser``), the table's drawing (``gm_board``), the fight's controls
(``gm_fight_controls``) and the GM tools (``gm_tools``). Importing this package imports none of
them: an app imports the page it builds.
"""
