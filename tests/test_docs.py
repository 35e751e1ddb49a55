"""docs/RULES.md is the repository's own rule book: every rule ID that the code, the tests or
the guide cite has an entry there, so a new citation without one fails here.

A citation is an ID in any text (`# CP-HID-4`, "RULES.md CP-SS-5") or in a test's name as
the tests are named (`test_cp_hid_4_…`, `test_bg_14_…`). An entry is a list item that starts with
the ID in bold (`- **CP-HID-4** …`).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
CITING = ("game", "tests", "guide")
SUFFIXES = (".py", ".md", ".html", ".txt")
SKIP_DIRS = {"__pycache__", ".hypothesis", "node_modules"}

ID_IN_TEXT = re.compile(r"\b(?:CP|BG)(?:-[A-Z]+)*-\d+[a-z]?\b")
ID_IN_TEST_NAME = re.compile(r"\btest_(cp|bg)((?:_[a-z]+)?)_(\d+[a-z]?)(?![a-z0-9])")
ENTRY = re.compile(r"^- \*\*((?:CP|BG)(?:-[A-Z]+)*-\d+[a-z]?)\*\*", re.M)
FAMILY_HEADING = re.compile(r"^#{2,3} .*\(((?:CP|BG)(?:-[A-Z]+)*)-\*\)\s*$")


def cited_ids(root: Path = ROOT, folders: tuple[str, ...] = CITING) -> dict[str, str]:
    """Rule ID -> the first file (relative to ``root``) that cites it."""
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if (
                not path.is_file()
                or path.suffix not in SUFFIXES
                or SKIP_DIRS & set(path.parts)
                or path == Path(__file__).resolve()  # this checker cites no rule
            ):
                continue
            text = path.read_text(encoding="utf-8")
            ids = set(ID_IN_TEXT.findall(text))
            ids |= {
                "-".join(part for part in (game.upper(), section[1:].upper(), number) if part)
                for game, section, number in ID_IN_TEST_NAME.findall(text)
            }
            for rule_id in ids:
                found.setdefault(rule_id, str(path.relative_to(root)))
    return found


def documented_ids(text: str) -> list[str]:
    return ENTRY.findall(text)


def undocumented(root: Path = ROOT, rules_text: str | None = None) -> dict[str, str]:
    text = RULES.read_text(encoding="utf-8") if rules_text is None else rules_text
    documented = set(documented_ids(text))
    return {i: where for i, where in sorted(cited_ids(root).items()) if i not in documented}


def test_every_cited_rule_id_is_documented() -> None:
    assert undocumented() == {}, "add an entry for each to docs/RULES.md"


def test_the_scan_finds_citations_in_every_form() -> None:
    cited = cited_ids()
    assert cited["CP-HID-5"]  # comments in game/ and tests
    assert cited["CP-RUNG-5a"]  # a lettered rule
    # Cited only by test names (test_bg_5_…): the name form is read too.
    assert "BG-5" in cited
    assert len(cited) >= 60


def test_a_new_citation_without_an_entry_fails(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "new.py").write_text("x = 1  # CP-RUNG-3, CP-ZZ-9\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_new.py").write_text(
        "def test_bg_99_new() -> None: ...\ndef test_cp_hid_12b_new() -> None: ...\n",
        encoding="utf-8",
    )
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "page.md").write_text("As CP-1 says.\n", encoding="utf-8")
    entries = "- **CP-1** …\n- **CP-RUNG-3** …\nCP-ZZ-9 is mentioned, but not an entry.\n"
    assert undocumented(tmp_path, entries) == {
        "BG-99": "tests/test_new.py",
        "CP-HID-12b": "tests/test_new.py",
        "CP-ZZ-9": "game/new.py",
    }


def test_each_rule_has_one_entry_in_its_own_section() -> None:
    family = None
    misplaced = []
    entries: list[str] = []
    for line in RULES.read_text(encoding="utf-8").splitlines():
        heading = FAMILY_HEADING.match(line)
        if heading:
            family = heading.group(1)
        elif line.startswith("#"):
            family = None  # "Not planned", "Choices…": no rule entries belong there
        for rule_id in documented_ids(line):
            entries.append(rule_id)
            if family is None or not re.fullmatch(rf"{family}-\d+[a-z]?", rule_id):
                misplaced.append(rule_id)
    assert misplaced == []
    assert sorted(entries) == sorted(set(entries))
    assert len(entries) >= 60


def test_the_docs_point_inside_the_repository() -> None:
    for name in ("README.md", "Makefile", "docs/RULES.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "shared/" not in text, name
        assert "seeds/" not in text, name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/RULES.md", "docs/ENGINE_CONTRACT.md", "docs/TABLE_PROTOCOL.md"):
        assert doc in readme and (ROOT / doc).is_file(), doc


CONTRACTS = re.compile(r"(?<![\w/])(ENGINE_CONTRACT|TABLE_PROTOCOL)(\.md)?\b")
FOREIGN = ("COMMON.md", "shared/", "decisions document")


def test_code_cites_the_contracts_by_their_place_in_the_repository() -> None:
    """A comment or docstring names docs/ENGINE_CONTRACT.md, not a file only some
    checkout beside the repository has."""
    wrong = []
    for folder in ("game", "tutorials", "guide", "accounts", "site", "bench", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "test_docs.py":
                continue  # this file names them to look for them
            text = path.read_text(encoding="utf-8")
            for n, line in enumerate(text.splitlines(), 1):
                if CONTRACTS.search(line) or any(f in line for f in FOREIGN):
                    wrong.append(f"{path.relative_to(ROOT)}:{n}")
    assert wrong == []


# A path to a test or a build script, as comments and docs name them ("tests/browser/…py").
NAMING_FOLDERS = ("game", "tutorials", "guide", "accounts", "site", "bench", "scripts", "docs")
NAMING_FOLDERS += ("tests", "templates")
NAMED_FILE = re.compile(r"(?<![\w/.-])((?:tests|scripts)/[\w/.-]*\w\.(?:py|sh|js|md))\b")


def named_files_missing(root: Path = ROOT) -> list[str]:
    """`file:line: path` for each test or script path named in the code or the docs that
    is not in the repository (a renamed or merged test file leaves such pointers behind)."""
    sources = [root / name for name in ("README.md", "Makefile", "pyproject.toml")]
    for folder in NAMING_FOLDERS:
        sources += sorted((root / folder).rglob("*"))
    missing = []
    for path in sources:
        if (
            not path.is_file()
            or path.suffix not in {*SUFFIXES, ".toml", ".sh", ".js", ""}
            or SKIP_DIRS & set(path.parts)
            or path == Path(__file__).resolve()  # names made-up files for its own checks
        ):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for named in NAMED_FILE.findall(line):
                if not (root / named).is_file():
                    missing.append(f"{path.relative_to(root)}:{n}: {named}")
    return missing


def test_every_test_or_script_a_comment_names_exists() -> None:
    assert named_files_missing() == []


def test_a_pointer_to_a_missing_test_file_is_found(tmp_path: Path) -> None:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "figures.py").write_text(
        "# tests/browser/test_finish.py and tests/browser/test_gone.py check this\n",
        encoding="utf-8",
    )
    (tmp_path / "tests" / "browser").mkdir(parents=True)
    (tmp_path / "tests" / "browser" / "test_finish.py").write_text("", encoding="utf-8")
    assert named_files_missing(tmp_path) == ["guide/figures.py:1: tests/browser/test_gone.py"]
