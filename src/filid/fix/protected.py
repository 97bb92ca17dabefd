"""What a fix may not touch: paths whose name or place means something to another tool.

A move, rename or new entry file is refused (with the reason in the plan) when a path it
touches is

- in the route tree of a file-routing framework (Next.js, Remix, SvelteKit, Nuxt, Astro: the
  ``pages``/``app``/``routes`` folders of a package that depends on one), where a folder or
  file name is a URL and a new ``index`` file is a new page;
- named like a route segment anywhere (``[slug]``, ``[...nextauth]``, ``(group)``, ``@slot``,
  ``_app``, ``_document``, ``+page``…);
- a migration (a ``migrations`` folder, or a folder named by a timestamp such as Prisma's
  ``20240101120000_init``), whose name orders what a database has applied;
- a documentation-site folder whose name the site generator reads (Docusaurus
  ``versioned_docs``/``versioned_sidebars``, a swizzled ``src/theme`` beside
  ``docusaurus.config.*``);
- a framework's special file, which the framework loads by name from the package root or
  its ``src/`` (the package depends on the framework): Next.js ``middleware``, ``proxy``,
  ``instrumentation``, ``instrumentation-client``, ``mdx-components``; SvelteKit ``hooks``,
  ``hooks.server``, ``hooks.client``, ``service-worker``; Nuxt ``app``, ``error``,
  ``app.config``; Astro ``middleware``, ``content.config``; Remix and React Router ``root``,
  ``entry.client``, ``entry.server``, ``routes`` (under ``app/``); SolidStart ``app``,
  ``entry-client``, ``entry-server``, ``middleware``; Gatsby ``gatsby-config``,
  ``gatsby-node``, ``gatsby-browser``, ``gatsby-ssr``;
- a tool configuration itself (``*.config.*``, ``.*rc.*``), which its tool looks up by name;
- declared by a ``package.json`` (``main``, ``module``, ``types``, ``exports``, ``bin``,
  ``files``), named by one of its ``scripts`` (``node server.mjs``), by a ``Dockerfile`` or
  ``Procfile`` beside the project's files, or named in a tool configuration
  (``*.config.*``, ``tsconfig*.json``, ``jsconfig*.json``, ``turbo.json``, ``project.json``):
  the text spells the path (root- or file-relative, with or without its extension). filid
  does not rewrite such references, so it leaves the path alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from filid.config.globs import matches_glob, matches_glob_exactly
from filid.graph.compiler_paths import join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.resolve import Resolver
from filid.model.errors import FilidError
from filid.model.jsontext import loads as json_loads
from filid.store.files import UnsafePathError, read_regular_file

__all__ = ["Protection"]

_ROUTE_SEGMENT = re.compile(r"^(\[.*\]|\(.*\)|@.+)$")
_ROUTE_FILE = re.compile(r"^(_app|_document|_error|_middleware|\+[a-z.@-]+)(\.[^/]*)?$")
_TIMESTAMPED = re.compile(r"^\d{8,}")
_MIGRATION_DIRS = frozenset({"migrations", "migration"})
_DOC_SITE_DIRS = frozenset({"versioned_docs", "versioned_sidebars"})
# Matched against a file's name (its last path segment).
_CONFIG_NAME = re.compile(
    r"([^/]+\.config\.[^/]+|tsconfig[^/]*\.json|jsconfig[^/]*\.json|turbo\.json"
    r"|project\.json)$"
)
_MAX_CONFIG_BYTES = 1024 * 1024
# A tool's own configuration, found by its name (``vite.config.ts``, ``.eslintrc.cjs``).
_TOOL_CONFIG = re.compile(r"^([^/]+\.config(\.[^/]+)?|\.[^/]+rc(\.[^/]+)?)$")
# Files that start processes by naming a path (``CMD ["node", "server.mjs"]``, ``web: …``).
_PROCESS_FILE = re.compile(r"^(Dockerfile([.-][^/]*)?|[^/]+\.[Dd]ockerfile|Procfile)$")
# Special files by framework (package name → file stems the framework loads by name) and the
# folders of the package (relative to its package.json) where it looks for them.
_SPECIAL_FILES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "next": (
        ("middleware", "proxy", "instrumentation", "instrumentation-client", "mdx-components"),
        (".", "src"),
    ),
    "@sveltejs/kit": (
        ("hooks", "hooks.server", "hooks.client", "service-worker", "app.d", "app"),
        ("src",),
    ),
    "nuxt": (("app", "error", "app.config"), (".", "app")),
    "astro": (("middleware", "content.config", "env.d"), ("src",)),
    "@remix-run/dev": (("root", "entry.client", "entry.server", "routes"), ("app",)),
    "@remix-run/react": (("root", "entry.client", "entry.server", "routes"), ("app",)),
    "@react-router/dev": (("root", "entry.client", "entry.server", "routes"), ("app",)),
    "@solidjs/start": (("app", "entry-client", "entry-server", "middleware"), ("src",)),
    "gatsby": (("gatsby-config", "gatsby-node", "gatsby-browser", "gatsby-ssr"), (".",)),
}
_SOURCE_EXTENSION = re.compile(r"\.(d\.)?[cm]?[jt]sx?$")


class Protection:
    """Answers "may a fix move or create this path?" for one project."""

    def __init__(self, root: Path, files: Iterable[str], resolver: Resolver) -> None:
        self._root = root
        self._files = frozenset(files)
        self._includes: dict[str, tuple[str, ...]] = {}
        self._routes = resolver.route_directories()
        self._entries = resolver.manifest_entry_files()
        self._configs = self._read_configs(root)
        self._special: dict[str, str] = {}
        self._declared = self._manifest_files(root)
        self._configs.update(self._process_files(root))
        # every config's text in one string: a stem none of them holds is out in one search
        self._all_configs = "\0".join(self._configs.values())

    def _read_configs(self, root: Path) -> dict[str, str]:
        texts: dict[str, str] = {}
        # the few names that match, sorted (not every file sorted, then matched); a name
        # without "config" matches only as the whole of turbo.json or project.json
        for path in sorted(
            p
            for p in self._files
            if ("config" in p or p.endswith(("turbo.json", "project.json")))
            and _CONFIG_NAME.match(p.rpartition("/")[2])
        ):
            try:
                # Never a blocking open: a FIFO named like a config would hang the planner.
                data = read_regular_file(root / path, _MAX_CONFIG_BYTES)
            except (OSError, UnsafePathError):
                continue
            texts[path] = data.decode("utf-8", "replace")
        return texts

    def _manifest_files(self, root: Path) -> dict[str, str]:
        """Paths listed in each ``package.json``'s ``files`` field, with the manifest."""
        declared: dict[str, str] = {}
        for manifest in sorted(f for f in self._files if f.rpartition("/")[2] == "package.json"):
            try:
                data = json_loads(read_regular_file(root / manifest, _MAX_CONFIG_BYTES))
            except (OSError, ValueError, UnsafePathError):
                continue
            if not isinstance(data, dict):
                continue
            base = parent_dir(manifest)
            self._note_special_files(base, data)
            scripts = data.get("scripts")
            if isinstance(scripts, dict):
                commands = [v for _, v in sorted(scripts.items()) if isinstance(v, str)]
                self._configs[f"{manifest} (scripts)"] = "\n".join(commands)
            listed = data.get("files")
            if not isinstance(listed, list):
                continue
            for item in listed:
                if isinstance(item, str) and item.strip() and "*" not in item:
                    cleaned = item.strip().removeprefix("./").rstrip("/")
                    declared[cleaned if base == "." else f"{base}/{cleaned}"] = manifest
        return declared

    def _note_special_files(self, base: str, manifest: dict[str, object]) -> None:
        """Record the special files of the frameworks ``manifest`` (in ``base``) depends on."""
        for field_name in ("dependencies", "devDependencies", "peerDependencies"):
            deps = manifest.get(field_name)
            if not isinstance(deps, dict):
                continue
            for framework in sorted(set(deps) & _SPECIAL_FILES.keys()):
                stems, folders = _SPECIAL_FILES[framework]
                for folder in folders:
                    where = join_path(base, folder)
                    for stem in stems:
                        key = stem if where == "." else f"{where}/{stem}"
                        self._special.setdefault(key, framework)

    def _process_files(self, root: Path) -> dict[str, str]:
        """The texts of the project's Dockerfiles and Procfiles (by path): those among its
        listed files (asking the disk folder by folder cost one ``scandir`` per folder, 26,000
        at 50,000 files, for what the listing already names)."""
        texts: dict[str, str] = {}
        for path in sorted(
            p
            for p in self._files
            if ("ockerfile" in p or p.endswith("Procfile"))
            and _PROCESS_FILE.match(p.rpartition("/")[2])
        ):
            try:
                data = read_regular_file(root / path, _MAX_CONFIG_BYTES)
            except (OSError, UnsafePathError):
                continue
            texts[path] = data.decode("utf-8", "replace")
        return texts

    def reason(self, paths: Iterable[str]) -> str | None:
        """Why a fix must not move or create any of ``paths`` (``None``: it may)."""
        for path in sorted(set(paths)):
            found = self._reason(path)
            if found is not None:
                return found
        return None

    def _reason(self, path: str) -> str | None:
        segments = path.split("/")
        for route in self._routes:
            if path == route or path.startswith(route + "/"):
                return f"{path} is in the route tree {route}/ (its names are URLs)"
        for segment in segments[:-1]:
            if _ROUTE_SEGMENT.match(segment):
                return f"{path} is in a route segment folder ({segment})"
        if _ROUTE_SEGMENT.match(segments[-1]) or _ROUTE_FILE.match(segments[-1]):
            return f"{path} is named like a route or framework file ({segments[-1]})"
        for depth, segment in enumerate(segments):
            if segment in _MIGRATION_DIRS or (
                depth < len(segments) - 1 and _TIMESTAMPED.match(segment)
            ):
                return f"{path} is in a migration folder ({segment}); its name orders migrations"
            if segment in _DOC_SITE_DIRS:
                return f"{path} is in {segment}/, a folder its documentation site reads by name"
            if segment == "theme" and depth > 0 and segments[depth - 1] == "src":
                site = "/".join(segments[: depth - 1]) or "."
                if any(
                    self._is_file(site, f"docusaurus.config{e}") for e in (".js", ".ts", ".mjs")
                ):
                    return f"{path} is a swizzled Docusaurus theme component (src/theme/)"
        name = segments[-1]
        framework = self._special.get(_SOURCE_EXTENSION.sub("", path))
        if framework is not None and _SOURCE_EXTENSION.search(name):
            return f"{path} is a special file {framework} loads by its name and place"
        if _TOOL_CONFIG.match(name) and path in self._files:
            return f"{path} is a tool configuration, found by its name and place"
        if path in self._entries:
            return f"{path} is an entry point its package.json declares"
        for declared, manifest in self._declared.items():
            if path == declared or path.startswith(declared + "/"):
                return f"{path} is listed in the 'files' of {manifest}"
        return self._named_by_config(path)

    def include_change(self, source: str, target: str) -> str | None:
        """Why moving ``source`` to ``target`` would change whether the governing tsconfig's
        ``include`` takes the file (``"*.ts"`` takes root files only), if it would."""
        config = self._governing_tsconfig(parent_dir(source))
        if config is None:
            return None
        patterns = self._includes.get(config)
        if patterns is None:
            patterns = self._read_includes(config)
            self._includes[config] = patterns
        if not patterns:
            return None
        base = parent_dir(config)
        if _included(source, base, patterns) != _included(target, base, patterns):
            return f"moving {source} to {target} changes what {config} 'include' takes"
        return None

    def _governing_tsconfig(self, directory: str) -> str | None:
        current = directory
        while True:
            candidate = "tsconfig.json" if current == "." else f"{current}/tsconfig.json"
            if candidate in self._files:
                return candidate
            if current == ".":
                return None
            current = parent_dir(current)

    def _read_includes(self, config: str) -> tuple[str, ...]:
        try:
            data = read_jsonc_file(self._root, config)
        except FilidError:
            return ()
        raw = data.get("include") if isinstance(data, dict) else None
        if not isinstance(raw, list):
            return ()
        return tuple(p for p in raw if isinstance(p, str) and p.strip())

    def _is_file(self, directory: str, name: str) -> bool:
        return (name if directory == "." else f"{directory}/{name}") in self._files

    def _named_by_config(self, path: str) -> str | None:
        # Every spelling of ``path`` ends with its file name, extension or not: a config whose
        # text lacks that stem cannot name it (the common case, and no spellings to build).
        stem = _SOURCE_EXTENSION.sub("", path.rpartition("/")[2])
        if stem not in self._all_configs:
            return None
        by_folder: dict[str, list[str]] = {}
        for config, text in self._configs.items():
            if stem not in text:
                continue
            folder = parent_dir(config)
            spellings = by_folder.get(folder)
            if spellings is None:
                spellings = by_folder[folder] = _spellings(path, folder)
            for spelling in spellings:
                if _mentions(text, spelling):
                    return (
                        f"{path} is named in {config} ('{spelling}'), which a fix does not rewrite"
                    )
        return None


