"""Files the CLI writes (``export -o``, ``tournament export -o``, ``template -o``), issue 23 point 6:
written through an unpredictable temporary file beside the target and renamed onto it; a target
that is a directory, a device, a pipe or a symbolic link, or whose folder is missing, is refused
(exit 2, one line, nothing written); a failed write is exit 1 with the reason, the target as it was
and no temporary file left behind.

No test names a real device such as /dev/full: a referee that regressed would replace it on the
machine running the tests. A device node is made in the test's folder instead (root only)."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from cli import outfile


@pytest.fixture
def match(cli):
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec")
    assert r.code == 0, r.err
    return r.last_line


@pytest.fixture
def tournament(cli):
    made = cli("tournament", "new", "Open", "--game", "by_all_means", "--players", "a,b,c", "--json")
    assert made.code == 0, made.err
    return made.json["id"]


def _export(kind, cli, match, tournament):
    """The command line writing to a target, for each command that writes one."""
    if kind == "export":
        return lambda target: cli("export", match, "-o", target)
    if kind == "tournament":
        return lambda target: cli("tournament", "export", tournament, "-o", target)
    return lambda target: cli("template", "by_all_means", "-o", target)


KINDS = ["export", "tournament", "template"]


def _listing(folder):
    """The folder's files, the database's own (r.db, its -wal and -shm, which come and go) left out."""
    return sorted(n for n in os.listdir(folder) if not n.startswith("r.db"))


@pytest.mark.parametrize("kind", KINDS)
def test_a_directory_is_refused(kind, cli, match, tournament, tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    before = _listing(tmp_path)
    r = _export(kind, cli, match, tournament)(target)
    assert r.code == 2 and f"{target} is a directory" in r.err and len(r.err.splitlines()) == 1
    assert target.is_dir() and _listing(target) == [] and _listing(tmp_path) == before


@pytest.mark.parametrize("kind", KINDS)
def test_a_pipe_is_refused_and_stays_a_pipe(kind, cli, match, tournament, tmp_path):
    target = tmp_path / "fifo"
    os.mkfifo(target)
    before = _listing(tmp_path)
    r = _export(kind, cli, match, tournament)(target)
    assert r.code == 2 and "is a pipe" in r.err
    assert stat.S_ISFIFO(os.lstat(target).st_mode) and _listing(tmp_path) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node (a copy of /dev/full) needs root")
@pytest.mark.parametrize("kind", ["export", "tournament"])
def test_a_device_is_refused_and_stays_a_device(kind, cli, match, tournament, tmp_path):
    target = tmp_path / "full"
    os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # what /dev/full is
    r = _export(kind, cli, match, tournament)(target)
    assert r.code == 2 and f"{target} is a device" in r.err and "standard output" in r.err
    assert stat.S_ISCHR(os.lstat(target).st_mode) and os.lstat(target).st_rdev == os.makedev(1, 7)


@pytest.mark.parametrize("kind", KINDS)
def test_a_symbolic_link_is_refused_and_what_it_points_to_is_untouched(kind, cli, match, tournament, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "out.md"
    link.symlink_to(victim)
    r = _export(kind, cli, match, tournament)(link)
    assert r.code == 2 and "is a symbolic link" in r.err
    assert link.is_symlink() and os.readlink(link) == str(victim) and victim.read_text() == "precious"


@pytest.mark.parametrize("kind", KINDS)
def test_a_missing_folder_is_named(kind, cli, match, tournament, tmp_path):
    target = tmp_path / "nope" / "out.md"
    r = _export(kind, cli, match, tournament)(target)
    assert r.code == 2 and f"the folder {tmp_path / 'nope'} does not exist" in r.err
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("kind", ["export", "tournament"])
@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_a_full_disk_is_exit_1_with_the_reason_and_leaves_the_file_as_it_was(
    kind, failing, cli, match, tournament, tmp_path, monkeypatch
):
    target = tmp_path / "out.md"
    target.write_text("the previous export")
    before = _listing(tmp_path)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(outfile.os, failing, full)
    r = _export(kind, cli, match, tournament)(target)
    monkeypatch.undo()
    assert r.code == 1, r.err
    assert f"cannot write {target}: {os.strerror(errno.ENOSPC)}" in r.err and len(r.err.splitlines()) == 1
    assert target.read_text() == "the previous export" and _listing(tmp_path) == before


def test_a_planted_partial_file_is_not_written_through(cli, match, tmp_path, monkeypatch):
    """The temporary name is not predictable: a link planted where ``OUT.partial`` used to be
    written is neither followed nor used, and the temporary file is beside the target."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "game.md"
    (tmp_path / "game.md.partial").symlink_to(victim)
    renamed = []
    real = os.replace
    monkeypatch.setattr(outfile.os, "replace", lambda src, dst: (renamed.append(src), real(src, dst))[1])
    r = cli("export", match, "-o", target)
    monkeypatch.undo()
    assert r.code == 0, r.err
    assert victim.read_text() == "precious" and (tmp_path / "game.md.partial").is_symlink()
    assert target.read_text().startswith("#") and not target.is_symlink()
    assert len(renamed) == 1 and os.path.dirname(renamed[0]) == str(tmp_path)
    assert os.path.basename(renamed[0]) != "game.md.partial" and not os.path.exists(renamed[0])


