"""The lobby's games (issue 29, item 1): ``GET /api/options`` lists the games by their own names and
homes, each with its recommended table and its variants, what each variant changes computed from the
rules, in the reader's language."""

from __future__ import annotations

import httpx
from server_helpers import LiveServer

from skitgubbe.engine.i18n import Message
from skitgubbe.engine.variants import PRESETS, rules_diff
from skitgubbe.server.presets import GAMES, change_message, changes, lobby_games, recommended_table


def test_every_preset_belongs_to_exactly_one_game() -> None:
    owners: dict[str, list[str]] = {name: [] for name in PRESETS}
    for g in GAMES:
        for preset in ([g.preset] if g.preset else []) + [v for v, _ in g.variants]:
            owners[preset].append(g.key)
    assert all(len(games) == 1 for games in owners.values()), owners


def test_the_games_are_named_as_players_know_them(server: LiveServer) -> None:
    games = httpx.get(server.http + "/api/options").json()["games"]
    named = {g["name"]: g["home"] for g in games}
    assert named == {"Skitgubbe": "Sweden", "The Goat Game / Flurst": "American", "Mas": "Sweden",
                     "Mattis and Blåmattis": "Norway", "Koira and Myllymatti": "Finland",
                     "Single Hand": "catsatcards.com"}
    variants = {v["name"] for g in games for v in g["variants"]}
    assert {"Howell's", "catsatcards'", "Helmfrid's", "Atlanta", "Two players"} <= variants
    for g in games:
        assert g["pitch"] and not g["pitch"].startswith(("the ", "pagat")) and len(g["pitch"]) < 140
    single = next(g for g in games if g["key"] == "single-hand")
    assert not single["web"] and single["table"] is None and "single-hand" in single["command"]


def test_each_recommended_table_is_one_the_rules_deal() -> None:
    for g in lobby_games():
        tables = ([(g["preset"], g["table"])] if g["web"] else []) + [(v["preset"], v["table"])
                                                                      for v in g["variants"]]
        for preset, table in tables:
            PRESETS[preset].check_players(table["players"])  # raises if the rules cannot deal it
            assert table["seats"] == ["easy"] * (table["players"] - 1)
    assert recommended_table("two-player")["players"] == 2


def test_each_variant_says_what_it_changes_from_the_rules() -> None:
    for g in GAMES:
        for preset, _ in g.variants:
            assert g.preset is not None
            main, variant = PRESETS[g.preset], PRESETS[preset]
            said = changes(main, variant)
            assert said, preset
            # every phrase comes from an option that differs, and none is the fallback "option: value"
            assert all(m.text != "{option}: {value}" for m in said), (preset, [str(m) for m in said])
            differs = rules_diff(main, variant)
            assert len(said) <= len(differs)
    # computed, not written: change an option and the phrase follows the rules
    pagat = PRESETS["pagat"]
    assert [str(m) for m in changes(pagat, pagat.replace(must_match=True))] == ["match if you can"]
    assert [str(m) for m in changes(pagat, pagat)] == []
    assert str(change_message("dreck_below", pagat.replace(dreck_below=4))) == (
        "the dreck, for a seat with fewer than 4 cards after phase one")
    assert isinstance(change_message("sluffing", pagat), Message)


def test_the_variants_the_lobby_sends_are_the_computed_ones(server: LiveServer) -> None:
    games = httpx.get(server.http + "/api/options").json()["games"]
    goat = next(g for g in games if g["key"] == "goat")
    howell = next(v for v in goat["variants"] if v["preset"] == "howell")
    assert howell["changes"] == [str(m) for m in changes(PRESETS["goat"], PRESETS["howell"])]
    assert "aces low in phase one" in howell["changes"]


def test_the_language_is_asked_by_query_or_header(server: LiveServer) -> None:
    assert httpx.get(server.http + "/api/options?lang=fi").json()["lang"] == "fi"
    asked = httpx.get(server.http + "/api/options", headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"})
    assert asked.json()["lang"] == "sv"
    assert httpx.get(server.http + "/api/options", headers={"Accept-Language": "de"}).json()["lang"] == "en"
