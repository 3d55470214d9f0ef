"""The application: a stack of screens driven by button events and ``now_ms``.

``step(now)`` is one pass of the main loop. When nothing happens it only
samples the buttons and checks the sleep timer, allocating nothing. Screens
move by name: ``push`` one on top, ``pop`` back, ``home`` to the main menu,
``insert`` one under the top; a screen module that comes and goes
(``jobs.SCREENS``) is let go once no screen of it is on the stack.
"""

from arbiter import VERSION, ui
from arbiter.game.jobs import let_go, screen_closed
from arbiter.hw.buttons import A, B, button_of, kind_of
from arbiter.hw.ticks import diff
from arbiter.store import JOURNAL, USB_OPEN, game_on_flash
from arbiter.ui.menu import Menu, TextPage

# The keys whose work may take a while, marked at once (App.busy): a screen's
# ``slow_keys`` says its own (the play screen's arrows open forms and pages; a form's
# A leaves its action to a pass that marks it)
_SLOW_KEYS = (A,)
POLL_MS = 10  # awake: a 20 ms debounce needs samples this often
ASLEEP_POLL_MS = 20  # display off: a tap lasts longer, so one sample sees it and wakes


class App:
    def __init__(self, display, leds, buttons, flash, rng, log, now, notices=(),
                 resume=True, entropy=None, usb=None):
        self.display = display
        self.leds = leds
        self.buttons = buttons
        self.flash = flash
        self.rng = rng
        # a game's seed: fresh hardware entropy (board.entropy_seed), not the boot's
        self.entropy = entropy or (lambda: (rng.next32() << 32) | rng.next32())
        self.log = log
        from arbiter.store import settings  # read once, then let go: a game's heap

        self.settings, settings_error = settings.read(flash)  # their values (a dict)
        let_go("store", "settings")
        self.awake = True
        self.dirty = True
        self.last_input = now
        self._sleep_ms = 0
        self._usb = usb
        # the table let a PC connect before this reset: open through the resume, so a
        # PC's command right after the reset is not caught between a close and an open
        self._hold_usb = flash.exists(USB_OPEN)
        if buttons.held_at_start(B):  # at power-on: the table opens the port (recovery)
            self._hold_usb = True
            try:
                flash.write(USB_OPEN, "")  # (a full flash: open all the same)
            except OSError:
                pass
        # shut by main.py's first line while a game is on flash: its seed and secrets
        # are the table's; open for makers where there is none
        self.usb_open = None
        self.usb(self._hold_usb or not game_on_flash(flash))
        self._usb_settled = False  # set once the boot's resume is done (step)
        self.stack = [self._main_menu()]
        self.apply_settings()
        notices = list(notices)
        if flash.exists(JOURNAL) and not resume:
            notices.append("Saved game not resumed after repeated errors; "
                           "restart to try again.")
        if settings_error:
            log(settings_error)
            notices.append(settings_error)
        # a saved game resumes in the first pass, not here: the boot's garbage is
        # collected first (a collector that cannot see the C stack collects only
        # between passes, and a Pico's heap holds a replay or a boot, not both)
        self._notices = notices
        self._resuming = resume and flash.exists(JOURNAL)
        self._booting = True
        # work for a pass of its own once the key's screens are closed and their code
        # collected (a form's action: screens/play.py act_later), before the drawing:
        # fn(app, now), or (fn, arg) for fn(app, now, arg) (a lambda is a call deeper)
        self.later = None
        # work no press waits for, done in a pass of its own once the screen is drawn
        # and no key is waiting (the game menu's lists: screens/play.py)
        self.idle = None
        # whether the last pass did anything (a key, a drawing, a job): only such a
        # pass leaves garbage to collect (device.run); an idle one allocates nothing
        self.worked = True
        self.marked = False  # the busy mark is on the panel (busy)

    def _finish_boot(self, now):
        notices, self._notices = self._notices, []
        self._booting = False
        if self._resuming:
            self.resume(now, notices)
        if notices:
            self.push(TextPage("Check setup", notices))
        self.dirty = True
        return self._resuming

    def _settle_usb(self):
        """Once the boot's resume is done: the Connect to PC screen back if the table had
        let a PC connect, else the port as the flash says (a saved game set aside by
        the resume leaves none)."""
        self._usb_settled = True
        if self._hold_usb:
            from arbiter.screens.usb import reopen

            self._hold_usb = False
            reopen(self)
            self.dirty = True
        else:
            self.usb(not game_on_flash(self.flash))

    def resume(self, now, notices=()):
        """The saved game back (screens.setup.resume_saved): at boot, or when the game in
        memory was lost (screens.play.read_back)."""
        try:
            from arbiter.screens.setup import resume_saved

            resume_saved(self, now)
        except Exception as exc:  # an engine bug must not stop the boot, nor loop it
            self.home()
            self.log("resume failed: %r" % (exc,))
            notices.append("Saved game could not be resumed: %r" % (exc,))

    def _main_menu(self):
        return Menu("ARBITER", [
            ("Play a game", _choose_game),
            ("Roll dice", _roll_dice),
            ("Settings", _settings),
            ("Connect to PC", _connect),
            ("Log", lambda app, now: app.push(TextPage("Log", app.log.lines))),
            ("About", lambda app, now: app.push(TextPage("About", [
                "Arbiter " + VERSION, "Table referee"]))),
        ], back=False)

    @property
    def screen(self):
        return self.stack[-1]

    def push(self, screen):
        self.stack.append(screen)
        self.dirty = True
        if getattr(screen, "closes_usb", False) and not self._hold_usb:
            self.usb(False)  # a game begins: its secrets stay here

    def usb(self, allowed):
        """Open or close the USB port to a PC (see board.usb_open)."""
        if allowed != self.usb_open:
            self.usb_open = allowed
            if self._usb is not None:
                self._usb(allowed)

    def pop(self):
        if len(self.stack) > 1:
            self._let_go(self.stack.pop())
        self.dirty = True

    def home(self):
        """Back to the main menu, every other screen closed."""
        while len(self.stack) > 1:
            self._let_go(self.stack.pop())
        self.dirty = True

    def insert(self, below, screen):
        """``screen`` just above ``below`` (which must be on the stack)."""
        self.stack.insert(self.stack.index(below) + 1, screen)
        self.dirty = True

    def _let_go(self, screen):
        """The modules of a screen just closed, its own and the one its class stands
        on (``stands_on``: a FastForm's forms), go if they are ones to let go and no
        screen still open uses them."""
        kind = type(screen)
        for name in (kind.__module__, getattr(kind, "stands_on", None)):
            if name is None:
                continue
            for other in self.stack:
                used = type(other)
                if used.__module__ == name or getattr(used, "stands_on", None) == name:
                    break
            else:
                screen_closed(name)

    def redraw(self):
        self.dirty = True

    def apply_settings(self):
        self._sleep_ms = self.settings["sleep_s"] * 1000
        self.leds.brightness = self.settings["brightness"]
        self.leds.set_enabled(self.awake)
        self.display.contrast(self.settings["contrast"])

    def step(self, now):
        # few locals: an idle pass stays here and in calls that keep their frames on
        # the C stack (see Buttons.poll); a key and the work it sets go to their own
        self.worked = self._booting
        if self._booting and self._finish_boot(now):
            return 0  # a resume's pass: its garbage is collected before the drawing
        if not self._usb_settled and self.later is None and \
                not getattr(self.screen, "loads", False):
            self._settle_usb()  # once the resume (a few passes) is done
        buttons = self.buttons
        buttons.poll(now)
        if buttons.activity:
            buttons.activity = False
            self.last_input = now
            if not self.awake:
                self.wake(now)
                buttons.consume_held()  # the waking press does nothing else
        # one key a pass, and only once the last one's work and drawing are done: keys
        # that waited out a long pass meet the screens they would have met
        keyed = False
        if not (self.awake and (self.dirty or self.later is not None)):
            keyed = self._key(buttons.next_event())
        self.leds.tick(now)  # (a frame of the ring allocates nothing: not a pass's work)
        if self.awake:
            if keyed and (self.dirty or self.later is not None):
                return 0  # drawn in a pass of its own, at once: a key's garbage (an
                # action's) is collectable before the drawing's is made
            later = self.later
            if later is not None:  # (called from here: a resume's replay is deep)
                self.later = None
                self.worked = True
                self.busy()  # the press was seen: a mark while it works
                if later.__class__ is tuple:
                    later[0](self, now, later[1])
                else:
                    later(self, now)
                # a job of several passes (a ruleset's load, a step a pass) pauses
                # after each, so a small heap collects each one's garbage (device.run)
                return 0 if self.later is None else POLL_MS
            if (self.dirty or self.idle is not None and not keyed) and self._work(now):
                return 0
            if self._sleep_ms and diff(now, self.last_input) >= self._sleep_ms:
                if not buttons.any_held():
                    self.sleep()
            return 0 if keyed else POLL_MS  # another key may be waiting
        return ASLEEP_POLL_MS

    def _key(self, ev):
        """The screen's answer to the button event ``ev`` (-1: none); True if one."""
        if ev < 0:
            return False
        self.worked = True  # at the time it was pressed: its pass may come later
        screen, button = self.screen, button_of(ev)
        if self.awake and button in getattr(screen, "slow_keys", _SLOW_KEYS):
            self.busy()  # a key that may work a while: the press is seen at once
        screen.key(self, button, kind_of(ev), self.buttons.at)
        return True

    def _work(self, now):
        """The screen drawn (False: the pass goes on), else the idle work (True: the
        pass ends with it, its garbage collected before the next)."""
        self.worked = True
        if self.dirty:
            self.render(now)
            return False
        idle, self.idle = self.idle, None
        if idle is not None:
            idle(self, now)
        return True

    def busy(self):
        """The mark that a press was seen and its work is under way (ui.busy), once
        until the next frame, which draws over it."""
        if not self.marked:
            self.marked = True
            ui.busy(self.display)
        self.dirty = True

    def render(self, now):
        """The top screen drawn, after its ``ready``: what it works out or opens before
        a drawing (a screen's ``draw`` only draws)."""
        self.dirty = self.marked = False
        ready = getattr(self.screen, "ready", None)
        if ready is not None:
            ready(self, now)  # (it may open a screen: the one drawn is the top one)
        fb = self.display
        fb.fill(0)
        self.screen.draw(self, fb)
        fb.show()

    def sleep(self):
        self.awake = False
        self.display.power(False)
        self.leds.set_enabled(False)

    def wake(self, now):
        self.awake = True
        self.worked = True
        self.display.power(True)
        self.leds.set_enabled(True)
        if self.dirty:
            self.render(now)


def _choose_game(app, now):
    from arbiter.screens.setup import choose  # the engine loads only when a game is wanted

    choose(app, now)


def _roll_dice(app, now):
    from arbiter.screens.dice import DiceRoller  # let go once closed: a game's heap

    app.push(DiceRoller())


def _connect(app, now):
    from arbiter.screens.usb import ask

    ask(app, None)


def _settings(app, now):
    from arbiter.screens.settings import SettingsScreen  # as the dice

    app.push(SettingsScreen())