def test_two_exports_use_different_temporary_names(cli, match, tmp_path, monkeypatch):
    renamed = []
    real = os.replace
    monkeypatch.setattr(outfile.os, "replace", lambda src, dst: (renamed.append(src), real(src, dst))[1])
    assert cli("export", match, "-o", tmp_path / "a.md").code == 0
    assert cli("export", match, "-o", tmp_path / "a.md").code == 0
    assert len(set(renamed)) == 2


def test_modes_are_those_of_a_file_written_in_place(cli, match, tmp_path):
    fresh = tmp_path / "fresh.md"
    mask = os.umask(0o022)
    try:
        assert cli("export", match, "-o", fresh).code == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o644
    kept = tmp_path / "kept.md"
    kept.write_text("old")
    os.chmod(kept, 0o640)
    assert cli("export", match, "-o", kept).code == 0
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640 and kept.read_text() != "old"


def test_an_export_that_fails_while_it_is_made_leaves_nothing(tmp_path):
    target = tmp_path / "out.md"
    target.write_text("old")

    def pieces():
        yield "half of it"
        raise RuntimeError("the log could not be read")

    with pytest.raises(RuntimeError):
        outfile.write(str(target), pieces())
    assert target.read_text() == "old" and _listing(tmp_path) == ["out.md"]
    assert outfile.write(str(target), ["new ", "text"]) == 8 and target.read_text() == "new text"


def test_template_still_never_writes_over_a_file_and_an_export_does(cli, match, tmp_path):
    out = tmp_path / "t.txt"
    assert cli("template", "by_all_means", "-o", out).code == 0
    again = cli("template", "by_all_means", "-o", out)
    assert again.code == 2 and "exists already" in again.err
    assert cli("export", match, "-o", out).code == 0 and out.read_text().startswith("#")
    assert not [n for n in _listing(tmp_path) if n.endswith(".tmp")]


def test_a_folder_that_refuses_the_temporary_file_is_exit_1(cli, match, tmp_path, monkeypatch):
    """No permission to create a file beside the target (simulated: the tests run as root)."""
    real = os.open

    def denied(path, *args, **kwargs):
        if str(path).startswith(str(tmp_path / ".out.md.")):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(outfile.os, "open", denied)
    r = cli("export", match, "-o", tmp_path / "out.md")
    monkeypatch.undo()
    assert r.code == 1 and f"cannot write {tmp_path / 'out.md'}: {os.strerror(errno.EACCES)}" in r.err, r.err
    assert not (tmp_path / "out.md").exists()


def test_a_file_the_user_may_not_write_is_not_replaced(cli, match, tmp_path, monkeypatch):
    """Writing in place would be refused, so the rename is not made (simulated: root may write anything)."""
    target = tmp_path / "out.md"
    target.write_text("read only")
    monkeypatch.setattr(outfile.os, "access", lambda path, mode: not str(path) == str(target))
    r = cli("export", match, "-o", target)
    monkeypatch.undo()
    assert r.code == 1 and os.strerror(errno.EACCES) in r.err and target.read_text() == "read only"
    assert _listing(tmp_path) == ["out.md"]


def test_a_large_text_in_many_pieces_is_written_whole(tmp_path):
    target = tmp_path / "big.txt"
    pieces = [f"line {i} é\n" for i in range(300_000)]
    size = outfile.write(str(target), iter(pieces))
    assert target.read_text(encoding="utf-8") == "".join(pieces) and size == len("".join(pieces).encode())
    assert size > 3 * (1 << 20)
