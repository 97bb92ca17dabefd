"""Imports a build config's alias resolves to an existing file, whatever a tsconfig's
``paths`` says (issue 23, judge round K2, firebase/quickstart-js).

``dataconnect/app/src/components/navbar.tsx`` imports ``'@/assets/firebase_logo.svg'``. Its
tsconfig maps ``"@/assets/*": ["assets/*"]`` (no ``src/``: nothing there), so tsc's lookup
misses; but ``vite build`` never reads those ``paths`` (no vite-tsconfig-paths plugin): its
``vite.config.ts`` has ``resolve: { alias: { '@': path.resolve(__dirname, 'src') } }``,
which finds ``src/assets/firebase_logo.svg``. ``check.toolchain_resolved`` trusts a config
that merely spells the alias's key only for files no tsconfig compiles; a compiled file
needs this stronger proof.

Decision (SPEC §0 is silent): a bare specifier is no claim when a build tool config
(``*.config.*``) in the importer's folder or above has an ``alias`` property whose entry maps
a leading part of the specifier to a folder where the rest names an existing file (the
specifier as written, or with a source, ``.json`` or ``.vue`` extension, or a folder's
``index``). An entry is ``'key': <target>`` (or ``key: <target>``) of an ``alias`` object,
or ``{ find: 'key', replacement: <target> }`` of an ``alias`` array; the key matches the
specifier itself or the specifier's part before a ``/`` (the rule of @rollup/plugin-alias
and webpack). The target must be spelled so that filid can compute it without running the
config: ``path.resolve(__dirname, 'src')`` or ``join`` (``__dirname``,
``import.meta.dirname`` or nothing, then string literals), ``fileURLToPath(new
URL('./src', import.meta.url))``, or a string starting with ``/`` or ``./`` in a Vite
config (Vite takes those from its root, the config's folder). An alias whose folder holds
no such file, and an alias filid cannot compute, leave the import a claim. The config is
parsed with tree-sitter, read once (at most ``MAX_CONFIG_BYTES``).
"""

from __future__ import annotations

import os
from pathlib import Path

from tree_sitter import Node

from filid.check.bundler_aliases import MAX_CONFIG_BYTES
from filid.check.config_properties import config_properties
from filid.check.syntax_nodes import callee_name
from filid.graph import SOURCE_EXTENSIONS
from filid.graph.compiler_paths import join_path, parent_dir
from filid.model.errors import InputError
from filid.parse.grammar import toolkit_for
from filid.store.files import read_regular_file

__all__ = ["AliasTargets"]

_PATH_CALLS = frozenset({b"resolve", b"join"})
_DIRNAMES = frozenset({b"__dirname", b"import.meta.dirname"})
_PROBED = (*SOURCE_EXTENSIONS, ".json", ".vue")


class AliasTargets:
    """Answers whether a build config's alias maps a specifier to an existing file."""

    def __init__(self, root: Path, configs: dict[str, list[str]]) -> None:
        self._root = root
        self._configs = configs
        self._aliases: dict[str, tuple[tuple[str, str], ...]] = {}

    def resolves(self, importer: str, specifier: str) -> bool:
        """Whether an alias of a config in ``importer``'s folder or above maps ``specifier``
        to a file that exists (module docstring)."""
        if specifier.startswith((".", "/")) or "?" in specifier:
            return False
        directory = parent_dir(importer)
        while True:
            for config in self._configs.get(directory, ()):
                for key, folder in self._read(config):
                    if specifier == key:
                        rest = ""
                    elif specifier.startswith(key.rstrip("/") + "/"):
                        rest = specifier[len(key.rstrip("/")) + 1 :]
                    else:
                        continue
                    if self._exists(join_path(folder, rest) if rest else folder):
                        return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _exists(self, path: str) -> bool:
        if path.startswith("../") or path in ("", "."):
            return False
        return any(
            os.path.isfile(self._root / candidate)
            for candidate in (
                path,
                *(path + e for e in _PROBED),
                *(f"{path}/index{e}" for e in _PROBED),
            )
        )

    def _read(self, config: str) -> tuple[tuple[str, str], ...]:
        """(key, root-relative folder or file) of every alias entry ``config`` spells."""
        known = self._aliases.get(config)
        if known is not None:
            return known
        try:
            source = read_regular_file(self._root / config, MAX_CONFIG_BYTES)
        except (OSError, InputError):
            source = b""
        found: list[tuple[str, str]] = []
        if source:
            vite = config.rpartition("/")[2].startswith("vite.config.")
            base = parent_dir(config)
            tree = toolkit_for(config).parser.parse(source).root_node
            for key, value in config_properties(tree):
                if key.strip(b"'\"") != b"alias":
                    continue
                for name, target in _entries(value):
                    folder = _folder(target, vite)
                    if name and folder is not None:
                        found.append((name, join_path(base, folder)))
        answer = tuple(found)
        self._aliases[config] = answer
        return answer


def _entries(value: Node) -> list[tuple[str, Node]]:
    """(key, target node) of an ``alias`` object's properties or an ``alias`` array's
    ``{ find, replacement }`` objects (a string ``find`` only)."""
    found: list[tuple[str, Node]] = []
    if value.type == "object":
        for pair in value.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            target = pair.child_by_field_name("value") if pair.type == "pair" else None
            if key is None or target is None:
                continue
            if key.type == "string":
                found.append((_string(key), target))
            elif key.type == "property_identifier" and key.text is not None:
                found.append((key.text.decode("utf-8", "replace"), target))
    elif value.type == "array":
        for item in value.named_children:
            if item.type != "object":
                continue
            fields: dict[str, Node] = {}
            for pair in item.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                target = pair.child_by_field_name("value") if pair.type == "pair" else None
                if key is not None and target is not None and key.text is not None:
                    fields[key.text.decode("utf-8", "replace").strip("'\"")] = target
            find, replacement = fields.get("find"), fields.get("replacement")
            if find is not None and replacement is not None and find.type == "string":
                found.append((_string(find), replacement))
    return found


def _folder(node: Node, vite: bool) -> str | None:
    """The config-relative path ``node`` computes (module docstring), or None."""
    if node.type == "string":
        text = _string(node)
        if vite and text.startswith(("/", "./")) and not text.startswith("//"):
            return join_path(".", text.lstrip("/") or ".")
        return None
    if node.type != "call_expression":
        return None
    name = callee_name(node)
    arguments = node.child_by_field_name("arguments")
    if arguments is None:
        return None
    values = [a for a in arguments.named_children if a.type != "comment"]
    if name in _PATH_CALLS:
        if values and (values[0].text or b"") in _DIRNAMES:
            values = values[1:]
        if not values or any(v.type != "string" for v in values):
            return None
        parts = [_string(v) for v in values]
        if any(p.startswith("/") for p in parts):
            return None
        return join_path(".", "/".join(parts))
    if name == b"fileURLToPath" and len(values) == 1 and values[0].type == "new_expression":
        url = values[0]
        constructor = url.child_by_field_name("constructor")
        inner = url.child_by_field_name("arguments")
        if constructor is None or constructor.text != b"URL" or inner is None:
            return None
        given = [a for a in inner.named_children if a.type != "comment"]
        if (
            len(given) == 2
            and given[0].type == "string"
            and given[1].text == b"import.meta.url"
            and _string(given[0]).startswith(("./", "../"))
        ):
            return join_path(".", _string(given[0]))
    return None


def _string(node: Node) -> str:
    """The text of a string literal without its quotes (escapes left as written)."""
    return "".join(
        (c.text or b"").decode("utf-8", "replace")
        for c in node.named_children
        if c.type == "string_fragment"
    )
