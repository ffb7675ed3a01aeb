"""The lobby's house-rules builder (issue 17, "Lobby"): every option a form field with its help, the
engine's checks naming the field at fault (a 400, never a 500), the TOML it writes read back by the
engine's own rules-file reader, and a room made with it."""

from __future__ import annotations

import dataclasses

import httpx
import pytest
from server_helpers import LiveServer

from skitgubbe.engine.i18n import gettext_in
from skitgubbe.engine.rules import OPTION_HELP, Rules
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.variants import PRESETS
from skitgubbe.server.houserules import (
    GROUPS,
    OPTION_LABELS,
    HouseRulesError,
    build,
    named_options,
    option_fields,
    read,
)


def test_every_option_is_one_field_with_its_help_and_its_allowed_values() -> None:
    names = [f["name"] for f in option_fields()]
    assert sorted(names) == sorted(f.name for f in dataclasses.fields(Rules))  # each once, none missing
    grouped = [n for group in GROUPS.values() for n in group]
    assert len(grouped) == len(set(grouped)) and set(grouped) == set(names) - {"name"}
    by_name = {f["name"]: f for f in option_fields()}
    for name, f in by_name.items():
        if name != "name":
            assert f["help"] == OPTION_HELP[name]  # (English: the ids themselves)
    assert by_name["sluffing"]["kind"] == "bool"
    assert by_name["pick_up"]["kind"] == "choice"
    assert by_name["pick_up"]["choices"] == [
        "top-card", "top-run", "bottom-play", "lowest-run", "lowest-card"]
    assert by_name["dreck_below"]["kind"] == "int" and by_name["dreck_below"]["ranges"] == [[-1, 104]]
    assert by_name["loser_title"]["kind"] == "text"


def test_every_option_has_a_label_in_a_players_words() -> None:
    """Issue 29: the builder's fields carried engine names ("max players two packs"); each option has
    a label of its own, a sentence-case phrase that is not its engine name in words."""
    assert set(OPTION_LABELS) == {f.name for f in dataclasses.fields(Rules)}
    labels = list(OPTION_LABELS.values())
    assert len(set(labels)) == len(labels)  # no two fields called the same
    for name, label in OPTION_LABELS.items():
        assert "_" not in label and label[0].isupper(), label
        assert label.lower() != name.replace("_", " "), label
    by_name = {f["name"]: f for f in option_fields()}
    assert by_name["max_players_two_packs"]["label"] == "Most players with two packs"
    assert by_name["exposed_bottom"]["label"] == "Show the bottom card of the stock"


@pytest.mark.parametrize("lang", ["sv", "nb", "fi"])
def test_labels_help_and_sections_are_in_the_readers_language(lang: str) -> None:
    """Every label, help text and section name is translated (none left in English), while each
    field's ``name`` stays the engine's (what a house-rules file writes)."""
    english = {f["name"]: f for f in option_fields("en")}
    shown = option_fields(lang)
    assert [f["name"] for f in shown] == list(english)
    for f in shown:
        en = english[f["name"]]
        assert f["label"] and f["label"] != en["label"], (lang, f["name"], f["label"])
        assert f["help"] and f["help"] != en["help"], (lang, f["name"], f["help"])
        assert f["group_label"] != en["group_label"] and f["group"] == en["group"]
        assert f["label"] == gettext_in(lang, OPTION_LABELS[f["name"]])
    assert option_fields("xx") == option_fields("en")  # a language without a catalog: English


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_toml_written_reads_back_to_the_same_rules(preset: str) -> None:
    plain = build(preset, {})
    assert plain.rules == PRESETS[preset].replace(name=f"{preset}+house") and plain.to_json()["changed"] == []
    assert parse_rules_file(plain.toml) == plain.rules
    changes = {"forced_pickup": not PRESETS[preset].forced_pickup, "loser_title": 'old "goat" ü #1',
               "name": "ours"}
    try:
        built = build(preset, changes)
    except HouseRulesError:
        return  # forced pickup does not go with every preset (checked below)
    assert parse_rules_file(built.toml) == built.rules and read(built.toml).rules == built.rules
    assert read(built.toml).preset == preset
    assert built.to_json()["changed"] == ["forced_pickup", "loser_title"]


def test_two_packs_keep_the_table_size_written() -> None:
    """Two packs raise max_players by themselves (Howell): a table kept at six must say so."""
    built = build("howell", {"decks": 2, "max_players": 6, "dreck_below": 12})
    assert built.rules.max_players == 6
    assert parse_rules_file(built.toml) == built.rules


