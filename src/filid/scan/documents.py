"""Boundary documents: what filid reads of an intent document (line count and headings)."""

from __future__ import annotations

from pathlib import Path

from filid.model.facts import DocumentFacts

INTENT_DOCUMENTS = ("CLAUDE.md", "INTENT.md")
DETAIL_DOCUMENTS = ("SPEC.md", "DETAIL.md")
MAX_DOCUMENT_BYTES = 1024 * 1024


def read_document(root: Path, rel: str) -> tuple[DocumentFacts | None, str | None]:
    """Read a Markdown boundary document: (facts, None) or (None, a note why it was skipped)."""
    path = root / rel
    try:
        if path.stat().st_size > MAX_DOCUMENT_BYTES:
            return None, f"{rel}: skipped, larger than 1 MiB"
        data = path.read_bytes()
    except OSError as error:
        return None, f"{rel}: skipped, cannot read ({error.strerror})"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, f"{rel}: skipped, not valid UTF-8"
    lines = text.splitlines()
    headings: list[tuple[int, str]] = []
    in_fence = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if not in_fence and line.startswith("#"):
            headings.append((number, line.lstrip("#").strip()))
    return DocumentFacts(path=rel, line_count=len(lines), headings=tuple(headings)), None
