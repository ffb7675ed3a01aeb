"""The table speaks each client's language (issue 29, item 3): ``hello``'s ``lang``, the ``lang``
message, narration, reasons, the kill count and the loser's title rendered per connection, and the
HTTP answers by ``?lang=`` or ``Accept-Language``.

Most tests read the table through a marked catalog (:func:`marked`): Finnish where every message id
is written ``‹id›``, so a text that did not go through the reader's catalog shows at once, whatever
the shipped catalogs hold yet."""

from __future__ import annotations

import asyncio
import gettext
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("sqlalchemy")

from hub_helpers import Clock, out, run, until  # noqa: E402
from server_helpers import LiveServer  # noqa: E402
from test_server_hub import hello, human_table, move  # noqa: E402
from test_server_replays import _record_text  # noqa: E402

from skitgubbe.engine import i18n  # noqa: E402
from skitgubbe.engine.actions import Action, Kind  # noqa: E402
from skitgubbe.engine.base import Phase  # noqa: E402
from skitgubbe.engine.narration import describe_event  # noqa: E402
from skitgubbe.engine.view import SPECTATOR, events_for  # noqa: E402
from skitgubbe.server import app as app_module  # noqa: E402
from skitgubbe.server import protocol  # noqa: E402
from skitgubbe.server.hub import Hub  # noqa: E402
from skitgubbe.server.protocol import ProtocolError, parse_client_message  # noqa: E402
from skitgubbe.server.replays import record_replay  # noqa: E402
from skitgubbe.server.rooms import public_view  # noqa: E402


