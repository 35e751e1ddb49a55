"""Module boundaries in the pure packages: no import circles, no borrowed private names.

A module of ``game/engine`` or ``game/bots`` imports nothing that imports it back, type
checking imports included (the Court Piece pieces once read a ``Hand`` that depended on
them). And no module of the engines, the bots or their tests uses another module's
private name (a leading underscore): what another module needs gets a public name, or
the test goes through the public surface.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PURE = ("game.engine", "game.bots")
SCANNED = ("game/engine", "game/bots", "tests/engine", "tests/bots")
# Underscored by the standard library to keep them apart from field names, public there.
PUBLIC_BY_CONVENTION = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})


def import_circles() -> list[str]:
    """Each direct import a -> b between pure modules where b also leads back to a."""
    graph = grimp.build_graph("game")  # TYPE_CHECKING imports count (grimp's default)
    modules = {m for m in graph.modules if m.startswith(PURE)}
    return sorted(
        f"{a} -> {b}"
        for a in modules
        for b in graph.find_modules_directly_imported_by(a) & modules
        if graph.chain_exists(importer=b, imported=a)
    )


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def private_uses(path: Path) -> list[str]:
    """Another module's private names used in ``path``: imported (``from m import _x``),
    read off an imported name (``m._x``, ``Class._x``), or read off anything as an
    attribute this module never defines (``obj._x``: it must come from elsewhere). A name
    that both modules define, read off an object, is beyond this check."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    imported: set[str] = set()
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            defined.add(node.attr)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            defined.add(node.value)  # __slots__ entries, fields set through __dict__
    found = []
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno} imports {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno} imports {alias.name}")
        elif (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and node.attr not in PUBLIC_BY_CONVENTION
        ):
            base = node.value
            from_import = isinstance(base, ast.Name) and base.id in imported
            if from_import or node.attr not in defined:
                found.append(f"{where}:{node.lineno} uses {ast.unparse(base)}.{node.attr}")
    return found


def test_no_pure_module_imports_one_that_imports_it() -> None:
    assert import_circles() == []


def test_no_module_uses_another_modules_private_names() -> None:
    paths = sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))
    assert len(paths) > 40
    assert [use for p in paths for use in private_uses(p)] == []


def test_the_private_name_check_itself_catches_each_kind_of_use(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from game.engine.courtpiece.hand import _trick_winner\n"
        "from game.bots import courtpiece as bot\n"
        "bot._Play(view, legal)\n"  # an imported module's private name
        "hand._legal\n"  # an attribute this module never defines
        "class _Own:\n"
        "    _own = 1\n"
        "    def f(self, pos):\n"
        "        return self._own, _Own._own, pos._replace(mine=0)\n"  # all fine
    )
    assert sorted(line.split(" ", 1)[1] for line in private_uses(bad)) == [
        "imports _trick_winner",
        "uses bot._Play",
        "uses hand._legal",
    ]
