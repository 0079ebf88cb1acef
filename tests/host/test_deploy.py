"""Deploy logic against a plain folder standing for the board's filesystem:
real mpy-cross, change detection through the manifest, stale files, an
interrupted copy, the .mpy version check, and the deployed tree imported by
the real micropython binary."""
import io
import json
import os
import shutil

import pytest

from host_tools import boards, fwpath
from host_tools.device import deploy
from host_tools.errors import UserError
from mptools import micropython


@pytest.fixture(scope="module")
def unix_info():
    r = micropython(["-c", "import sys; print(sys.implementation._mpy)"])
    return {"mpy": int(r.stdout), "ver": [1, 29, 0], "platform": "linux"}


pytestmark = pytest.mark.usefixtures("own_cache")  # one .mpy cache for the module (tests/conftest.py)


@pytest.fixture
def src(tmp_path):
    d = tmp_path / "fw"
    shutil.copytree(fwpath.FIRMWARE_DIR, d, ignore=shutil.ignore_patterns("__pycache__"))
    return str(d)


def run(target, src, **kw):
    out = io.StringIO()
    kw.setdefault("board_def", boards.load("esp32_devkitc"))
    kw.setdefault("mode", "official")
    r = deploy.deploy(target, src=src, out=out, **kw)
    return r, out.getvalue()


def test_first_deploy_copies_everything_then_nothing(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), unix_info)
    r, text = run(t, src)
    files = deploy.app_files(src)
    py = [f for f in files if f.endswith(".py")]
    assert len(r["copied"]) == len(files) + 2          # + board.json, app.json
    for f in py:
        if f in deploy.KEEP_SOURCE:
            assert (root / f).is_file()
        else:
            assert (root / (f[:-3] + ".mpy")).is_file(), f
            assert not (root / f).exists()
            assert (root / (f[:-3] + ".mpy")).read_bytes()[:2] == b"M\x06"
    assert json.loads((root / "board.json").read_text()) == boards.load("esp32_devkitc")
    app = json.loads((root / "app.json").read_text())
    assert app["board"] == "esp32_devkitc" and app["mode"] == "official"
    man = json.loads((root / ".bakumat-manifest.json").read_text())
    assert man["version"] == 1 and set(man["files"]) == set(r["copied"])
    assert "copied %d files" % len(r["copied"]) in text

    r2, text2 = run(t, src)
    assert r2["copied"] == [] and r2["removed"] == []
    assert "up to date" in text2


def test_only_changed_files_are_copied(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), unix_info)
    run(t, src)
    with open(os.path.join(src, "referee", "engine.py"), "a") as f:
        f.write("\n_DEPLOY_TEST = 1\n")
    os.remove(os.path.join(src, "show", "sound.py"))
    r, _ = run(t, src)
    assert r["copied"] == ["referee/engine.mpy"]
    assert r["removed"] == ["show/sound.mpy"]
    assert not (root / "show" / "sound.mpy").exists()
    # the mode is config: changing it rewrites only app.json
    r, _ = run(t, src, mode="big")
    assert r["copied"] == ["app.json"]


def test_a_file_changed_on_the_board_is_copied_again(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), unix_info)
    run(t, src)
    (root / "link" / "codec.mpy").write_bytes(b"broken")
    (root / "sense" / "pipeline.mpy").unlink()
    r, _ = run(t, src)
    assert r["copied"] == ["link/codec.mpy", "sense/pipeline.mpy"]
    r, _ = run(t, src, force=True)
    assert len(r["copied"]) == len(deploy.app_files(src)) + 2


def test_source_mode_replaces_mpy_and_back(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), unix_info)
    run(t, src)
    r, _ = run(t, src, source=True)
    assert "referee/engine.py" in r["copied"] and "referee/engine.mpy" in r["removed"]
    assert not list(root.rglob("*.mpy"))
    r, _ = run(t, src)
    assert not [p for p in root.rglob("*.py") if p.name not in deploy.KEEP_SOURCE]


class Cut(deploy.DirTarget):
    """Loses the connection after n files."""

    def __init__(self, root, info, n):
        super().__init__(root, info)
        self.n = n

    def apply(self, copies, removes, dirs, partial, full, on_file):
        def cut(remote):
            if len(done) == self.n:
                raise UserError("the board at X stopped answering")
            done.append(remote)
        done = []
        super().apply(copies, removes, dirs, partial, full, cut)


def test_interrupted_deploy_is_finished_by_the_next(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), unix_info)
    run(t, src)
    for name in ("referee/engine.py", "sense/pipeline.py", "link/server.py"):
        with open(os.path.join(src, name), "a") as f:
            f.write("\n_V2 = 2\n")
    with pytest.raises(UserError):
        run(Cut(str(root), unix_info, 1), src)
    # one new file reached the board; go back to the old sources: the board
    # must not be left with that new file
    for name in ("referee/engine.py", "sense/pipeline.py", "link/server.py"):
        shutil.copyfile(os.path.join(fwpath.FIRMWARE_DIR, name), os.path.join(src, name))
    r, _ = run(t, src)
    assert sorted(r["copied"]) == ["link/server.mpy", "referee/engine.mpy", "sense/pipeline.mpy"]
    r, _ = run(t, src)
    assert r["copied"] == []