class Marked(gettext.NullTranslations):
    """A catalog that writes every message id as ``‹id›`` (card words as they are)."""

    def gettext(self, message: str) -> str:
        return f"‹{message}›"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"‹{msgid1 if n == 1 else msgid2}›"

    def pgettext(self, context: str, message: str) -> str:
        return message


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finnish is read through :class:`Marked`; every other language through its shipped catalog."""
    real = i18n.translation
    monkeypatch.setattr(i18n, "translation", lambda lang: Marked() if lang == "fi" else real(lang))


def is_marked(text: str) -> bool:
    return text.startswith("‹") and text.endswith("›")


# -- the messages ------------------------------------------------------------------------------


def test_hello_and_lang_take_a_language_of_the_table() -> None:
    hi = parse_client_message('{"type": "hello", "room": "ABC", "spectate": true, "lang": "sv"}')
    assert hi.get("lang") == "sv"
    assert parse_client_message('{"type": "hello", "room": "ABC", "spectate": true}').get("lang") is None
    assert parse_client_message('{"type": "lang", "lang": "fi"}').fields == {"lang": "fi"}
    assert "lang" in protocol.CLIENT_TYPES


@pytest.mark.parametrize("raw, listed", [
    ('{"type": "hello", "room": "ABC", "spectate": true, "lang": "de"}', True),
    ('{"type": "hello", "room": "ABC", "spectate": true, "lang": "SV"}', True),
    ('{"type": "lang", "lang": "sv-SE"}', True),
    ('{"type": "lang", "lang": ""}', True),
    ('{"type": "lang", "lang": 3}', False),
    ('{"type": "lang"}', False),
    ('{"type": "lang", "lang": "fi", "room": "ABC"}', False),
])
def test_a_language_the_table_does_not_speak_is_refused_naming_those_it_does(raw: str, listed: bool) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client_message(raw)
    assert e.value.code == "bad-field"
    assert ("en, sv, nb, fi" in str(e.value)) == listed


def test_a_refused_lang_changes_nothing_and_keeps_the_connection(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        await hub.receive(clients[0], '{"type": "lang", "lang": "xx"}')
        [error] = out(clients[0])
        assert error["type"] == "error" and error["code"] == "bad-field"
        assert "en, sv, nb, fi" in error["message"]
        assert clients[0].lang == "en" and not clients[0].dropped
        spy = await hello(hub, code, None, None, spectate=True, lang="klingon")
        [refused] = out(spy)
        assert refused["code"] == "bad-field" and spy.room is None
    run(tmp_path, body)


# -- narration, reasons, the table's words, per connection ----------------------------------------


async def _table_with_moves(hub: Hub, preset: str = "goat", moves: int = 8) -> tuple[str, list[Any]]:
    """A table of three people who made ``moves`` moves (the first legal one each time)."""
    code, clients = await human_table(hub, preset, 3)
    room = hub.rooms[code]
    state = room.state
    for _ in range(moves):
        await until(lambda: state.to_act >= 0 or state.is_over)
        if state.is_over:
            break
        seat = state.to_act
        action = state.legal_actions(seat)[0]
        assert (await move(hub, clients[room.seating[seat]], str(action)))["type"] == "ack"
    return code, clients


def test_each_connection_reads_the_same_lines_in_its_own_language(tmp_path: Path, marked: None) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await _table_with_moves(hub)
        room = hub.rooms[code]
        en = await hello(hub, code, None, None, spectate=True)
        fi = await hello(hub, code, None, None, spectate=True, lang="fi")
        [a], [b] = out(en), out(fi)
        assert a["type"] == b["type"] == "sync" and len(a["lines"]) == len(b["lines"]) > 3
        assert a["lines"] == room.lines  # English: the engine's sentences, as before
        assert all(is_marked(line) for line in b["lines"]) and not any(is_marked(x) for x in a["lines"])
        names = room.seat_names()
        assert any(name in line for line in b["lines"] for name in names)  # seats by their names
        assert a["events"] == b["events"] and a["table"]["seats"] == b["table"]["seats"]
        # the next update: the new lines only, each in its reader's language
        state = room.state
        seat = state.to_act
        await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[0]))
        new_a = [m for m in out(en) if m["type"] == "state"][-1]["lines"]
        new_b = [m for m in out(fi) if m["type"] == "state"][-1]["lines"]
        assert len(new_a) == len(new_b) >= 1 and all(is_marked(x) for x in new_b)
        assert new_a == room.lines[-len(new_a):]
    run(tmp_path, body)


def test_english_lines_are_the_engines_sentences_with_the_seats_names(tmp_path: Path) -> None:
    """English is byte for byte what the table wrote before it spoke languages: the deal's line and
    then :func:`describe_event` of every event as a spectator sees it (passes not told)."""
    async def body(hub: Hub, clock: Clock) -> None:
        code, _ = await _table_with_moves(hub, "pagat", 12)
        room = hub.rooms[code]
        state = room.state
        names = room.seat_names()
        told = [describe_event(ev, names, state.rules, dreck=0) for ev in events_for(state.events, SPECTATOR)
                if ev.kind != "pass"]
        leader = state.first_leader
        assert room.lines[0] == f"Deal 1: pagat, 3 players; {names[leader]} leads."
        assert room.lines[1:] == [t for t in told if t is not None]
    run(tmp_path, body)


def test_lang_switches_the_connection_and_answers_with_a_full_sync(tmp_path: Path, marked: None) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await _table_with_moves(hub)
        room = hub.rooms[code]
        c = clients[room.seating[room.state.to_act]]
        out(c)
        await hub.receive(c, '{"type": "lang", "lang": "fi"}')
        [sync] = out(c)
        assert sync["type"] == "sync" and c.lang == "fi"
        assert len(sync["lines"]) == len(room.lines) and all(is_marked(x) for x in sync["lines"])
        assert sync["events_from"] == 0 and sync["you"]["player"] == room.seating[room.state.to_act]
        assert sync["me"]["why"] and all(is_marked(t) for t in sync["me"]["why"].values())
        await hub.receive(c, '{"type": "lang", "lang": "en"}')
        [back] = out(c)
        assert back["lines"] == room.lines
        seat = room.state.to_act
        assert back["me"]["why"] == protocol.reasons(room.state, seat, "en", room.seat_names())
    run(tmp_path, body)


def test_the_reasons_kill_count_and_loser_title_are_in_the_readers_language(tmp_path: Path,
                                                                            marked: None) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        room = hub.rooms[code]
        state = room.state
        steps = 0
        while state.phase != Phase.TWO or not public_view(state).table:  # a phase-two trick on the table
            await until(lambda: state.to_act >= 0 or state.is_over)
            assert not state.is_over and steps < 3000
            seat = state.to_act
            await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[-1]))
            steps += 1
        mine = clients[room.seating[state.to_act]]
        out(mine)
        await hub.receive(mine, '{"type": "lang", "lang": "fi"}')
        [fi] = out(mine)
        await hub.receive(mine, '{"type": "lang", "lang": "en"}')
        [en] = out(mine)
        assert en["table"]["public"]["loser_title"] == "the goat"
        assert is_marked(fi["table"]["public"]["loser_title"])
        assert " plays: " in en["table"]["public"]["kill"] and is_marked(fi["table"]["public"]["kill"])
        assert set(en["me"]["why"]) == set(fi["me"]["why"]) and fi["me"]["why"]
        assert all(is_marked(t) for t in fi["me"]["why"].values())
        assert not any(is_marked(t) for t in en["me"]["why"].values())
    run(tmp_path, body)


def test_english_reasons_write_ten_as_10_but_never_touch_a_name(tmp_path: Path) -> None:
    """``table_words`` applies to the engine's words in English, not to the names filled in."""
    text = protocol.render_lines([i18n.Message("{seat} has T♦", {"seat": i18n.Seat(0)})], "en", ["T"])
    assert text == ["T has T♦"]  # narration keeps T♦ (the page writes 10), as before
    msg = i18n.Message("it is {seat}'s turn, not a T♦", {"seat": i18n.Seat(1)})
    shown = protocol._text(msg, "en", ["Ann", "T"])  # noqa: SLF001 (the one renderer of reasons)
    assert shown == "it is T's turn, not a 10♦"


