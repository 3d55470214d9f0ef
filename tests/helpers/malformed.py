"""Malformed rulesets, one per class of mistake: each is a change to a small ruleset
that uses every block (``BASE``, which passes), and a word its refusal names."""

import copy
import json

BASE = {
    "format": 1, "name": "every-block", "title": "Every block", "notes": "for tests",
    "players": {"min": 2, "max": 4, "default": 2, "names": ["Ann", "Bo"],
                "colours": ["#ff0000", "#00ff00"], "warn": {"counter": "hp", "amber": 3},
                "pulse": {"counter": "hp", "at": 1}},
    "options": {"fast": {"choices": [True, False], "default": False, "label": "Fast"}},
    "values": {"goal": 10}, "game": {"deck": ["a", "b"]},
    "dice": {"d6": {"faces": 6, "label": "six"}, "hit": {"faces": [0, 0, 1, 1, 1, 2]}},
    "counters": {"hp": {"start": 5, "min": 0, "max": 9, "label": "HP"},
                 "mood": {"choices": ["calm", "angry"]}},
    "pieces": {"counters": {"wounds": {"start": 0, "min": 0}}, "stats": {"speed": 3},
               "each": [{"key": "k1", "name": "Kit", "stats": {"speed": 4}}]},
    "secrets": [{"name": "plan", "prompt": "Plan", "action": "plan",
                 "choices": ["attack", "defend"],
                 "on_reveal": [{"say": [{"bound": "p"}, " plans"]}]}],
    "setup": [{"let": "x", "be": 1}], "round_label": "Round", "show": ["hp"],
    "phases": [{"name": "main", "label": "Main", "per_player": True,
                "enter": [{"roll": "d6", "count": 2, "as": "r"}],
                "turn": [{"if": {">": [{"sum": "r"}, 20]}, "then": [{"next": True}]}],
                "leave": [{"require": True, "reason": "no"}], "exit": []},
               {"name": "end", "skip_if": False}],
    "turn_order": {"by": "roll", "die": "d6", "high_first": True},
    "triggers": [{"counter": "hp", "at": 0, "falls": True,
                  "effects": [{"lose": {"bound": "p"}}]}],
    "end": [{"at": "round_end", "win_if": {">=": [{"get": "$p.hp"}, {"val": "goal"}]}}],
    "tiebreak": [{"get": "$p.hp"}],
    "leds": {"piece": {"get": "$p.hp"}, "level": 1, "flash": {"main": ["#ffffff"]}},
    "grid": {"value": "game.deck", "columns": 2, "label": "Deck"},
    "pages": [{"label": "Info", "phases": ["main"], "lines": ["hello", {"get": "$p.hp"}]}],
    "actions": {
        "hit": {"params": ["p"], "flags": ["hard"], "phases": ["main"], "label": "Hit",
                "effects": [{"add": "$p.hp", "n": -1},
                            {"each_piece": [{"add": "$k.wounds"}], "of": {"bound": "p"}},
                            {"for_each": ["a", "b"], "as": "t", "do": [{"say": "x"}]},
                            {"repeat": [{"add": "$p.hp"}], "until": True},
                            {"draw": {"get": "game.deck"}, "count": 1, "as": "c"},
                            {"opposed": {"a": {"die": "d6", "player": "P1"},
                                         "b": {"die": "d6", "player": "P2"},
                                         "score": "sum", "as": "w"}},
                            {"call": "help", "with": {"p": {"bound": "p"}}}]},
        "help": {"private": True, "effects": [{"set": "$p.mood", "to": "calm"},
                                              {"make_pieces": {"count": 1, "prefix": "m"}},
                                              {"each_player": [{"say": "hi"}]}]},
    },
}


def _at(data, path):
    for key in path:
        data = data[key]
    return data


def setting(path, value):
    def change(data):
        _at(data, path[:-1])[path[-1]] = value
    return change


def adding(path, key="zzz", value=1):
    def change(data):
        _at(data, path)[key] = value
    return change


def nested(depth):
    """An expression ``depth`` operators deep: {"+": [{"+": [... 1]}]}."""
    form = 1
    for _ in range(depth):
        form = {"+": [form]}
    return form


def deep_effects(depth):
    """Effects ``depth`` ifs deep."""
    effects = [{"say": "deep"}]
    for _ in range(depth):
        effects = [{"if": True, "then": effects}]
    return effects


HIT = ["actions", "hit", "effects"]
# the blocks, where an unknown field is tried
BLOCKS = {"top": [], "players": ["players"], "warn": ["players", "warn"],
          "pulse": ["players", "pulse"], "option": ["options", "fast"],
          "die": ["dice", "d6"], "counter": ["counters", "hp"],
          "pieces": ["pieces"], "piece": ["pieces", "each", 0],
          "secret": ["secrets", 0], "phase": ["phases", 0], "turn_order": ["turn_order"],
          "trigger": ["triggers", 0], "end": ["end", 0], "leds": ["leds"], "grid": ["grid"],
          "page": ["pages", 0], "action": ["actions", "hit"],
          "opposed": HIT + [5, "opposed"], "opposed side": HIT + [5, "opposed", "a"],
          "make_pieces": ["actions", "help", "effects", 1, "make_pieces"]}
