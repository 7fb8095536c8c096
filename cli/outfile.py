"""Writing a file the user named (``-o``): whole or not at all, and only over a regular file.

Every file the CLI writes goes through :func:`write`. The text goes to a temporary file created
beside the target (``O_CREAT | O_EXCL`` under an unpredictable name, mode 0666 less the umask, as a
plain ``open`` would make it), is flushed and fsynced, and only then renamed onto the target: a
reader sees the old file or the new one, never half of one, and a failure leaves the target as it
was and no temporary file behind.

Refused before anything is computed or written (exit 2, one line): a target that is a directory, a
device (``/dev/full``, ``/dev/null``), a pipe, a socket or a symbolic link, and a target whose folder
does not exist. Renaming onto a device node would replace the node itself, and onto a symbolic link
the link, not what it points to: neither is what someone typing ``-o`` means. A user who wants
standard output leaves ``-o`` out. A write that fails (a full disk, no permission) is exit 1 with
the system's reason.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable

from referee.errors import BadInput
from referee.i18n import N_
from cli.codes import OutputCode

#: how many unpredictable names are tried before giving up (each collision is a 1 in 2^64 event
#: unless someone is creating those names on purpose)
_ATTEMPTS = 16
#: the text is written in chunks of about this many bytes (an export comes in many small pieces)
_CHUNK = 1 << 20


def _refuse(message: str) -> BadInput:
    return BadInput(OutputCode.REFUSED, message)


def _failed(path: str, exc: OSError) -> BadInput:
    err = BadInput.said(OutputCode.WRITE_FAILED, N_("cannot write {path}: {problem}; nothing was written"), path=path,
                        problem=exc.strerror or str(exc))
    err.exit_code = 1
    return err


def _kind(mode: int) -> str | None:
    """What a non-regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check(path: str, *, new_only: bool = False) -> None:
    """Refuse (BadInput, exit 2) a target :func:`write` would not write; call it before the work."""
    if not path:
        raise _refuse("the output file name is empty; give a file name, or leave -o out for standard output")
    if path.endswith(os.sep) or (os.altsep and path.endswith(os.altsep)):
        raise _refuse(f"{path} names a folder; give a file name")
    folder = os.path.dirname(path) or "."
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise _refuse(f"cannot write {path}: {folder} is not a folder") from None
    except OSError as exc:
        raise _failed(path, exc) from None
    if info is not None:
        kind = _kind(info.st_mode)
        if kind is not None:
            raise _refuse(
                f"{path} is {kind}; the output goes only to a regular file (or to standard output without -o)"
            )
        if new_only:
            raise _refuse(f"{path} exists already; it is written only to a new file")
        return
    try:
        folder_info = os.stat(folder)
    except FileNotFoundError:
        raise _refuse(f"cannot write {path}: the folder {folder} does not exist") from None
    except OSError as exc:
        raise _failed(path, exc) from None
    if not stat.S_ISDIR(folder_info.st_mode):
        raise _refuse(f"cannot write {path}: {folder} is not a folder")


def _temporary(path: str) -> tuple[int, str]:
    folder, name = os.path.split(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        temp = os.path.join(folder, f".{name}.{os.urandom(8).hex()}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise OSError(f"no free temporary name beside {path}")


def _write_all(fd: int, data: bytearray) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    view.release()


def _sync_folder(path: str) -> None:
    """Make the rename itself durable; a folder that cannot be opened or synced is no error."""
    try:
        fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems cannot sync a folder: the file itself was
            os.fsync(fd)
    finally:
        os.close(fd)


def write(path: str, pieces: Iterable[str], *, new_only: bool = False) -> int:
    """Write the text ``pieces`` to ``path`` whole or not at all; the number of bytes written.

    ``new_only``: never over an existing file (refused, exit 2). Whatever goes wrong (an OSError,
    an error raised while the pieces are made, Ctrl-C) removes the temporary file and leaves the
    target untouched.
    """
    check(path, new_only=new_only)
    if not new_only and os.path.lexists(path) and not os.access(path, os.W_OK):
        # a rename would replace a file its owner made read-only, where writing it in place would not
        raise _failed(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    size = 0
    temp = ""
    fd = -1
    try:
        fd, temp = _temporary(path)
        if not new_only:
            try:
                old = os.lstat(path)
            except FileNotFoundError:
                pass
            else:
                if stat.S_ISREG(old.st_mode):
                    # the file keeps its permissions, as it would if written in place
                    os.fchmod(fd, stat.S_IMODE(old.st_mode))
        pending = bytearray()
        for piece in pieces:
            data = piece.encode("utf-8")
            pending += data
            size += len(data)
            if len(pending) >= _CHUNK:
                _write_all(fd, pending)
                pending.clear()
        _write_all(fd, pending)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        check(path, new_only=new_only)  # nothing became a link or a device while the text was made
        if new_only:
            try:
                os.link(temp, path)  # fails if the name was taken meanwhile, where a rename would replace it
            except FileExistsError:
                raise _refuse(f"{path} exists already; it is written only to a new file") from None
            os.unlink(temp)
        else:
            os.replace(temp, path)
        temp = ""
    except OSError as exc:
        raise _failed(path, exc) from None
    finally:
        if fd >= 0:
            os.close(fd)
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    _sync_folder(path)
    return size
