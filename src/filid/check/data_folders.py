"""Folders a script of the package reads or copies as data, by a path built from
``__dirname`` (issue 23, after blind judges J1 and J2; docs/rules.md, "After blind judges J1
and J2").

Two layouts, one signal:

- FoalTS's CLI keeps the expected output of its code generators in ``packages/cli/specs/``
  (``rest-api/entities/index.ts``: ``export { BarFoo } from './bar-foo.entity'``, a file the
  generator's test writes beside it in a scratch folder). ``src/services/file-system/
  file-system.service.ts`` reads them: ``readFileSync(join(__dirname, '../../..', 'specs',
  path), 'utf8')``. They are golden files, compared as text.
- rancher/dashboard's extension creator ``creators/extension/pkg/init`` (the package's
  ``bin``) copies its ``files/`` into a new package: ``const src = path.join(__dirname,
  'files', file); … fs.copySync(src, dest)``, and writes that package's ``package.json``
  beside them; ``files/index.ts``'s ``require('./package.json')`` resolves there.

Decision (SPEC §0 is silent): a file lies in a **data folder** when a script of its package
(the nearest folder holding a ``package.json``: its source files and its extensionless
``bin`` scripts) calls ``join``/``resolve`` (``path.join``…) with ``__dirname`` first and
string literals after it that name a folder holding the file, and hands the result to a call
that reads or copies files (``readFileSync``, ``readFile``, ``createReadStream``,
``copy``/``copySync``, ``copyFile``/``copyFileSync``, ``cp``/``cpSync``), directly or through
a variable it initialises. An unresolved import in such a file is no claim: the file is data
the script reads or copies, resolved (if ever) where it is written. The folder must not hold
the script itself, and it is the folder the literals name, nothing wider; no file outside
it imports a file inside it (a docs script that reads ``src/`` as text does not make the
package's modules data: other files import them). A folder reached otherwise
(``require(join(__dirname, 'commands', name))`` loads modules, so their imports matter)
stays judged, as does every file outside the folder. The scripts are read with tree-sitter;
only files that mention ``__dirname`` are parsed.
"""

from __future__ import annotations

from tree_sitter import Node

from filid.check.project import Project
from filid.check.syntax_nodes import callee_name, named_calls
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError
from filid.parse.files import MAX_FILE_BYTES
from filid.parse.grammar import toolkit_for
from filid.store.files import read_regular_file

__all__ = ["DataFolders"]

_JOINS = frozenset({b"join", b"resolve"})
_READS = frozenset(
    {
        b"readFileSync",
        b"readFile",
        b"createReadStream",
        b"copy",
        b"copySync",
        b"copyFile",
        b"copyFileSync",
        b"cp",
        b"cpSync",
    }
)
_SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")


class DataFolders:
    """Answers whether a file lies in a folder a script of its package reads or copies as
    data (module docstring); each package is read once."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._folders: dict[str, frozenset[str]] = {}

    def holds(self, file: str) -> bool:
        """Whether ``file`` lies in a data folder of its package."""
        package = self._package_of(file)
        if package is None:
            return False
        folders = self._folders.get(package)
        if folders is None:
            folders = self._folders[package] = self._read_package(package)
        return any(is_within(file, folder) for folder in folders)

    def _package_of(self, file: str) -> str | None:
        directory = parent_dir(file)
        while True:
            if join_path(directory, "package.json") in self._files:
                return directory
            if directory == ".":
                return None
            directory = parent_dir(directory)

    def _read_package(self, package: str) -> frozenset[str]:
        folders: set[str] = set()
        for script in self._scripts(package):
            try:
                source = read_regular_file(self._project.root / script, MAX_FILE_BYTES)
            except (OSError, InputError):
                continue
            if b"__dirname" not in source:
                continue
            grammar = script if script.endswith(_SCRIPT_SUFFIXES) else f"{script}.js"
            root = toolkit_for(grammar).parser.parse(source).root_node
            for folder in _read_folders(root, parent_dir(script)):
                if (
                    is_within(folder, package)
                    and folder != package
                    and not is_within(script, folder)
                    and self._holds_files(folder)
                    and not self._imported_from_outside(folder)
                ):
                    folders.add(folder)
        return frozenset(folders)

    def _holds_files(self, folder: str) -> bool:
        """Whether ``folder`` is a folder of the universe (the literals may name a file)."""
        prefix = folder + "/"
        return any(f.startswith(prefix) for f in self._files)

    def _imported_from_outside(self, folder: str) -> bool:
        """Whether a file outside ``folder`` imports one inside it: then the folder's files
        are modules of the build too (a docs script that reads ``src/`` as text), not data."""
        return any(
            is_within(edge.target, folder) and not is_within(edge.source, folder)
            for edge in self._project.file_graph.edges
        )

    def _scripts(self, package: str) -> list[str]:
        """The package's source files (outside nested packages' ``node_modules``) and its
        manifest's extensionless ``bin`` scripts."""
        found = [
            f
            for f in self._files
            if is_within(f, package)
            and f.endswith(_SCRIPT_SUFFIXES)
            and not f.endswith((".d.ts", ".d.mts", ".d.cts"))
        ]
        try:
            manifest = read_jsonc_file(self._project.root, join_path(package, "package.json"))
        except InputError:
            manifest = None
        bins = manifest.get("bin") if isinstance(manifest, dict) else None
        entries = bins.values() if isinstance(bins, dict) else (bins,)
        for entry in entries:
            if isinstance(entry, str) and entry:
                path = join_path(package, entry)
                if path in self._files and not path.endswith(_SCRIPT_SUFFIXES):
                    found.append(path)
        return sorted(found)


def _read_folders(root: Node, directory: str) -> list[str]:
    """The folders (root-relative) that ``join(__dirname, 'a', …)`` calls in the tree name
    and whose result a read or copy call takes, directly or through a variable."""
    joins: list[tuple[Node, str]] = []
    read_names: set[bytes] = set()
    for name, node, values in named_calls(root):
        if name in _READS:
            read_names.update(v.text for v in values if v.type == "identifier" and v.text)
        elif name in _JOINS:
            folder = _dirname_folder(values, directory)
            if folder is not None:
                joins.append((node, folder))
    found: list[str] = []
    for node, folder in joins:
        parent = node.parent
        if parent is None:
            continue
        if parent.type == "arguments":
            call = parent.parent
            if call is not None and callee_name(call) in _READS:
                found.append(folder)
        elif parent.type == "variable_declarator":
            target = parent.child_by_field_name("name")
            if target is not None and target.type == "identifier" and target.text in read_names:
                found.append(folder)
    return found


def _dirname_folder(values: list[Node], directory: str) -> str | None:
    """The folder ``join(__dirname, 'a', 'b', …)`` names from a script in ``directory``: the
    string literals right after ``__dirname`` (at least one), up to the first other
    argument."""
    if not values or values[0].type != "identifier" or values[0].text != b"__dirname":
        return None
    segments: list[str] = []
    for value in values[1:]:
        if value.type != "string":
            break
        fragments = [c for c in value.named_children if c.type != "comment"]
        if len(fragments) != 1 or fragments[0].type != "string_fragment":
            break
        segments.append((fragments[0].text or b"").decode("utf-8", "replace"))
    if not segments:
        return None
    folder = join_path(directory, "/".join(segments))
    if folder.startswith(("../", "/")) or folder == "..":
        return None
    return folder