# effects, where an unknown field ("nn": -3) is tried
EFFECTS = {"add": HIT + [0], "each_piece": HIT + [1], "for_each": HIT + [2],
           "repeat": HIT + [3], "draw": HIT + [4], "opposed": HIT + [5], "call": HIT + [6],
           "set": ["actions", "help", "effects", 0],
           "make_pieces": ["actions", "help", "effects", 1],
           "each_player": ["actions", "help", "effects", 2], "roll": ["phases", 0, "enter", 0],
           "if": ["phases", 0, "turn", 0], "require": ["phases", 0, "leave", 0],
           "lose": ["triggers", 0, "effects", 0], "let": ["setup", 0],
           "say": ["secrets", 0, "on_reveal", 0]}
# text fields given a number (the play screen draws some of them)
TEXTS = {"title": ["title"], "round_label": ["round_label"], "notes": ["notes"],
         "phase label": ["phases", 0, "label"], "counter label": ["counters", "hp", "label"],
         "action label": ["actions", "hit", "label"], "option label": ["options", "fast", "label"],
         "die label": ["dice", "d6", "label"], "secret prompt": ["secrets", 0, "prompt"],
         "page label": ["pages", 0, "label"], "grid label": ["grid", "label"],
         "phase name": ["phases", 0, "name"], "show entry": ["show", 0],
         "player name": ["players", "names", 0], "param": ["actions", "hit", "params", 0]}

CHANGES = {}
for _name, _path in BLOCKS.items():
    CHANGES["unknown field in " + _name] = (adding(_path), "zzz")
for _name, _path in EFFECTS.items():
    CHANGES["unknown field of " + _name] = (adding(_path, "nn", -3), "nn")
for _name, _path in TEXTS.items():
    CHANGES["a number as " + _name] = (setting(_path, 5), _path[-1] if isinstance(
        _path[-1], str) else "")