def test_a_replay_is_told_in_the_askers_language(tmp_path: Path, marked: None) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        made = await hub.create_room("Ann", preset="goat", house_rules=None, players=3,
                                     seats=["random", "random"], fill_bot="random")
        ann = await hello(hub, made["room"], 0, made["token"])
        await hub.receive(ann, '{"type": "leave"}')  # the fill bot plays Ann's seat too
        room = hub.rooms[made["room"]]
        await hub.receive(ann, '{"type": "start"}')
        await asyncio.wait_for(until(lambda: room.status == "over"), 120)
        out(ann)
        await hub.receive(ann, '{"type": "replay"}')
        en = [m for m in out(ann) if m["type"] == "replay"][0]
        await hub.receive(ann, '{"type": "lang", "lang": "fi"}')
        await hub.receive(ann, '{"type": "replay"}')
        fi = [m for m in out(ann) if m["type"] == "replay"][0]
        assert en["complete"] and len(en["frames"]) == len(fi["frames"])
        lines_en = [x for f in en["frames"] for x in f["lines"]]
        lines_fi = [x for f in fi["frames"] for x in f["lines"]]
        assert len(lines_en) == len(lines_fi) > 10 and all(is_marked(x) for x in lines_fi)
        assert not any(is_marked(x) for x in lines_en)
        assert is_marked(fi["frames"][0]["public"]["loser_title"])
    run(tmp_path, body)


def test_an_uploaded_record_names_its_seats_in_the_shipped_catalogs_words() -> None:
    text = _record_text()
    assert record_replay(text)["names"][:2] == ["Seat 0", "Seat 1"]
    assert record_replay(text, "sv")["names"][:2] == ["Plats 0", "Plats 1"]
    assert record_replay(text, "fi")["names"][:2] == ["Paikka 0", "Paikka 1"]


