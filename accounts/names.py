"""What a display name may be (issue #26): text a player reads as it is written.

A name shown at a table is read by everyone seated there, so it may not carry characters
that change how the text around it is read (a right-to-left override, U+202E, turns
"gnp.exe" into "exe.png", and the seat names beside it with it) or that cannot be seen
at all, and it may not be another player's username, which would let one pass for the
other. Checked in :meth:`accounts.models.Profile.clean`, so the profile form and the
admin both refuse them.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# The joiners Urdu and Hindi spelling needs (U+200C keeps two Urdu letters apart, U+200D
# makes a Devanagari half form): format characters (Cf) allowed between two letters or
# marks, where they change a letter's shape and nothing else.
JOINERS = frozenset("\u200c\u200d")
# Categories refused outright: controls (Cc), format characters (Cf: the bidi embeddings,
# overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E, U+200F and
# U+061C, zero-width spaces, the BOM), line and paragraph separators (Zl, Zp), private
# use (Co), surrogates (Cs) and unassigned code points (Cn).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
# The bidi controls by their Unicode bidi class, should a later Unicode add one elsewhere.
BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})

CONTROL_MESSAGE = _(
    "A display name cannot hold invisible or direction-changing characters. "
    "Type it again with letters, numbers and spaces."
)
USERNAME_MESSAGE = _(
    "That is another player's username. Choose a name of your own."
)


def _is_letter_or_mark(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def hidden_characters(name: str) -> list[str]:
    """The characters of ``name`` a display name may not hold, as U+XXXX codes."""
    found = []
    for i, char in enumerate(name):
        if char in JOINERS:
            between_letters = (
                0 < i < len(name) - 1
                and _is_letter_or_mark(name[i - 1])
                and _is_letter_or_mark(name[i + 1])
            )
            if between_letters:
                continue
        elif (
            unicodedata.category(char) not in REFUSED_CATEGORIES
            and unicodedata.bidirectional(char) not in BIDI_CONTROLS
        ):
            continue
        found.append(f"U+{ord(char):04X}")
    return found


def as_username(name: str) -> str:
    """``name`` as a username it would pass for: compatibility forms folded (NFKC, as
    Django folds usernames) and the invisible joiners dropped. Compared without case."""
    folded = unicodedata.normalize("NFKC", name)
    return "".join(c for c in folded if c not in JOINERS)


def check_display_name(name: str, *, taken_username: bool) -> None:
    """Raise ValidationError when ``name`` may not be a display name. ``taken_username``:
    whether it is another player's username (the caller asks the database)."""
    if hidden_characters(name):
        raise ValidationError(CONTROL_MESSAGE, code="hidden_characters")
    if taken_username:
        raise ValidationError(USERNAME_MESSAGE, code="username_taken")
