"""The message catalogs: every message the code marks is in the template, every shipped language
translates every message with the same fields, and the compiled catalogs are the sources'.

``make catalogs`` brings them up to date (docs/translating.md)."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.mofile import read_mo, write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from skitgubbe.engine.i18n import LANGUAGES, LOCALE_DIR  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"N_": None, "NC_": ((1, "c"), 2), "Plural": (1, 2), "t": None, "tn": (1, 2), "tc": ((1, "c"), 2),
            "_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _key(msg_id: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return context or None, msg_id[0] if isinstance(msg_id, tuple) else msg_id


def _template() -> dict[tuple[str | None, str], object]:
    with (LOCALE_DIR / "skitgubbe.pot").open("rb") as f:
        return {_key(m.id, m.context): m for m in read_po(f) if m.id}


def _po(lang: str):  # type: ignore[no-untyped-def]
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "skitgubbe.po").open("rb") as f:
        return read_po(f, locale=lang)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_template_holds_every_marked_message() -> None:
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {_key(msg, ctx) for _, msg, _, ctx in
             (r[:4] if len(r) >= 4 else (*r, None) for r in
              ((fn, m, c, ctx) for fn, _, m, c, ctx in
               extract_from_dir(str(ROOT / "src"), method_map, options_map, KEYWORDS)))}
    missing = found - set(_template())
    stale = set(_template()) - found
    assert not missing, f"not in skitgubbe.pot (run make catalogs): {sorted(missing, key=str)[:10]}"
    assert not stale, f"in skitgubbe.pot but in no code (run make catalogs): {sorted(stale, key=str)[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_fields(lang: str) -> None:
    po = {_key(m.id, m.context): m for m in _po(lang) if m.id}
    problems = []
    for key, m in _template().items():
        tr = po.get(key)
        if tr is None or not tr.string or (isinstance(tr.string, tuple) and not all(tr.string)):
            problems.append(f"untranslated: {key}")
            continue
        if tr.fuzzy:
            problems.append(f"fuzzy: {key}")
        ids = m.id if isinstance(m.id, tuple) else (m.id,)  # type: ignore[attr-defined]
        want = set().union(*(_fields(i) for i in ids)) if "{" in "".join(ids) else set()
        strings = tr.string if isinstance(tr.string, tuple) else (tr.string,)
        for s in strings:
            got = _fields(s) if want else set()
            if want and not got <= want or want and not isinstance(m.id, tuple) and got != want:
                problems.append(f"fields {sorted(got)} where the id has {sorted(want)}: {key}")
    assert not problems, f"{lang}: {len(problems)} problems, first: " + "; ".join(problems[:8])


def _entries(catalog: object) -> dict[tuple[str | None, object], object]:
    def plain(x: object) -> object:
        return tuple(x) if isinstance(x, (list, tuple)) else x
    return {(m.context, plain(m.id)): plain(m.string) for m in catalog}  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_source(lang: str) -> None:
    buf = io.BytesIO()
    write_mo(buf, _po(lang), use_fuzzy=True)
    buf.seek(0)
    fresh = _entries(read_mo(buf))
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "skitgubbe.mo").open("rb") as f:
        shipped = _entries(read_mo(f))
    assert shipped == fresh, f"{lang}: skitgubbe.mo is older than skitgubbe.po (run make catalogs)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_suit_order_is_a_permutation(lang: str) -> None:
    from skitgubbe.engine.i18n import suit_order_in
    assert sorted(suit_order_in(lang)) == [0, 1, 2, 3]
    po = {_key(m.id, m.context): m for m in _po(lang) if m.id}
    text = po[("suit order", "♣♦♥♠")].string
    assert sorted(text) == sorted("♣♦♥♠"), f"{lang}: the suit order must be the four symbols: {text!r}"


def test_no_python_message_is_an_f_string_inside_a_marker() -> None:
    bad = []
    for path in (ROOT / "src" / "skitgubbe").rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\b(N_|NC_|Plural)\(\s*f[\"']", line):
                bad.append(f"{path.name}:{n}")
    assert not bad, f"an f-string cannot be a message id (use {{fields}}): {bad}"
