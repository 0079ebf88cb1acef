"""The docs say what the product is now: no doc, comment or test name
numbers a round of work (those numbers mean nothing to a reader, and the
history they stand for is CHANGELOG.md's and the git log's), and
CHANGELOG.md exists with dated headings, newest first."""
import datetime
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".venv", ".git", "node_modules", "bakumat.egg-info", "__pycache__", ".pytest_cache"}
EXTS = (".md", ".py", ".js")
SELF = os.path.relpath(os.path.abspath(__file__), REPO)

# A round of work named by its number: "session 9", "sessions 12-14",
# "round 3", "(s9)", a branch such as `s12-decision-slicing`, "S14". The
# capital S takes 4 and up only: S0-S3 are a multiplexer's select lines,
# and ESP32-S2 / -S3 are chips (matched with the dash before them).
NUMBERED = [
    re.compile(r"\bsessions? \d+", re.I),
    re.compile(r"\brounds? \d+", re.I),
    re.compile(r"(?<![\w.])\(s\d+\)", re.I),
    re.compile(r"`s\d+-[a-z]", re.I),
    re.compile(r"\bround-\d", re.I),
    re.compile(r"\bsince (?:the )?session\b", re.I),
    re.compile(r"(?<![-\w])S(?:[4-9]|[1-9]\d)\b"),
]


def _files():
    for d, dirs, files in os.walk(REPO):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        for f in files:
            p = os.path.join(d, f)
            # CHANGELOG.md is the history; this file holds the patterns' examples
            if f.endswith(EXTS) and os.path.relpath(p, REPO) not in ("CHANGELOG.md", SELF):
                yield p


def numbered_rounds(text):
    """(line number, the words) of each place text numbers a round of work."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        for pat in NUMBERED:
            m = pat.search(line)
            if m:
                out.append((i, m.group(0)))
    return out


def test_the_patterns_find_a_numbered_round_and_leave_the_chips_alone():
    assert numbered_rounds("measured in session 14 and sessions 12-14") == [(1, "session 14")]
    assert [w for _, w in numbered_rounds("the second pass (round 3)\nfound (s9)\non `s12-decision-slicing`\nS14's table")] \
        == ["round 3", "(s9)", "`s12-d", "S14"]
    assert numbered_rounds("an ESP32-S3 and an ESP32-S2, select lines S0-S3, bytes(s1), "
                           "a first session on the virtual board, the round ended") == []


def test_no_file_numbers_a_round_of_work():
    found = []
    for p in _files():
        with open(p, encoding="utf-8", errors="replace") as f:
            for i, words in numbered_rounds(f.read()):
                found.append("%s:%d: %s" % (os.path.relpath(p, REPO), i, words))
    assert not found, "say what is (history goes to CHANGELOG.md):\n" + "\n".join(found)


def test_the_changelog_has_dated_headings_newest_first():
    path = os.path.join(REPO, "CHANGELOG.md")
    assert os.path.isfile(path), "CHANGELOG.md is missing"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    heads = re.findall(r"^## (.*)$", text, re.M)
    assert heads, "CHANGELOG.md has no `## YYYY-MM-DD` heading"
    dates = []
    for h in heads:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", h.strip()), "CHANGELOG.md heading %r is not a date" % h
        dates.append(datetime.date.fromisoformat(h.strip()))
    assert dates == sorted(dates, reverse=True), "CHANGELOG.md's dates are not newest first: %s" % heads
    assert len(set(dates)) == len(dates), "CHANGELOG.md has a date twice"
    for h in heads:   # every dated entry says something
        body = text.split("## " + h, 1)[1].split("\n## ", 1)[0]
        assert body.strip().startswith("- "), "CHANGELOG.md %s has no entry" % h
