"""Screens: what the device shows and how its buttons drive it. The one layer that
uses both the game and the drawing kit (``arbiter.ui``)."""
