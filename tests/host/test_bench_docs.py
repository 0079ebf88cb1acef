"""The docs' result tables are the bench commands' own: the sections they
write (host_tools/bench/docsection.py) are in the docs, the rest of a doc is
kept when a command writes one, and a doc without the section is refused
before the minutes of work."""
import os
import subprocess

import pytest

from host_tools.bench import bench_sensing, docsection
from host_tools.errors import UserError
from mptools import tool

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs")


def test_the_sensing_doc_holds_the_tables_the_bench_writes():
    text, a, b = docsection.section(os.path.join(DOCS, "sensing-pipeline.md"), bench_sensing.DOC_BEGIN,
                                    bench_sensing.DOC_END)
    tables = text[a:b]
    assert "(`bakumat bench sensing --board lis2 --worlds family," in tables
    rows = [ln for ln in tables.splitlines() if ln.startswith("| family | ")]
    corpora = set(ln.split("|")[2].strip() for ln in rows)
    assert {"development", "held-out"} <= corpora, rows


def test_a_section_is_rewritten_and_the_rest_kept(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("head\n<!-- a -->\nold\nlines\n<!-- b -->\ntail\n", encoding="utf-8")
    docsection.write(str(doc), "<!-- a -->", "<!-- b -->", ["new"])
    assert doc.read_text(encoding="utf-8") == "head\n<!-- a -->\nnew\n<!-- b -->\ntail\n"
    with pytest.raises(UserError, match="d.md: no section for the table"):
        docsection.write(str(doc), "<!-- c -->", "<!-- b -->", ["x"])
    assert doc.read_text(encoding="utf-8") == "head\n<!-- a -->\nnew\n<!-- b -->\ntail\n"


def test_the_sensing_bench_refuses_a_doc_without_the_section_in_one_line(tmp_path):
    doc = tmp_path / "notes.md"
    doc.write_text("nothing marked\n", encoding="utf-8")
    for args in (["--worlds", "family", "--games", "1", "--doc", str(doc)], ["--games", "1", "--doc", str(doc)]):
        r = subprocess.run([tool("bakumat"), "bench", "sensing"] + args, capture_output=True, text=True, timeout=120)
        assert r.returncode != 0 and "--doc" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert doc.read_text(encoding="utf-8") == "nothing marked\n"
