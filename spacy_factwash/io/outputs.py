"""Writing a command's output without destroying anything.

Every file a command writes goes through here:

- an output that is one of the command's inputs (the same inode, through
  any path or hard link) is refused before anything is opened;
- an output that exists and is not a regular file (a directory, a device,
  a pipe, a socket) is refused, and so is a folder that does not exist;
  a symbolic link is written through: the file it points to is replaced,
  the link stays;
- the output is written to a temporary file in the target's folder and
  renamed over the target only when the writing is done and on disk, so a
  run that fails (a full disk, an error) leaves the old file as it was;
  the temporary file, which this module created, is the only thing it ever
  removes;
- every failure is an ``OutputError`` with one line saying what happened.

``check_output`` alone does the checks, for a file that is written in place
on purpose (a resumable run file, appended to).
"""

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Union

from ..errors import FactwashError

PathLike = Union[str, os.PathLike]
KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"))


class OutputError(FactwashError):
    """An output that cannot or must not be written; the message is one line naming it."""

    code = "E002"


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def check_output(path: PathLike, inputs: Iterable[PathLike] = ()) -> Path:
    """The file an output will really be written to, after refusing every output that must not be written."""
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise OutputError(f"{path}: {err.strerror}") from err
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"{path}: is {_kind(mode)}, not a file; nothing was written (give a file path)")
    if not target.parent.is_dir():
        raise OutputError(f"{path}: the folder {target.parent} does not exist; nothing was written")
    if mode is not None:
        for source in inputs:
            try:
                same = os.path.samefile(source, target)
            except OSError:
                continue
            if same:
                raise OutputError(f"{path}: is the input {source}; writing it would destroy the input, "
                                  "so nothing was written (give another output path)")
    return target


class Output:
    """The text handle of an output being written; a failed write is an ``OutputError`` naming the output."""

    def __init__(self, handle, path: PathLike) -> None:
        self._handle = handle
        self.path = path

    def write(self, text: Union[str, bytes]) -> None:
        try:
            self._handle.write(text)
        except OSError as err:
            raise OutputError(f"{self.path}: {err.strerror or err}; the old file, if any, is unchanged") from err


@contextmanager
def atomic_output(path: PathLike, inputs: Iterable[PathLike] = (), binary: bool = False) -> Iterator[Output]:
    """Write ``path`` through a temporary file beside it, renamed over it when the block ends without an error.

    A block left by an exception (``typer.Exit`` included) removes the temporary file and leaves the old
    output as it was; to keep what a stopped run wrote, leave the block normally first. With ``binary``, the
    handle takes bytes.
    """
    target = check_output(path, inputs)
    try:
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    except OSError as err:
        raise OutputError(f"{path}: cannot write in {target.parent} ({err.strerror}); nothing was written") from err
    try:
        try:
            with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf8")) as handle:
                yield Output(handle, path)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, _mode_for(target))
            os.replace(temporary, target)
        except OSError as err:
            raise OutputError(f"{path}: {err.strerror or err}; the old file, if any, is unchanged") from err
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def _mode_for(target: Path) -> int:
    """The permissions the written file gets: the old file's, else what the umask gives a new file."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux), else set and restored."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def write_text(path: PathLike, text: str, inputs: Iterable[PathLike] = ()) -> None:
    """Write a whole text file safely (``atomic_output``)."""
    with atomic_output(path, inputs) as out:
        out.write(text)


def write_bytes(path: PathLike, data: bytes, inputs: Iterable[PathLike] = ()) -> None:
    """Write a whole binary file safely (``atomic_output``)."""
    with atomic_output(path, inputs, binary=True) as out:
        out.write(data)
