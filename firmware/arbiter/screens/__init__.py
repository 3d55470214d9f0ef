"""Screens: what the device shows and how its buttons drive it. The one layer that
uses both the game and the drawing kit (``arbiter.ui``)."""

# Loaded when first opened and let go (app._let_go) once no screen of theirs is on
# the stack: a game in play does not carry the setup's, the menus' or the forms' code
# in a Pico's heap, nor the dice roller's and settings' code. Modules that stay import
# them only inside functions (a test holds it), so letting them go frees them.
LET_GO = ("setup", "game_menu", "forms", "confirm", "grids", "grid", "piece_grid", "board_page",
          "army_board", "pages", "usb", "fast", "pieces", "dice", "settings", "tool_forms")
