"""Faces that load what they name (PEP 562): ``hall/__init__.py`` and ``hall/minigames/__init__.py``.

A face lists its names once, as the imports of its ``if TYPE_CHECKING:`` block (the checker and the editors read
them there); ``loader`` reads that same block on the first name asked and imports only the module that holds it,
so ``import hall.refusal`` runs no door and no journal. Standard library only, below every floor: the mini-games
use it too, and they may import nothing of the loto.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping


def _origins(path: str) -> dict[str, tuple[str, str]]:
    """``name → (module, attribute)`` from the first ``if TYPE_CHECKING:`` block of the face at ``path``."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(path).read_text(encoding="utf-8"), path)
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {
        alias.asname or alias.name: (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def loader(
    name: str, path: str, namespace: MutableMapping[str, object]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The face's ``__getattr__`` and ``__dir__``: the first ``from <face> import x`` imports x's module and keeps
    x in the face's ``namespace``, so it is asked once."""
    found: list[dict[str, tuple[str, str]]] = []  # read once; appended whole, so a second thread never sees half

    def __getattr__(attr: str) -> object:
        if not found:
            found.append(_origins(path))
        origin = found[0].get(attr)
        if origin is None:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        import importlib

        value = getattr(importlib.import_module(origin[0]), origin[1])
        namespace[attr] = value
        return value

    def __dir__() -> list[str]:
        listed = namespace.get("__all__", ())
        return sorted(set(namespace) | set(listed if isinstance(listed, (list, tuple)) else ()))

    return __getattr__, __dir__
