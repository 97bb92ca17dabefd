"""Everything filid keeps between runs, and every file it writes: one trust boundary.

``files`` holds the only primitives filid uses to write a file (never through a symbolic
link, never over a non-regular file, atomically) and to read a file a repository could have
planted (never through a link, only regular files, size-capped). ``location`` says where the
per-user cache lives (outside every work tree) and ``sealed`` signs and checks what is kept
there, so a cache can be neither planted nor forged from a repository. ``journal`` keeps a
fix run's transaction on disk (``fix_locks`` its locks, ``restore`` the way back).
"""

from filid.store.files import (
    UnsafePathError,
    read_regular_file,
    write_file_atomically,
)

__all__ = ["UnsafePathError", "read_regular_file", "write_file_atomically"]
