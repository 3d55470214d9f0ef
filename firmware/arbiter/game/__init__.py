"""The generic referee: rulesets as data, an event-sourced engine, the journal.

A ruleset (JSON) describes a game in blocks: players, options, dice, counters,
pieces, secrets, phases, turn order, triggers, end conditions and actions.
Nothing in it is executed as code: expressions and effects are small JSON
forms that ``expr`` and ``effects`` interpret.
"""

FORMAT = 1  # the ruleset format this firmware understands
