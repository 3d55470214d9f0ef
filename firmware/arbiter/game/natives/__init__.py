"""Game rules written as firmware code, not data: a ruleset runs them by name with the
``native`` effect (``arbiter.game.NATIVE`` lists the names it may), where JSON forms
would cost a Pico too much. Only Tactics Joker's board of armies is here."""