def test_mpy_version_mismatch(tmp_path, src):
    root = tmp_path / "board"
    root.mkdir()
    t = deploy.DirTarget(str(root), {"mpy": 5 | (10 << 10), "ver": [1, 18, 0]})
    with pytest.raises(UserError) as e:
        run(t, src)
    msg = str(e.value)
    assert "MicroPython version mismatch" in msg and "1.18.0" in msg and "v5" in msg and "--source" in msg
    assert not os.listdir(str(root))        # nothing was copied
    # .py files work on any version
    r, _ = run(t, src, source=True)
    assert "referee/engine.py" in r["copied"]
    t = deploy.DirTarget(str(tmp_path / "x"), {"mpy": None, "ver": [1, 12, 0]})
    with pytest.raises(UserError) as e:
        run(t, src)
    assert "does not report its .mpy version" in str(e.value)


def test_decode_mpy():
    assert deploy.decode_mpy(6 | (3 << 8) | (10 << 10)) == (6, 3, "xtensawin")
    assert deploy.decode_mpy(2822) == (6, 3, "x64")
    assert deploy.mpy_cross_version()[0] == 6


def test_deployed_tree_is_imported_by_micropython(tmp_path, src, unix_info):
    root = tmp_path / "board"
    root.mkdir()
    run(deploy.DirTarget(str(root), unix_info), src)
    code = ("import sys\nsys.path[:0] = ['']\nimport referee, match\nfrom link import codec\n"
            "print(referee.__name__, codec.crc16(b'123456789'), "
            "'mpy' if not hasattr(codec, '__file__') or codec.__file__.endswith('.mpy') else 'py')\n")
    r = micropython(["-c", code], cwd=str(root))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["referee", str(0x29B1), "mpy"]


def test_xtensawin_bytecode_loads_anywhere(tmp_path, src, unix_info):
    # the app has no native code: .mpy compiled for the ESP32 loads on the unix port too
    root = tmp_path / "board"
    root.mkdir()
    info = dict(unix_info)
    r, _ = run(deploy.DirTarget(str(root), info), src)
    staged = deploy.stage(str(tmp_path / "x"), arch="xtensawin", src=src, progress=deploy.Progress("c", stream=io.StringIO()))
    assert staged["link/codec.mpy"]["size"] > 0
    r = micropython(["-c", "import sys\nsys.path[:0]=['']\nfrom link import codec\nprint(codec.VERSION)"],
                    cwd=str(tmp_path / "x"))
    assert r.stdout.strip() == "1", r.stderr


def test_a_board_whose_heap_cannot_hold_the_app_is_refused_before_copying(tmp_path, src, unix_info):
    from host_tools.bench import heap32
    root = tmp_path / "board"
    root.mkdir()
    # a stock ESP32 image: about 110 KB of heap, .mpy code in it
    info = dict(unix_info, free=110 * 1024, romfs=False)
    with pytest.raises(UserError) as e:
        run(deploy.DirTarget(str(root), info), src)
    msg = str(e.value)
    assert "%d KB of heap" % (heap32.NEED["mpy"] // 1024) in msg and "110 KB free" in msg
    assert "no ROMFS" in msg and "\n" not in msg
    assert not any(root.iterdir())          # nothing copied
    # with the code in a ROMFS image or frozen, each is asked for its own figure
    need_rom, need_frozen = heap32.NEED["rom"], heap32.NEED["frozen"]
    with pytest.raises(UserError) as e:
        run(deploy.DirTarget(str(root), dict(unix_info, free=need_frozen - 1024, app_code="frozen")), src)
    assert "%d KB of heap" % (need_frozen // 1024) in str(e.value) and "app frozen" in str(e.value)
    with pytest.raises(UserError) as e:
        run(deploy.DirTarget(str(root), dict(unix_info, free=need_rom - 1024, romfs=True, app_code="rom")), src)
    assert "%d KB of heap" % (need_rom // 1024) in str(e.value) and "app rom" in str(e.value)
    assert not any(root.iterdir())
    run(deploy.DirTarget(str(root), dict(unix_info, free=need_rom + 1024, romfs=True, app_code="rom")), src)
    run(deploy.DirTarget(str(tmp_path / "fz"), dict(unix_info, free=need_frozen + 1024, app_code="frozen")), src)
    # the reference board's 8 MB PSRAM heap holds it
    run(deploy.DirTarget(str(tmp_path / "s3"), dict(unix_info, free=8 << 20)), src)
