"""Find English words a reader of an Urdu or Hindi page would see.

Reads text nodes and the attributes that are read out or shown (placeholder, title,
aria-label, alt, a button's value), skipping scripts, styles, and any element marked with
a different ``lang`` (the language switcher names each language in itself).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SHOWN_ATTRIBUTES = {"placeholder", "title", "aria-label", "alt"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
URL_OR_EMAIL = re.compile(r"(https?://\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+|/[\w/.-]*/)")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


class _Visible(HTMLParser):
    def __init__(self, page_lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = page_lang
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden from the check)
        self.texts: list[str] = []

    def _hidden(self) -> bool:
        return any(hidden for _tag, hidden in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = values.get("lang")
        hidden = tag in {"script", "style"}
        hidden = hidden or (lang is not None and lang != self.page_lang)
        if not self._hidden() and not hidden:
            for name in SHOWN_ATTRIBUTES:
                if values.get(name):
                    self.texts.append(values[name] or "")
            is_button = values.get("type") in {"submit", "button"}
            if tag == "input" and is_button and values.get("value"):
                self.texts.append(values["value"] or "")
        if tag not in VOID:
            self.stack.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self.texts.append(data)


def english_words(html: str, page_lang: str, allowed: set[str] = frozenset()) -> list[str]:
    """Latin-letter words left on the page, minus URLs, email addresses and ``allowed``
    (the test's own usernames, say)."""
    parser = _Visible(page_lang)
    parser.feed(html)
    words: list[str] = []
    for text in parser.texts:
        for word in LATIN_WORD.findall(URL_OR_EMAIL.sub(" ", text)):
            if word not in allowed:
                words.append(word)
    return words


def english_lines(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """Lines of a plain-text email that still contain English words."""
    return [
        line for line in text.splitlines()
        if [w for w in LATIN_WORD.findall(URL_OR_EMAIL.sub(" ", line)) if w not in allowed]
    ]
