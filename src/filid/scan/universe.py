"""The file universe: which files of a project filid looks at (SPEC §1).

Inside a git work tree it is what ``git ls-files --cached --others --exclude-standard`` lists
and still exists (a tracked binary asset the work tree lacks stays listed: ``ASSET_EXTENSIONS``;
so does a tracked data or source file whose blob the clone lacks as well, a partial clone's:
``Universe.absent`` names them, and nothing reads them); outside git, a walk of the tree.
The staged listing (``index=True``, what ``check --staged`` checks) is the git index alone:
every staged path with its blob id, without one ``stat`` and without the untracked-file scan
(a file that is not staged is not being committed). Either way dot segments, build output
folders and configured exclusions are dropped, and symbolic links are never followed (a
symlink is not part of the universe at all).
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import subprocess
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from filid.config.globs import matches_any_glob
from filid.model.errors import InputError
from filid.store.journal import recover_interrupted_fix

EXCLUDED_DIRECTORIES = frozenset({"node_modules", "dist", "build", "coverage", "out"})
SOURCE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")

_GIT_SYMLINK = b"120000"
_GIT_SUBMODULE = b"160000"


# (size, mtime_ns) of a listed file, from the one ``lstat`` the listing made of it.
StatData = tuple[int, int]

# Binary assets (images, media, fonts, native and WebAssembly binaries, archives): filid
# never reads them. One that git tracks but the work tree lacks (a sparse checkout,
# ``--skip-worktree``, a partial clone whose large blobs were never fetched) is still part of
# the repository, so it stays listed with ``ABSENT_ASSET`` as its stat data and an import of it
# is not "unresolved". Any other tracked data file missing from the work tree (one filid never
# reads: ``counts_when_absent``), and any source file or component, is listed the same way
# when the clone lacks its blob too (it was never checked out; a source file so listed is
# never parsed); else it is left out (it was deleted there, or cannot be read).
ASSET_EXTENSIONS = (
    *(".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".bmp", ".tif", ".tiff"),
    *(".mp4", ".webm", ".mov", ".m4v", ".mp3", ".wav", ".ogg", ".m4a", ".flac"),
    *(".woff", ".woff2", ".ttf", ".otf", ".eot"),
    *(".wasm", ".node", ".pdf", ".zip", ".gz", ".glb", ".gltf", ".hdr", ".bin", ".riv"),
)
ABSENT_ASSET: StatData = (0, -1)

# Source files and components (TypeScript, JavaScript, a declaration, a single-file or
# template-tag component): a tracked one the work tree lacks was deleted there, unless the
# clone lacks its blob as well (``_git_listing``): then it was never checked out (teams.ts's
# `packages/graph/src/types.ts`, too large for a mirror) and is listed as absent, never read.
CODE_EXTENSIONS = (*SOURCE_EXTENSIONS, ".vue", ".svelte", ".astro", ".gts", ".gjs")

# What filid reads, or what an import of is broken without: a source file the work tree
# lacks was deleted there (``CODE_EXTENSIONS``); a manifest, config or FCA document it lacks
# cannot be read. Any other tracked file the work tree lacks (js-joda's
# `data/unpacked/latest.json`, whose blob a mirror never fetched) is still part of the
# repository: ``git_tracked`` answers for it (``check.generated_code``). Such files are not
# listed in the universe, so nothing tries to read them (a tsconfig may `extends` any JSON
# file).
_READ_EXTENSIONS = (
    *CODE_EXTENSIONS,
    *(".md", ".mdx", ".yaml", ".yml", ".toml", ".html"),
)
_READ_NAMES = frozenset(
    {
        *("package.json", "package-lock.json", "npm-shrinkwrap.json", "project.json"),
        *("rush.json", "turbo.json", "nx.json", "lerna.json", "angular.json"),
        *("deno.json", "deno.jsonc", "biome.json", "biome.jsonc"),
    }
)
# Paths per `git ls-files` call (its command line holds them).
_TRACKED_BATCH = 500


@dataclass(frozen=True, slots=True)
class Universe:
    """The listed files (root-relative POSIX, sorted), notes about what was left out, and
    each file's (size, mtime_ns) as the listing saw it (``stats``, parallel to ``files``), or,
    for the staged listing, each file's staged blob id (``ids``, parallel to ``files``; then
    ``stats`` is empty).

    ``absent``: the listed files the work tree lacks (their stat data is ``ABSENT_ASSET``):
    tracked assets, and tracked files whose blob the clone lacks too (a partial clone, a
    mirror without large blobs). They are files of the repository, so an import of one
    resolves, but nothing may read them: a source file among them is never parsed."""

    files: tuple[str, ...]
    notes: tuple[str, ...]
    from_git: bool
    stats: tuple[StatData, ...] = ()
    ids: tuple[str, ...] = ()
    absent: frozenset[str] = frozenset()


def resolve_root(path: str | os.PathLike[str]) -> Path:
    """Resolve the project root to an absolute real path; it must be an existing directory.

    An interrupted fix of that project (a journal left by a killed run) is undone first, with
    a line on stderr (:func:`filid.store.journal.recover_interrupted_fix`).
    """
    try:
        root = Path(path).resolve(strict=True)
    except FileNotFoundError:
        raise InputError(f"{os.fsdecode(path)}: no such directory") from None
    except (RuntimeError, OSError) as error:  # symlink loops, permission problems
        reason = "symbolic link loop" if isinstance(error, RuntimeError) else error.strerror
        raise InputError(f"{os.fsdecode(path)}: cannot open ({reason})") from None
    if not root.is_dir():
        raise InputError(f"{os.fsdecode(path)}: not a directory")
    if not os.access(root, os.R_OK | os.X_OK):
        raise InputError(f"{os.fsdecode(path)}: permission denied")
    # Every command (CLI and MCP) resolves its project root here, so this is the one place
    # where a fix that was killed half-way is undone before anything reads the tree.
    recover_interrupted_fix(root)
    return root


def is_source_file(path: str) -> bool:
    """A TypeScript/JavaScript source file (declaration files excluded)."""
    return path.endswith(SOURCE_EXTENSIONS) and not path.endswith(DECLARATION_SUFFIXES)


def counts_when_absent(path: str) -> bool:
    """Whether a tracked file the work tree lacks still counts as a file of the repository: a
    data file or an asset (``.json``, ``.csv``, ``.wasm``…), not a file filid reads or whose
    absence breaks an import (a source file, a component, a manifest, a tsconfig, a
    document; ``_READ_EXTENSIONS``)."""
    name = path.rpartition("/")[2]
    if path.endswith(_READ_EXTENSIONS) or name in _READ_NAMES:
        return False
    return not (name.startswith(("tsconfig", "jsconfig")) and name.endswith(".json"))


def _listed_when_unfetched(path: str) -> bool:
    """Whether a tracked file the work tree lacks is listed (as absent) when the clone lacks
    its blob too: a data file (``counts_when_absent``) or a source file or component, never
    read either way; not a manifest, a tsconfig or a document, which filid must read."""
    return path.endswith(CODE_EXTENSIONS) or counts_when_absent(path)


def git_tracked(root: Path, paths: Collection[str]) -> frozenset[str]:
    """The root-relative ``paths`` git's index tracks (``git ls-files --cached``), present in
    the work tree or not (a sparse checkout, ``--skip-worktree``, a mirror whose blobs were
    never fetched). Outside a work tree, or when git is unavailable, none."""
    kept = sorted(p for p in paths if "\n" not in p)
    found: set[str] = set()
    for start in range(0, len(kept), _TRACKED_BATCH):
        batch = kept[start : start + _TRACKED_BATCH]
        try:
            done = subprocess.run(
                ["git", "ls-files", "--cached", "-z", "--", *(f":(literal){p}" for p in batch)],
                cwd=root,
                capture_output=True,
                check=False,
            )
        except OSError:
            return frozenset()
        if done.returncode != 0:
            return frozenset()
        # a pathspec naming a folder lists the files below it: only the paths asked count
        listed = {p.decode("utf-8", "replace") for p in done.stdout.split(b"\0") if p}
        found.update(listed.intersection(batch))
    return frozenset(found)


def is_excluded(rel: str, excluded: Collection[str]) -> bool:
    """True when any segment of ``rel`` starts with a dot or is an excluded directory name."""
    return any(seg.startswith(".") or seg in excluded for seg in rel.split("/"))


def _exclusion_pattern(excluded: Collection[str]) -> re.Pattern[str]:
    """One regular expression over a whole path that :func:`is_excluded` answers segment by
    segment (a dot-led segment, or an excluded name as a whole segment)."""
    names = "|".join(re.escape(name) for name in sorted(excluded))
    alternatives = r"\." + (f"|(?:{names})(?:/|$)" if names else "")
    return re.compile(f"(?:^|/)(?:{alternatives})")


def list_universe(
    root: Path,
    extra_excluded: Collection[str] = (),
    generated: Collection[str] = (),
    *,
    index: bool = False,
) -> Universe:
    """List the file universe of ``root`` (already resolved with :func:`resolve_root`).

    ``generated`` are config ``generatedPaths`` globs (upstream filid's key): files they match,
    or that lie in a folder they match, are generated output and left out of every check.
    Every listed file is ``lstat``-ed once (its size and mtime are in ``stats``).

    ``index``: list the git index instead (:func:`_index_listing`: staged paths and blob ids
    in ``ids``, nothing ``stat``-ed); outside a work tree, the ordinary listing.
    """
    excluded = EXCLUDED_DIRECTORIES | frozenset(extra_excluded)
    skip = _exclusion_pattern(excluded).search
    notes: list[str] = []
    if index:
        staged = _index_listing(root, notes, skip, excluded)
        if staged is not None:
            names = sorted(staged)
            if generated:
                names = [f for f in names if not matches_any_glob(f, generated)]
            return Universe(
                files=tuple(names),
                notes=tuple(sorted(notes)),
                from_git=True,
                ids=tuple(staged[name] for name in names),
            )
        notes = []
    absent: set[str] = set()
    listed = _git_listing(root, notes, skip, absent)
    from_git = listed is not None
    if listed is None:
        listed = dict(_walk(root, excluded, notes))
    names = sorted(listed)
    if generated:
        names = [f for f in names if not matches_any_glob(f, generated)]
    return Universe(
        files=tuple(names),
        notes=tuple(sorted(notes)),
        from_git=from_git,
        stats=tuple(listed[name] for name in names),
        absent=frozenset(absent),
    )


def with_unfetched_sources(root: Path, universe: Universe) -> Universe:
    """The staged listing ``universe`` with its source files and components that the work
    tree lacks and whose blob the clone lacks as well (a sparse checkout of a partial clone:
    ``--skip-worktree`` entries never fetched) named ``absent``, with the work-tree listing's
    note: files of the commit that nothing can read, so nothing parses them. The others are
    returned as they are (one ``lstat`` per source file; git is asked only about those the
    work tree lacks)."""
    prefix = f"{root}/"
    lacking = {
        name: blob.encode("ascii")
        for name, blob in zip(universe.files, universe.ids, strict=False)
        if name.endswith(CODE_EXTENSIONS) and not os.path.lexists(prefix + name)
    }
    if not lacking:
        return universe
    missing = missing_objects(root, lacking.values())
    lacked = sorted(name for name, blob in lacking.items() if blob in missing)
    if not lacked:
        return universe
    return dataclasses.replace(
        universe,
        notes=tuple(sorted((*universe.notes, _unfetched_note(lacked)))),
        absent=universe.absent.union(lacked),
    )


def _unfetched_note(lacked: list[str]) -> str:
    return (
        f"{len(lacked)} tracked file(s) absent from the work tree whose content this clone "
        f"lacks (partial clone?), e.g. {lacked[0]}: imports of them count as present"
    )


def _decode(raw: bytes, notes: list[str]) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", errors="replace")
        notes.append(f"{shown}: skipped, file name is not valid UTF-8")
        return None


_OBJECT_ID = re.compile(rb"[0-9a-f]{40}|[0-9a-f]{64}")


def missing_objects(root: Path, ids: Iterable[bytes]) -> frozenset[bytes]:
    """Those of the object ``ids`` the repository at ``root`` does not hold (``git cat-file
    --batch-check`` answers ``<id> missing``); nothing when git cannot be asked. The ids come
    from the repository's own index: any that is not a hexadecimal object id is left out."""
    wanted = sorted({i for i in ids if _OBJECT_ID.fullmatch(i)})
    if not wanted:
        return frozenset()
    try:
        answer = subprocess.run(
            ["git", "cat-file", "--batch-check"],
            cwd=root,
            input=b"\n".join(wanted) + b"\n",
            capture_output=True,
            check=False,
        )
    except OSError:
        return frozenset()
    if answer.returncode != 0:
        return frozenset()
    return frozenset(
        line.split(b" ")[0] for line in answer.stdout.splitlines() if line.endswith(b" missing")
    )


def _staged_deletions(
    raw: bytes, listed: Collection[str], skip: Callable[[str], object]
) -> Iterator[tuple[str, bytes]]:
    """(path, blob id) of each regular file ``git diff-index -z --cached --diff-filter=D``
    says the index deleted (``:<mode> 000000 <blob> <zeros> D``, NUL, the path), relative to
    the folder it ran in, unless listed, excluded by ``skip`` or a file filid must read (a
    manifest, a tsconfig, a document: ``_listed_when_unfetched``)."""
    fields = raw.split(b"\0")
    for meta, raw_path in zip(fields[::2], fields[1::2], strict=False):
        parts = meta.split(b" ")
        if len(parts) < 5 or parts[0] not in (b":100644", b":100755"):
            continue
        try:
            name = raw_path.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if name and name not in listed and not skip(name) and _listed_when_unfetched(name):
            yield name, parts[2]


def _start_git(root: Path, *args: str) -> subprocess.Popen[bytes] | None:
    return _start_command(root, "git", "ls-files", "-z", *args)


def _start_command(root: Path, *command: str) -> subprocess.Popen[bytes] | None:
    try:
        return subprocess.Popen(
            list(command),
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
    except OSError:
        return None


def _finish_git(process: subprocess.Popen[bytes] | None) -> bytes | None:
    if process is None:
        return None
    out, _ = process.communicate()
    return out if process.returncode == 0 else None


def git_ignored(root: Path, paths: Collection[str]) -> frozenset[str]:
    """The root-relative ``paths`` that git ignores (``git check-ignore --stdin``): files a
    build generates, so an import of one that does not exist yet is not broken. A path
    beyond a symbolic link counts as ignored too: links are not followed (SPEC §1), so what
    lies behind one (a private submodule's sources) is outside the universe, not missing.
    Outside a git work tree, or when git is unavailable, only those."""
    links: dict[str, bool] = {}

    def behind_link(path: str) -> bool:
        # git refuses a whole batch when one path lies beyond a symbolic link. Iterative:
        # a path may be thousands of folders deep.
        heads: list[str] = []
        head = path.rpartition("/")[0]
        while head and head not in links:
            heads.append(head)
            head = head.rpartition("/")[0]
        answer = links.get(head, False) if head else False
        for folder in reversed(heads):
            answer = answer or os.path.islink(root / folder)
            links[folder] = answer
        return answer

    linked = frozenset(p for p in paths if behind_link(p))
    kept = sorted(p for p in paths if p not in linked)
    if not kept:
        return linked
    data = b"".join(p.encode("utf-8") + b"\0" for p in kept)
    try:
        done = subprocess.run(
            ["git", "check-ignore", "--no-index", "-z", "--stdin"],
            cwd=root,
            input=data,
            capture_output=True,
            check=False,
        )
    except OSError:
        return linked
    if done.returncode not in (0, 1):
        return linked
    return linked | {p.decode("utf-8", "replace") for p in done.stdout.split(b"\0") if p}


def is_ignored_root(root: Path) -> bool:
    """Whether the enclosing git repository ignores ``root`` itself (then nothing in it is
    git's business: it is listed from disk and new files in it are not "ignored")."""
    try:
        done = subprocess.run(
            ["git", "check-ignore", "-q", "."], cwd=root, capture_output=True, check=False
        )
    except OSError:
        return False
    return done.returncode == 0


def _git_listing(
    root: Path, notes: list[str], skip: Callable[[str], object], absent: set[str]
) -> dict[str, StatData] | None:
    """Tracked + untracked-not-ignored files that still exist (not excluded by ``skip``) with
    their stat data, or None outside a work tree. Tracked files the work tree lacks that
    still count as files of the repository (an asset; a file whose blob the clone lacks as
    well) are listed with ``ABSENT_ASSET`` and added to ``absent``.

    The untracked listing (git reads every folder) runs while the tracked files are listed
    and ``lstat``-ed here: on two cores the two overlap.
    """
    others_process = _start_git(root, "--others", "--exclude-standard")
    # deletions staged against HEAD: where a checkout failed for want of a blob, the index
    # has no entry for the file at all (a mirror without large blobs)
    unstaged_process = _start_command(
        root, "git", "diff-index", "-z", "--relative", "--cached", "--diff-filter=D", "HEAD"
    )
    staged = _finish_git(_start_git(root, "--stage", "--cached"))
    if staged is None or (not staged and is_ignored_root(root)):
        # Not a work tree, or a project in a folder its enclosing repository ignores (a
        # generated or scratch project): git lists nothing there, so read the folder itself.
        for process in (others_process, unstaged_process):
            if process is not None:
                process.kill()
                process.communicate()
        return None
    prefix = f"{root}/"
    files: dict[str, StatData] = {}
    assets = 0
    # tracked data files (``counts_when_absent``: none filid reads) and source files
    # (``CODE_EXTENSIONS``) missing from the work tree, with their blob ids: those whose blob
    # this clone lacks as well were never checked out (a partial clone, a mirror without large
    # blobs) and are listed, never to be read; the others were deleted in the work tree
    unfetched: dict[str, bytes] = {}
    for entry in staged.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode = meta.split(b" ", 1)[0]
        if mode in (_GIT_SYMLINK, _GIT_SUBMODULE):
            continue
        name = _decode(raw_path, notes)
        if name is None or name in files or skip(name):
            continue
        try:
            info = os.lstat(prefix + name)
        except OSError:  # deleted in the work tree, or never checked out
            if name.endswith(ASSET_EXTENSIONS):
                assets += 1
                files[name] = ABSENT_ASSET
                absent.add(name)
            elif _listed_when_unfetched(name):
                unfetched[name] = meta.rpartition(b" ")[0].rpartition(b" ")[2]
            continue
        if not stat.S_ISDIR(info.st_mode):
            files[name] = (info.st_size, info.st_mtime_ns)
    if assets:
        notes.append(
            f"{assets} tracked asset file(s) absent from the work tree (sparse checkout or "
            "partial clone?): imports of them count as present"
        )
    unfetched.update(_staged_deletions(_finish_git(unstaged_process) or b"", files, skip))
    lacking = missing_objects(root, unfetched.values()) if unfetched else frozenset()
    lacked = sorted(name for name, blob in unfetched.items() if blob in lacking)
    for name in lacked:
        files[name] = ABSENT_ASSET
        absent.add(name)
    if lacked:
        notes.append(_unfetched_note(lacked))
    others = _finish_git(others_process) or b""
    for raw_path in others.split(b"\0"):
        if not raw_path:
            continue
        name = _decode(raw_path, notes)
        if name is None or name in files or skip(name):
            continue
        try:
            info = os.lstat(prefix + name)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            files[name] = (info.st_size, info.st_mtime_ns)
    return files


def _index_listing(
    root: Path, notes: list[str], skip: Callable[[str], object], excluded: Collection[str]
) -> dict[str, str] | None:
    """Staged regular files (not excluded by ``skip``) with their blob ids, from ``git
    ls-files --stage`` alone; None outside a work tree (or in a folder git ignores).

    Nothing is ``stat``-ed and untracked files are not looked for. A path in conflict
    (stages 1 to 3) keeps its first stage's blob: such an index cannot be committed anyway.
    The index is the repository's, so its content is untrusted: a line that is not
    ``<mode> <40 or 64 hex> <stage>``, a tab and a path is skipped. ``skip`` is asked once
    per folder (``excluded`` decides a file's own name), not once per file.
    """
    staged = _finish_git(_start_git(root, "--stage", "--cached"))
    if staged is None or (not staged and is_ignored_root(root)):
        return None
    try:
        text = staged.decode("utf-8")
    except UnicodeDecodeError:  # some name is not UTF-8: entry by entry, with a note each
        text = "\0".join(_decoded_entries(staged, notes))
    files: dict[str, str] = {}
    folders: dict[str, bool] = {}
    for blob, name in _INDEX_ENTRY.findall(text):
        folder, _, base = name.rpartition("/")
        hidden = folders.get(folder)
        if hidden is None:
            hidden = folders[folder] = bool(folder) and bool(skip(folder))
        if hidden or base.startswith(".") or base in excluded or name in files:
            continue
        files[name] = blob
    return files


# An entry of ``git ls-files --stage -z`` for a regular file: ``<mode> <blob id> <stage>``, a
# tab and the path, at the start of the output or after a NUL (git's SHA-1 or SHA-256 ids).
_INDEX_ENTRY = re.compile("(?<![^\0])100(?:644|755) ([0-9a-f]{40}|[0-9a-f]{64}) [0-3]\t([^\0]+)")


def _decoded_entries(listing: bytes, notes: list[str]) -> Iterator[str]:
    for entry in listing.split(b"\0"):
        meta, _, raw_path = entry.partition(b"\t")
        name = _decode(raw_path, notes)
        if name is not None:
            yield meta.decode("ascii", "replace") + "\t" + name


def _walk(root: Path, excluded: frozenset[str], notes: list[str]) -> Iterator[tuple[str, StatData]]:
    """Walk ``root`` without following symlinks, pruning excluded directories."""
    stack: list[tuple[bytes, str]] = [(os.fsencode(root), "")]
    while stack:
        directory, prefix = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as error:
            notes.append(f"{prefix or '.'}: skipped, cannot list ({error.strerror})")
            continue
        for entry in entries:
            name = _decode(entry.name, notes)
            if name is None:
                continue
            if name.startswith(".") or name in excluded:
                continue
            rel = f"{prefix}{name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, rel + "/"))
                elif entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    yield rel, (info.st_size, info.st_mtime_ns)
            except OSError:
                continue
