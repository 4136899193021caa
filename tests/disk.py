"""A disk that can be filled, for tests of what a full disk does: a small tmpfs where this process may mount one
(root), else a file-size limit (RLIMIT_FSIZE) set in the child processes that write to it.

Either way the writer meets a real error from the kernel, not one raised by a test: ENOSPC ("No space left on
device") on the tmpfs, EFBIG ("File too large") under the limit. FACTWASH_TEST_NO_TMPFS=1 forces the limit, to
try that path where a tmpfs could be mounted.
"""

import os
import resource
import signal
import subprocess
import uuid
from pathlib import Path


class SmallDisk:
    """``folder`` is on the small disk; ``fill(room)`` leaves about ``room`` bytes to write; ``preexec`` is passed to
    ``subprocess`` as ``preexec_fn`` (it sets the limit when there is no tmpfs); ``free()`` makes room again."""

    def __init__(self, base: Path, size_kb: int = 512) -> None:
        self.folder = base / f"disk-{uuid.uuid4().hex[:8]}"
        self.folder.mkdir()
        mounted = None if os.environ.get("FACTWASH_TEST_NO_TMPFS") else subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(self.folder)], capture_output=True)
        self.kind = "tmpfs" if mounted is not None and mounted.returncode == 0 else "file-size limit"
        self.limit = None
        self.filler = self.folder / "filler"

    def fill(self, room: int, also=()) -> None:
        """Leave about ``room`` bytes: fill the tmpfs and give back ``room``; or limit every file to ``room`` bytes
        beyond the largest file now in the folder or in the folders ``also`` (the children's RLIMIT_FSIZE, which
        holds for every file a child writes)."""
        if self.kind == "tmpfs":
            fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                while True:
                    os.write(fd, b"\0" * 4096)
            except OSError:
                pass
            finally:
                os.close(fd)
            os.truncate(self.filler, max(self.filler.stat().st_size - room, 0))  # tmpfs counts whole 4 KB pages
        else:
            sizes = [0]
            for path in (p for folder in (self.folder, *also) for p in Path(folder).rglob("*")):
                try:
                    sizes.append(path.stat().st_size)
                except OSError:  # a file that went away meanwhile (a database's -wal)
                    pass
            biggest = max(sizes)
            self.limit = biggest + room

    def free(self) -> None:
        """Make the room back: the filler goes, the limit is lifted."""
        if self.filler.exists():
            self.filler.unlink()
        self.limit = None

    def preexec(self) -> None:
        """In the child: the file-size limit, with SIGXFSZ ignored so a write past it fails with EFBIG."""
        if self.limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.limit, self.limit))

    def errors(self) -> tuple:
        """The error texts a write on this disk may end with."""
        return ("No space left on device", "File too large", "database or disk is full", "disk I/O error")

    def close(self) -> None:
        if self.kind == "tmpfs":
            subprocess.run(["umount", "-l", str(self.folder)], capture_output=True)
