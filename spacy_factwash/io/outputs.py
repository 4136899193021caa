"""Writing a command's output without destroying anything.

Every file a command writes goes through here:

- an output that is one of the command's inputs (the same inode, through
  any path or hard link) is refused before anything is opened;
- an output that exists and is not a regular file (a directory, a device,
  a pipe, a socket) is refused, and so is a read-only file (no write
  permission bit, or none for this user) and a folder that does not exist;
  a symbolic link is written through: the file it points to is replaced,
  the link stays;
- one run at a time writes an output: the writer holds an exclusive lock
  on ``.NAME.lock`` beside it for as long as it writes, and a second run on
  the same output is refused (``OutputLocked``) instead of waiting, so a
  script learns at once that the output is busy and nothing is done twice;
- the output is written to ``.NAME.partial`` in the target's folder and
  renamed over the target only when the writing is done and on disk, so a
  run that fails (a full disk, an error) leaves the old file as it was. A
  ``.partial`` or ``.lock`` a killed run left behind is taken over by the
  next run on that output (the lock is free once its holder is dead), so
  they never pile up; these two names, which this module makes, are the
  only files it ever removes;
- every failure is an ``OutputError`` with one line naming the file.

``check_output`` alone does the checks, and ``output_lock`` the locking,
for a file that is written in place on purpose (a resumable run file,
appended to).
"""

import fcntl
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Tuple, Union

from ..errors import FactwashError

PathLike = Union[str, os.PathLike]
KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"))


class OutputError(FactwashError):
    """An output that cannot or must not be written; the message is one line naming it."""

    code = "E002"


class OutputLocked(OutputError):
    """An output another run is writing now: nothing was done, and the same command works once that run ends."""

    code = "E030"


def kind_of(mode: int) -> str:
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
        raise OutputError(f"{path}: is {kind_of(mode)}, not a file; nothing was written (give a file path)")
    if mode is not None and (not mode & 0o222 or not os.access(target, os.W_OK)):
        raise OutputError(f"{path}: is read-only; nothing was written (make it writable or give another path)")
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


def beside(target: Path, suffix: str) -> Path:
    """The hidden file this module keeps beside an output: ``.NAME.lock`` or ``.NAME.partial``."""
    return target.parent / f".{target.name}{suffix}"


@contextmanager
def output_lock(target: PathLike, path: PathLike = None) -> Iterator[Path]:
    """Hold the exclusive lock of the output ``target`` (a real path, as ``check_output`` gives) for the block;
    ``OutputLocked`` at once when another run holds it. The lock file is removed when the block ends."""
    target = Path(target)
    name, lock = path if path is not None else target, beside(target, ".lock")
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as err:
            raise OutputError(f"{name}: cannot make its lock {lock} ({err.strerror}); nothing was written") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OutputLocked(f"{name}: another run is writing it now (it holds {lock}); nothing was done: run "
                               "again when that run has ended, or give another output") from None
        try:  # the run that held it may have removed it meanwhile: only the lock file in place counts
            same = os.stat(lock, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield lock
    finally:
        try:
            os.unlink(lock)  # removed while still held: a run that opened it meanwhile sees it gone, and retries
        except OSError:
            pass
        os.close(fd)


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


def _partial(target: Path, path: PathLike) -> Tuple[int, Path]:
    """The output's ``.NAME.partial``, made anew (one a killed run left is removed first: the name is this
    module's), open for writing: its descriptor and path."""
    temporary = beside(target, ".partial")
    try:
        if os.path.lexists(temporary) and not stat.S_ISDIR(os.lstat(temporary).st_mode):
            os.unlink(temporary)
        return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600), temporary
    except OSError as err:
        raise OutputError(f"{path}: cannot write {temporary} ({err.strerror}); nothing was written") from err


@contextmanager
def atomic_output(path: PathLike, inputs: Iterable[PathLike] = (), binary: bool = False) -> Iterator[Output]:
    """Write ``path`` through ``.NAME.partial`` beside it, renamed over it when the block ends without an error,
    the output's lock held throughout (``output_lock``).

    A block left by an exception (``typer.Exit`` included) removes the temporary file and leaves the old
    output as it was; to keep what a stopped run wrote, leave the block normally first. With ``binary``, the
    handle takes bytes.
    """
    target = check_output(path, inputs)
    with output_lock(target, path):
        fd, temporary = _partial(target, path)
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
