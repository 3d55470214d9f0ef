"""``arbiter bench``: performance figures measured on the emulated device, each
beside the straightforward way of doing the same thing, and their budgets."""
