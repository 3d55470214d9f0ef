"""Button scripts the emulated device plays: the demo, and the bench's menus."""

# Without a game: roll 3d10, hold Up to 10 dice of d20 and roll, a few fewer d12,
# then Settings (LED brightness down, saved) and the Log. Fits a 64 KB heap.
MENU_SCRIPT = (
    "down a wait=1200 right right up up a wait=1200 "
    "up:hold=1500 right right a wait=1500 left down:hold=700 a wait=1200 b "
    "down a down left left a wait=500 down a wait=800 down down b"
)

# A game of Juggernauts: the ruleset from flash, the dice commitment and each
# player's part of the dice (four arrows), a moment for the photo, both secret
# Commander picks behind "pass the device", the reveal, two phases (the Command
# roll), a card's effect (one more attack) declared by the phase's fast path (Right,
# A) and undone with a long B, then back to the main menu through the game menu (the
# game stays saved), then the menus above.
GAME_SCRIPT = (
    "wait=800 a down down a wait=600 a wait=1500 up up left right wait=700 "
    "down right down left wait=1500 a wait=800 a down down a wait=800 "
    "a down down down down a wait=1500 a wait=600 a wait=1200 a wait=1200 "
    "right wait=600 a wait=1200 b:long wait=1200 b wait=600 up up up wait=400 a wait=800 "
)
DEMO_SCRIPT = GAME_SCRIPT + MENU_SCRIPT