_TWINS = {".ts": ".js", ".tsx": ".jsx", ".mts": ".mjs", ".cts": ".cjs"}


def _spellings(path: str, config_dir: str) -> list[str]:
    """How a config in ``config_dir`` could spell ``path``: root- or config-relative (up
    with ``../`` when it lies elsewhere), with its extension, its runtime twin (``.js`` for
    ``.ts``, as ``require.resolve('./x.js')`` names ``x.ts``) or none. A spelling without a
    slash counts only after ``./``."""
    forms = [path]
    if config_dir != "." and path.startswith(config_dir + "/"):
        forms.append(path[len(config_dir) + 1 :])
    elif config_dir == ".":
        forms.append(path)
    else:
        # outside the config's folder: `../db/src/auth-schema.ts` from packages/auth
        forms.append(_relative(path, config_dir))
    spelled: list[str] = []
    for form in forms:
        spelled.append(form)
        stem = _SOURCE_EXTENSION.sub("", form)
        if stem != form:
            spelled.append(stem)
            twin = _TWINS.get(form[len(stem) :])
            if twin is not None:
                spelled.append(stem + twin)
    return list(dict.fromkeys(spelled))


def _relative(path: str, start: str) -> str:
    """``posixpath.relpath`` for two normalized root-relative POSIX paths (no ``.``/``..``
    segments), without its normalisation work."""
    target, base = path.split("/"), start.split("/")
    shared = 0
    while shared < min(len(target), len(base)) and target[shared] == base[shared]:
        shared += 1
    return "/".join([".."] * (len(base) - shared) + target[shared:]) or "."


