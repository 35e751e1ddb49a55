"""Compile every locale/*/LC_MESSAGES/*.po into .mo with polib.

Django's `compilemessages` needs GNU gettext's msgfmt on the machine; polib is a pip
dependency, so a fresh clone gets working translations with no manual step.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    count = 0
    for po_path in sorted(ROOT.glob("**/locale/*/LC_MESSAGES/*.po")):
        if ".venv" in po_path.parts:
            continue
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        count += 1
    print(f"compiled {count} message catalogue(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