def test_swedish_lines_use_swedish_card_words(tmp_path: Path) -> None:
    """With the engine's messages, a Swedish reader sees 10 and Kn where English writes T and J."""
    async def body(hub: Hub, clock: Clock) -> None:
        code, _ = await _table_with_moves(hub, "goat", 30)
        room = hub.rooms[code]
        en = protocol.render_lines(room.narration, "en", room.seat_names())
        sv = protocol.render_lines(room.narration, "sv", room.seat_names())
        assert len(en) == len(sv) and en != sv
        assert not any("T♦" in x or "J♠" in x for x in sv)
    run(tmp_path, body)


# -- HTTP -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("query, header, lang", [
    ("", "", "en"), ("?lang=fi", "", "fi"), ("", "sv-SE,sv;q=0.9,en;q=0.8", "sv"),
    ("?lang=xx", "nb-NO", "nb"), ("?lang=fi-FI", "sv", "fi"), ("", "de, no;q=0.5", "nb"),
])
def test_the_options_are_written_in_the_language_asked_for(server: LiveServer,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            query: str, header: str, lang: str) -> None:
    asked: list[str] = []
    real_describe, real_label = app_module.describe, app_module.bot_label

    def describe(name: str, rules: Any, lang: str = "en") -> str:
        asked.append(lang)
        return real_describe(name, rules, lang)

    def bot_label(name: str, lang: str = "en") -> str:
        asked.append(lang)
        return real_label(name, lang)

    monkeypatch.setattr(app_module, "describe", describe)
    monkeypatch.setattr(app_module, "bot_label", bot_label)
    headers = {"Accept-Language": header} if header else {}
    answer = httpx.get(server.http + "/api/options" + query, headers=headers)
    assert answer.status_code == 200 and answer.headers["content-language"] == lang
    assert "Accept-Language" in answer.headers["vary"]
    assert asked and set(asked) == {lang}


def test_a_rooms_open_seat_is_named_in_the_language_asked_for(server: LiveServer, marked: None) -> None:
    made = server.make_room(preset="goat", players=3, seats=["open", "easy"])
    en = httpx.get(f"{server.http}/api/rooms/{made['room']}").json()
    fi = httpx.get(f"{server.http}/api/rooms/{made['room']}?lang=fi").json()
    assert en["seats"][1] == "open seat" and fi["seats"][1] == "‹open seat›"
    assert en["seats"][0] == fi["seats"][0] and en["kinds"] == fi["kinds"]


def test_an_uploaded_record_replays_in_the_language_asked_for(server: LiveServer) -> None:
    """(The replay is built in a worker process: the shipped catalogs' seat names show the language.)"""
    text = _record_text()
    en = server.post("/api/records", {"text": text})
    fi = httpx.post(server.http + "/api/records?lang=fi", json={"text": text}, timeout=30)
    sv = httpx.post(server.http + "/api/records", json={"text": text}, headers={"Accept-Language": "sv"},
                    timeout=30)
    assert en.status_code == fi.status_code == sv.status_code == 200
    assert fi.json()["names"][0] == "Paikka 0" and sv.json()["names"][0] == "Plats 0"
    lines_en = [x for f in en.json()["frames"] for x in f["lines"]]
    lines_fi = [x for f in fi.json()["frames"] for x in f["lines"]]
    assert len(lines_en) == len(lines_fi) > 10
    assert lines_fi != lines_en and any("Paikka 0" in x for x in lines_fi)
    assert not any("Seat 0" in x for x in lines_fi)


def test_refusals_stay_english_whatever_the_language(server: LiveServer) -> None:
    answer = httpx.get(f"{server.http}/api/rooms/NOPE?lang=sv", headers={"Accept-Language": "fi"})
    assert answer.status_code == 404 and answer.json()["error"] == "no-room"
    assert "there is no room" in answer.json()["message"]