def _mentions(text: str, spelling: str) -> bool:
    """Whether ``spelling`` appears in ``text`` as a whole path: not inside a longer name, and
    not the tail of a longer path (``src/index.ts`` does not name a root ``index.ts``, while
    ``./index.ts`` does)."""
    start = 0
    while (found := text.find(spelling, start)) >= 0:
        start = found + 1
        after_at = found + len(spelling)
        after = text[after_at] if after_at < len(text) else " "
        if after.isalnum() or after in "_-":
            continue
        before = text[found - 1] if found > 0 else " "
        if "/" not in spelling and "." not in spelling and text[max(0, found - 2) : found] != "./":
            continue  # a bare stem is a word, not a path, unless it starts with ./
        if before == "/":
            dot = text[found - 2] if found > 1 else ""
            ahead = text[found - 3] if found > 2 else " "
            if dot != "." or ahead.isalnum() or ahead in "./_-":
                continue
        elif before.isalnum() or before in "_-.":
            continue
        return True
    return False


def _included(path: str, base: str, patterns: tuple[str, ...]) -> bool:
    """Whether a tsconfig in ``base`` with ``include`` ``patterns`` takes ``path`` (TypeScript's
    wildcards: ``*`` within one segment, ``**/`` any depth; a pattern without wildcards names
    a file or a whole folder)."""
    if base != ".":
        if not path.startswith(base + "/"):
            return False
        path = path[len(base) + 1 :]
    for pattern in patterns:
        cleaned = pattern.strip().removeprefix("./").rstrip("/")
        if cleaned in ("", "."):
            return True
        if not any(c in cleaned for c in "*?"):
            if path == cleaned or path.startswith(cleaned + "/"):
                return True
            continue
        # Linear-time glob matching (a tsconfig is repository content: no backtracking
        # regular expression). A last segment without an extension also takes what is below.
        last = cleaned.rpartition("/")[2]
        if matches_glob(path, cleaned) if "." not in last else matches_glob_exactly(path, cleaned):
            return True
    return False
