"""How a command-line process ends: at once, once the command that asked for it has returned.

When a command returns, every file it wrote is closed and on disk
(``outputs.atomic_output``), yet a normal interpreter exit then tears down
every module and object the command made: with a pipeline loaded, about half
a second, as long as the import, spent on nothing anyone reads. A command
that writes only through ``atomic_output`` asks to be ended at once
(``end_at_once``); the entry point (``cli.main``, through ``ending_at_once``)
then runs the exit handlers (``atexit``: logging flushed, Dask and
multiprocessing cleaned up), flushes the standard streams and ends the
process with the exit status the command gave (``os._exit``). Any other
command ends as Python ends it.
"""

import atexit
import os
import sys
from typing import Any, Callable, Dict, NoReturn

ENDING: Dict[str, bool] = {"at_once": False}  # set by a command that asked to be ended at once


def end_at_once() -> None:
    """Ask the entry point to end the process as soon as this command returns, however it returns (``ended``)."""
    ENDING["at_once"] = True


def exit_status(code: Any) -> int:
    """The exit status a ``SystemExit`` with ``code`` gives, as Python gives it: None is 0, a number itself, any
    other value printed on stderr and 1."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def ended(code: Any) -> NoReturn:
    """End the process now with the exit status of ``code`` (a ``SystemExit`` code): the exit handlers run, the
    standard streams are flushed (a stream that cannot be makes the status 120, as Python's own exit does), and
    the process ends without tearing down its modules and objects."""
    status = exit_status(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            status = status or 120
    os._exit(status)


def ending_at_once(run: Callable[[], Any]) -> None:
    """Run a command line (``run``, which ends with ``SystemExit`` as a click app does) and, when its command asked
    to be (``end_at_once``), end the process at once (``ended``); otherwise let the ``SystemExit`` go on. A request
    left by a command run before in this process (in-process, through the app itself) does not count."""
    ENDING["at_once"] = False
    try:
        run()
    except SystemExit as end:
        if ENDING["at_once"]:
            ended(end.code)
        raise