def test_the_language_message_is_in_the_documented_client_types() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    for kind in protocol.CLIENT_TYPES:
        assert f"| `{kind}` |" in doc or f"`{kind}` /" in doc or f"/ `{kind}`" in doc, kind
    assert json.dumps({"type": "lang", "lang": "fi"})  # the example of the docs parses


def test_a_flood_of_lang_messages_is_refused_not_answered_with_syncs(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        c = clients[0]
        answers = []
        for lang in ["sv", "nb", "fi", "en", "sv"]:
            await hub.receive(c, json.dumps({"type": "lang", "lang": lang}))
            answers += [m["type"] if m["type"] != "error" else m["code"] for m in out(c)]
        assert answers == ["sync"] * 4 + ["rate-limited"] and c.lang == "en"
        clock.t += 2.0  # one more in two seconds
        await hub.receive(c, '{"type": "lang", "lang": "nb"}')
        assert [m["type"] for m in out(c)] == ["sync"] and c.lang == "nb"
    run(tmp_path, body)


def test_an_illegal_move_is_refused_with_the_reason_in_the_readers_language(tmp_path: Path) -> None:
    """The refusal's ``message`` stays English; ``said`` is the rules' reason in the connection's
    language, the seat to play by its name (shipped catalogs: Swedish)."""
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await _table_with_moves(hub, "pagat", 2)
        room = hub.rooms[code]
        state = room.state
        waiting = next(s for s in range(3) if s != state.to_act)
        c = clients[room.seating[waiting]]
        hand = state.hands[waiting]
        card = (hand & -hand).bit_length() - 1
        act = str(Action(Kind.PLAY, 1 << card))
        await hub.receive(c, '{"type": "lang", "lang": "sv"}')
        out(c)
        before = len(state.history)
        await hub.receive(c, json.dumps({"type": "act", "n": 99, "move": act}))
        [err] = [m for m in out(c) if m["type"] == "error"]
        assert err["code"] == "illegal" and len(state.history) == before
        assert f"seat {state.to_act}" in err["message"]  # English, as before
        name = room.seat_names("sv")[state.to_act]
        assert name in err["said"] and err["said"] != err["message"] and "seat" not in err["said"]
    run(tmp_path, body)


def test_the_hand_is_sorted_in_the_readers_suit_order() -> None:
    """Swedish, Norwegian and Finnish players sort spades, hearts, diamonds, clubs (the catalogs'
    ``suit order``); English clubs, diamonds, hearts, spades; the trump suit last in each."""
    from skitgubbe.engine.i18n import suit_order_in
    from skitgubbe.engine.state import State
    from skitgubbe.engine.variants import PRESETS
    from skitgubbe.engine.view import view_of

    # a Mas hand (the trump suit known from the deal) holding three suits other than trump
    views = (view_of(State.new(PRESETS["mas"], 3, seed=k), 0) for k in range(200))
    view = next(v for v in views
                if len({c % 52 // 13 for c in range(104) if v.hand >> c & 1} - {v.trump_suit}) >= 3)
    hands = {lang: protocol.seat_part(view, lang)["hand"] for lang in i18n.LANGUAGES}
    assert hands["sv"] != hands["en"] and sorted(hands["sv"]) == sorted(hands["en"])
    for lang in i18n.LANGUAGES:
        hand = protocol.seat_part(view, lang)["hand"]
        suits = [c[-1] for c in hand]
        seen = [s for i, s in enumerate(suits) if s not in suits[:i]]
        order = [("CDHS")[s] for s in suit_order_in(lang) if s != view.trump_suit]
        order += ["CDHS"[view.trump_suit]] if view.trump_suit >= 0 else []
        assert seen == [s for s in order if s in seen], (lang, hand)
    assert suit_order_in("sv") == (3, 2, 1, 0) and suit_order_in("en") == (0, 1, 2, 3)
