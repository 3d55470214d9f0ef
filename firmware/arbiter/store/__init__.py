"""What lives on the flash, and in which format: settings, the game's journal,
rulesets arriving from a PC."""
