"""Context injection: the intent documents above a file an agent reads or writes.

The chain is found by walking the folders from the project root down to the file's folder:
each folder's ``INTENT.md``, or its ``CLAUDE.md`` when that carries the three boundary
headings (otherwise it is a Claude Code memory file, which Claude Code loads itself). These
are the intent documents of the file's owning module and of every module above it, root
first; the walk costs one ``stat`` per level, whatever the project's size. Each document is
given once per session (by path and content): the session's record is a small file in the
per-user cache folder, never in the project.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from filid.model.errors import FilidError
from filid.scan.documents import missing_headings, parse_document
from filid.store.files import UnsafePathError, read_regular_file, write_file_atomically
from filid.store.location import project_cache_dir

__all__ = ["intent_chain"]

MAX_DOCUMENT_BYTES = 64 * 1024


def _read_text(path: Path) -> str | None:
    try:
        return read_regular_file(path, MAX_DOCUMENT_BYTES).decode("utf-8")
    except (UnsafePathError, OSError, UnicodeDecodeError):
        return None


def _intent_document(root: Path, folder: str) -> tuple[str, str] | None:
    """(root-relative path, text) of ``folder``'s intent document, if it has one."""
    prefix = "" if folder == "." else folder + "/"
    text = _read_text(root / f"{prefix}INTENT.md")
    if text is not None:
        return f"{prefix}INTENT.md", text
    text = _read_text(root / f"{prefix}CLAUDE.md")
    if text is not None and not missing_headings(parse_document(f"{prefix}CLAUDE.md", text)):
        return f"{prefix}CLAUDE.md", text
    return None


def _folders(rel: str) -> list[str]:
    """The root and every folder down to the one holding ``rel``."""
    parts = rel.split("/")[:-1]
    return ["."] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


class _Delivered:
    """The documents (path and content digests) one session was given already; a session
    without an id, or no cache folder, gets them every time."""

    def __init__(self, root: Path, session_id: str) -> None:
        self.path: Path | None = None
        self.seen: set[str] = set()
        self.changed = False
        if not session_id:
            return
        directory = project_cache_dir(root)
        if directory is None:
            return
        name = hashlib.sha256(session_id.encode("utf-8")).hexdigest()[:32]
        self.path = directory / f"hook-session-{name}.txt"
        text = _read_text(self.path)
        if text is not None:
            self.seen = set(text.split())

    def take(self, digest: str) -> bool:
        """True the first time ``digest`` is offered."""
        if digest in self.seen:
            return False
        self.seen.add(digest)
        self.changed = True
        return True

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        data = "".join(f"{d}\n" for d in sorted(self.seen)).encode("ascii")
        with contextlib.suppress(FilidError, OSError):
            write_file_atomically(self.path, data, confine=self.path.parent)


def intent_chain(root: Path, rel: str, session_id: str) -> str:
    """The intent documents above ``rel`` (root first) this session has not been given, as
    one text; ``""`` when there are none."""
    delivered = _Delivered(root, session_id)
    blocks: list[str] = []
    for folder in _folders(rel):
        found = _intent_document(root, folder)
        if found is None or found[0] == rel:
            continue
        doc, text = found
        digest = hashlib.sha256(f"{doc}\0{text}".encode()).hexdigest()[:24]
        if delivered.take(digest):
            blocks.append(f"--- {doc} ---\n{text.rstrip()}")
    delivered.save()
    if not blocks:
        return ""
    return f"filid: the boundaries of the modules that own {rel} (outermost first):\n\n" + (
        "\n\n".join(blocks)
    )
