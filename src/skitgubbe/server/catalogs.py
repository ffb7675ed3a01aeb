"""The message catalogs for the page, and Babel's extractor for the page's HTML.

The page (static/i18n.js) reads the same gettext catalogs as the rest of the project, as JSON:
:func:`page_catalog` turns a compiled catalog (``skitgubbe/locale/LANG/LC_MESSAGES/skitgubbe.mo``)
into ``{"lang", "messages"}``, where ``messages`` maps a message id (``context\\x04id`` for one
with a context) to its translation, or a plural id to its list of forms.  Every shipped
language's plural rule is English's (one form for 1, another for the rest), so the page needs
no plural formula.

:func:`extract_html` is a Babel extraction method (babel.cfg): in index.html an element with a
``data-t`` attribute has its text (whitespace collapsed) as a message id, and ``data-t-attrs``
names attributes (comma-separated) whose values are message ids.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Mapping
from functools import cache
from html.parser import HTMLParser
from typing import IO, Any

from babel.messages.mofile import read_mo

from ..engine.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

__all__ = ["page_catalog", "extract_html"]


@cache
def page_catalog(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`) as the page reads
    it: ``{"lang": lang, "messages": {id: text or [one, many]}}``; English's is empty (the ids
    are English).  Raises ``KeyError`` for a language not shipped."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    messages: dict[str, Any] = {}
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang != "en" and path.exists():
        with path.open("rb") as f:
            catalog = read_mo(f)
        for m in catalog:
            if not m.id or not m.string:
                continue
            value: Any
            if isinstance(m.id, (tuple, list)):
                forms = list(m.string)
                if not all(forms):
                    continue
                key = str(m.id[0])
                value = forms
            else:
                key = str(m.id)
                value = m.string
            messages[f"{m.context}\x04{key}" if m.context else key] = value
    return {"lang": lang, "messages": messages}


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[tuple[str, int, list[str]]] = []  # (tag, line, text parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-t-attrs") or "").split(","):
            value = a.get(name.strip())
            if name.strip() and value:
                self.found.append((line, " ".join(value.split())))
        if "data-t" in a:
            self.open.append((tag, line, []))
        elif self.open and tag not in ("br", "img", "input", "meta", "link"):
            self.open.append((tag, -1, []))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            t, line, parts = self.open.pop()
            if line >= 0:
                text = " ".join("".join(parts).split())
                if text:
                    self.found.append((line, text))
            elif self.open:
                self.open[-1][2].extend(parts)
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][2].append(data)


def extract_html(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Generator[tuple[int, str, str, list[str]], None, None]:
    """Babel extraction method for index.html (babel.cfg names it ``html`` in ``[extractors]``:
    Babel cannot take a ``module:function`` in a section's name).  Yields ``(line, "", message id,
    [])`` for each ``data-t`` element's text and each ``data-t-attrs`` attribute."""
    finder = _Finder()
    finder.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    finder.close()
    for line, text in sorted(finder.found):
        yield line, "", text, []