CHANGES.update({
    "format 2": (setting(["format"], 2), "format"),
    "name with a space": (setting(["name"], "two words"), "name"),
    "name too long": (setting(["name"], "x" * 30), "name"),
    "name not text": (setting(["name"], 3), "name"),
    "no name": (lambda d: d.pop("name"), "name"),
    "players.max 9": (setting(["players", "max"], 9), "players.max"),
    "players.min 0": (setting(["players", "min"], 0), "players.min"),
    "players.default 7": (setting(["players", "default"], 7), "players.default"),
    "players.min over max": (setting(["players", "min"], 5), "players"),
    "player colour not a colour": (setting(["players", "colours", 0], "red"), "colours"),
    "a die of a million faces": (setting(["dice", "d6", "faces"], 10 ** 6), "faces"),
    "a die of no faces": (setting(["dice", "d6", "faces"], []), "faces"),
    "a die of 1000 listed faces": (setting(["dice", "d6", "faces"], [1] * 1000), "faces"),
    "a die face of 1000": (setting(["dice", "hit", "faces", 0], 1000), "faces"),
    "a die without faces": (setting(["dice", "d6"], {"label": "x"}), "faces"),
    "a roll of a million dice": (setting(["phases", 0, "enter", 0, "count"], 10 ** 6), "count"),
    "a draw of a million cards": (setting(HIT + [4, "count"], 10 ** 6), "count"),
    "a million pieces made": (setting(["actions", "help", "effects", 1, "make_pieces", "count"],
                                      10 ** 6), "count"),
    "300 pieces each": (setting(["pieces", "each"], [{"key": "k%d" % i} for i in range(300)]),
                        "pieces"),
    "a piece key with a space": (setting(["pieces", "each", 0, "key"], "k 1"), "key"),
    "a piece without a key": (lambda d: d["pieces"]["each"][0].pop("key"), "key"),
    "counter min over max": (setting(["counters", "hp", "min"], 20), "hp"),
    "counter start outside": (setting(["counters", "hp", "start"], 20), "start"),
    "counter choices empty": (setting(["counters", "mood", "choices"], []), "choices"),
    "counter choice not text": (setting(["counters", "mood", "choices"], [1]), "choices"),
    "option without choices": (setting(["options", "fast"], {"label": "x"}), "choices"),
    "option default not a choice": (setting(["options", "fast", "default"], 3), "default"),
    "option choice an object": (setting(["options", "fast", "choices"], [{}]), "choices"),
    "unknown effect": (setting(HIT + [0], {"explode": 1}), "effect"),
    "two effects in one": (setting(HIT + [0], {"add": "$p.hp", "set": "$p.hp"}), "effect"),
    "an effect not an object": (setting(HIT + [0], "add"), "object"),
    "effects not a list": (setting(HIT, {"add": "$p.hp"}), "list"),
    "unknown operator": (setting(["tiebreak", 0], {"gett": "$p.hp"}), "gett"),
    "two operators in one": (setting(["tiebreak", 0], {"get": "$p.hp", "+": [1]}), "operator"),
    "unknown operator deep in an effect": (setting(HIT + [0, "n"], {"+": [{"nope": 1}]}),
                                           "nope"),
    "call of an unknown action": (setting(HIT + [6, "call"], "nope"), "nope"),
    "native of an unknown module": (setting(HIT + [0], {"native": "chess.move"}), "chess"),
    "native not offered by its module": (setting(HIT + [0], {"native": "tactics.square"}),
                                         "tactics.square"),
    "roll of an unknown die": (setting(["phases", 0, "enter", 0, "roll"], "d7"), "d7"),
    "trigger on an unknown counter": (setting(["triggers", 0, "counter"], "mp"), "mp"),
    "trigger without at": (lambda d: d["triggers"][0].pop("at"), "at"),
    "trigger on neither player nor piece": (setting(["triggers", 0, "on"], "team"), "on"),
    "turn order by luck": (setting(["turn_order", "by"], "luck"), "by"),
    "end at dawn": (setting(["end", 0, "at"], "dawn"), "at"),
    "repeat without until": (lambda d: _at(d, HIT + [3]).pop("until"), "until"),
    "opposed without b": (lambda d: _at(d, HIT + [5, "opposed"]).pop("b"), "b"),
    "confirm of an unknown action": (setting(["phases", 0, "confirm"], "nope"), "confirm"),
    "on_a of an unknown action": (setting(["phases", 0, "on_a"], "nope"), "on_a"),
    "strict on an argument without choices": (setting(["actions", "hit", "strict"], ["k"]),
                                              "strict"),
    "a limit per nothing known": (setting(["actions", "hit", "limit"], {"per": "week"}), "per"),
    "every phase moves on as it starts": (
        lambda d: [p.__setitem__("enter", [{"next": True}]) for p in d["phases"]], "phases"),
    "grid with value and cell": (setting(["grid", "cell"], 1), "grid"),
    "grid with neither": (lambda d: d["grid"].pop("value"), "grid"),
    "page without lines": (lambda d: d["pages"][0].pop("lines"), "lines"),
    "leds without piece": (lambda d: d["leds"].pop("piece"), "piece"),
    "led flash not a colour": (setting(["leds", "flash", "main", 0], "blue"), "flash"),
    "secret without choices": (setting(["secrets", 0, "choices"], []), "choices"),
    "a team without a name": (setting(["teams"], [{"counters": {}}]), "name"),
    "two teams of one name": (setting(["teams"], [{"name": "A"}, {"name": "a"}]), "name"),
    "a team of an unknown counter": (setting(["teams"], [{"name": "A", "counters": {"mp": 1}}]),
                                     "mp"),
    "phases not a list": (setting(["phases"], {"name": "x"}), "phases"),
    "actions a list": (setting(["actions"], []), "actions"),
    "an unknown block": (adding([], "rules", {}), "rules"),
    "game value an object": (setting(["game", "deck"], {"a": 1}), "game"),
    "stat an object": (setting(["pieces", "stats", "speed"], {"a": 1}), "speed"),
    "stat true": (setting(["pieces", "stats", "speed"], True), "speed"),
    "high_first not true or false": (setting(["turn_order", "high_first"], 1), "high_first"),
    "private as text": (setting(["actions", "help", "private"], "yes"), "private"),
    "grid columns as text": (setting(["grid", "columns"], "7"), "columns"),
    "an expression nested 40 deep": (setting(["tiebreak", 0], nested(40)), "deep"),
    "effects nested 20 deep": (setting(HIT, deep_effects(20)), "deep"),
})


def malformed(name):
    """The text of the malformed ruleset ``name`` (a key of CHANGES)."""
    data = copy.deepcopy(BASE)
    change, _ = CHANGES[name]
    change(data)
    return json.dumps(data, indent=1)


# Whole texts that are not a ruleset at all: (bytes, a word of the reason)
TEXTS_BAD = {
    "truncated JSON": (json.dumps(BASE)[:300].encode(), "JSON"),
    "trailing comma": (b'{"format": 1, "name": "x",}', "JSON"),
    "NaN": (b'{"format": 1, "name": "x", "values": {"a": NaN}}', ""),
    "empty file": (b"", "JSON"),
    "not UTF-8": (json.dumps(BASE).encode().replace(b"Kit", b"K\xfft"), "UTF-8"),
    "a list": (b"[1, 2, 3]", "object"),
    "a number": (b"3", "object"),
    "null": (b"null", "object"),
    "over the size cap": (b'{"format": 1, "name": "big", "notes": "%s"}' % (b"x" * 50000),
                          "too large"),
    "nested 100000 deep": (b"[" * 16000 + b"]" * 16000, ""),
}


def deep_text(depth):
    """BASE with an action setting a counter to an expression ``depth`` operators deep
    (written out: too deep for json.dumps)."""
    data = copy.deepcopy(BASE)
    data["actions"]["deep"] = {"params": ["p"], "effects": [{"set": "$p.hp", "to": "@"}]}
    return json.dumps(data).replace('"@"', '{"+": [' * depth + "1" + "]}" * depth)
