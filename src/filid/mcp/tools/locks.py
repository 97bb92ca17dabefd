"""Per-root reader/writer locks: reads share a root, a fix run has it alone."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["RootLocks"]


class _RootState:
    """The lock state of one root (guarded by ``condition``)."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.readers = 0
        self.writing = False
        self.waiting_writers = 0


class RootLocks:
    """Per-root reader/writer locks: reads share a root, a fix run has it alone.

    A fix writes several files; without the lock a concurrent read could see half of them and
    two concurrent fix runs could interleave their edits.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._states: dict[Path, _RootState] = {}

    def _state(self, root: Path) -> _RootState:
        with self._guard:
            return self._states.setdefault(root, _RootState())

    @contextmanager
    def reading(self, root: Path) -> Iterator[None]:
        """Hold ``root`` shared (many readers at once, never during a fix)."""
        state = self._state(root)
        with state.condition:
            state.condition.wait_for(lambda: not state.writing and state.waiting_writers == 0)
            state.readers += 1
        try:
            yield
        finally:
            with state.condition:
                state.readers -= 1
                state.condition.notify_all()

    @contextmanager
    def writing(self, root: Path) -> Iterator[None]:
        """Hold ``root`` exclusively (one fix run, no readers)."""
        state = self._state(root)
        with state.condition:
            state.waiting_writers += 1
            state.condition.wait_for(lambda: not state.writing and state.readers == 0)
            state.waiting_writers -= 1
            state.writing = True
        try:
            yield
        finally:
            with state.condition:
                state.writing = False
                state.condition.notify_all()