@pytest.mark.parametrize(("preset", "options", "fields", "words"), [
    ("pagat", {"sluffing": True}, ["first_phase", "sluffing"], "all-play"),
    ("goat", {"dreck_below": 999}, ["dreck_below"], "-1 to 104"),
    ("goat", {"hand_size": "x"}, ["hand_size"], "whole number"),
    ("goat", {"pick_up": "all"}, ["pick_up"], "lowest-run"),
    ("goat", {"name": "our goat"}, ["name"], "without spaces"),
    ("goat", {"colour": "red"}, [], "unknown option"),
    ("nope", {}, [], "presets"),
])
def test_the_engine_refuses_naming_the_field(preset: str, options: dict, fields: list[str],
                                             words: str) -> None:
    with pytest.raises(HouseRulesError) as e:
        build(preset, options)
    assert e.value.code == "bad-rules" and e.value.fields == fields and words in str(e.value)


def test_named_options_ignores_a_list_of_allowed_names() -> None:
    assert named_options("nope: unknown option; options are name, min_players, sluffing") == []
    assert named_options("options.sluff_once=True with sluffing=False: it restricts") == ["sluff_once",
                                                                                          "sluffing"]


def test_the_builder_over_http(server: LiveServer) -> None:
    options = httpx.get(server.http + "/api/options", timeout=10).json()
    assert {f["name"] for f in options["rule_fields"]} == {f.name for f in dataclasses.fields(Rules)}
    goat = next(p for p in options["presets"] if p["name"] == "goat")
    assert goat["options"] == PRESETS["goat"].options()

    ok = server.post("/api/rules/check",
                     {"preset": "goat", "options": {"dreck_below": 5, "name": "our-goat"}})
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["changed"] == ["dreck_below"] and body["name"] == "our-goat"
    assert body["options"]["dreck_below"] == 5
    assert (body["min_players"], body["max_players"]) == (3, 8) and "the dreck" in body["description"]
    assert parse_rules_file(body["toml"]) == PRESETS["goat"].replace(name="our-goat", dreck_below=5)

    back = server.post("/api/rules/read", {"text": body["toml"]})
    assert back.status_code == 200 and back.json() == body

    for path, sent, fields in [
        ("/api/rules/check", {"preset": "pagat", "options": {"sluffing": True}}, ["first_phase", "sluffing"]),
        ("/api/rules/check", {"preset": "goat", "options": {"reserve": 99}}, ["reserve"]),
        ("/api/rules/read", {"text": 'preset = "goat"\n[options]\nhand_size = 9\n'}, ["hand_size"]),
        ("/api/rules/read", {"text": "preset = [\n"}, []),
    ]:
        r = server.post(path, sent)
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad-rules" and r.json()["fields"] == fields and r.json()["message"]
    for path, sent in [("/api/rules/check", {"preset": "goat", "options": {"hand_size": [1]}}),
                       ("/api/rules/check", {"options": {}}),
                       ("/api/rules/read", {"text": 5})]:
        r = server.post(path, sent)
        assert r.status_code == 400 and r.json()["error"] == "bad-field", r.text

    made = server.make_room(house_rules=body["toml"], players=3, seats=["easy", "easy"])
    room = server.hub.rooms[made["room"]]
    assert room.spec.rules == PRESETS["goat"].replace(name="our-goat", dreck_below=5)
    assert httpx.get(f"{server.http}/api/rooms/{made['room']}").json()["rules"] == "our-goat"


def test_every_table_the_server_accepts_can_deal_and_confusion_needs_six_seats() -> None:
    """Issue 28, item 3: house rules with confusion were accepted at 3, 5, 7 or 8 seats, and the table
    wedged when it filled.  Now every preset, with and without confusion, at every seat count from 2
    to 8 either is refused when the room is asked for (``bad-table``, saying why) or deals."""
    import random

    from skitgubbe.engine.variants import PRESETS
    from skitgubbe.server.rooms import Room, RoomError, make_spec

    refused = dealt = 0
    for name in PRESETS:
        for confusion in (False, True):
            toml = f'preset = "{name}"\nname = "ours"\n[options]\nconfusion = {str(confusion).lower()}\n'
            for players in range(2, 9):
                try:
                    spec = make_spec(preset=None, house_rules=toml, players=players,
                                     seats=["easy"] * (players - 1))
                except RoomError as e:
                    assert e.code in ("bad-table", "bad-rules"), e
                    if confusion and e.code == "bad-table" and PRESETS[name].min_players <= players \
                            <= PRESETS[name].max_players:
                        assert "6 seats" in str(e)
                    refused += 1
                    continue
                room = Room("TEST01", spec)
                room.apply_entry("join", {"slot": 0, "name": "Ann", "token_hash": "0" * 64})
                room.apply_entry("start", room.prepare_start(random.Random(players)))
                assert room.status == "playing" and room.state is not None
                assert not confusion or players == 6
                dealt += 1
    assert refused and dealt
