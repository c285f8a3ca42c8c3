"""Run ``pbem ARGS`` in a Python without its POSIX-only parts, as on Windows: ``python tests/posixless.py ARGS``.

Windows' Python has no ``os.fchmod`` (before 3.13), ``os.fchown``,
``os.getuid``…, no ``fcntl``, ``termios``, ``pwd`` or ``grp``, and none of the
POSIX signals.  This launcher deletes them from the running interpreter
before pbem is imported, so that a call to one ends in the ``AttributeError``
or ``ImportError`` a Windows player would get.  :data:`POSIX_ONLY` is also
the list the source scan of ``tests/test_platforms.py`` looks for.
"""

from __future__ import annotations

import os
import pathlib
import signal
import sys

#: Attributes of ``os``, ``signal`` and ``pathlib.Path`` that Windows' Python lacks (or that fail there), and whole modules.
POSIX_ONLY = {
    "os": (
        "fchmod", "lchmod", "fchown", "chown", "lchown", "getuid", "geteuid", "getgid", "getegid", "getgroups",
        "setuid", "seteuid", "setgid", "setegid", "getpwuid", "fork", "forkpty", "openpty", "killpg", "getpgid",
        "setsid", "setpgrp", "getsid", "nice", "sync", "fdatasync", "statvfs", "fstatvfs", "mkfifo", "mknod",
        "uname", "getloadavg", "wait3", "wait4", "ttyname", "chroot", "posix_fadvise", "posix_fallocate", "pipe2",
        "sched_getaffinity", "sched_setaffinity", "O_NOFOLLOW", "O_DIRECTORY", "O_CLOEXEC", "O_NONBLOCK",
        "getresuid", "getresgid", "initgroups", "ctermid", "pread", "pwrite", "sendfile", "get_blocking", "set_blocking",
    ),
    "signal": (
        "SIGHUP", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "SIGQUIT", "SIGKILL", "SIGSTOP", "SIGCONT",
        "SIGTSTP", "SIGWINCH", "alarm", "pause", "setitimer", "getitimer", "siginterrupt", "sigwait", "sigpending",
        "pthread_kill", "pthread_sigmask",
    ),
    "Path": ("owner", "group"),
    "modules": ("fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "syslog", "crypt", "curses", "readline"),
}


def _unsupported(self, *args, **kwargs):
    raise NotImplementedError("Path.owner() and Path.group() are unsupported on this system")


def strip() -> None:
    """Delete every name of :data:`POSIX_ONLY` from this interpreter."""
    for name in POSIX_ONLY["os"]:
        if hasattr(os, name):
            delattr(os, name)
    for name in POSIX_ONLY["signal"]:
        if hasattr(signal, name):
            delattr(signal, name)
    for name in POSIX_ONLY["Path"]:
        setattr(pathlib.Path, name, _unsupported)
    for name in POSIX_ONLY["modules"]:
        sys.modules[name] = None  # type: ignore[assignment]  # import X now raises ImportError, as on Windows


if __name__ == "__main__":
    strip()
    from pbem.cli import main

    main(sys.argv[1:])
