"""libpvti tracepoint metadata from Python: Metadata, createJsonMetadata and the metadata argument
of Tracepoint (context manager, decorator, begin/end/event) and instrument_fn, read back from the
trace file's event_metadata table (host-trace format v5) and matched to the events it belongs to
by decoding the event blocks as the format documents them; bad metadata refused by name."""
import glob
import json
import os
import sqlite3
import subprocess
import sys
import textwrap

import libpvti

PROGRAM = textwrap.dedent("""
    import libpvti as pvti

    channel = pvti.createTraceChannel("meta")
    tag = lambda label: pvti.createJsonMetadata('{"label": "%s"}' % label)

    with pvti.Tracepoint(channel, "context", tag("context")):
        pvti.Tracepoint.event(channel, "instant", tag("instant"))

    @pvti.Tracepoint(channel, "decorated", tag("decorated"))
    def decorated():
        pass

    @pvti.instrument_fn(channel, tag("instrumented"))
    def instrumented():
        pass

    decorated()
    instrumented()
    pvti.Tracepoint.begin(channel, "manual", tag("manual begin"))
    pvti.Tracepoint.end(channel, "manual", tag("manual end"))
    pvti.Tracepoint.event(channel, "raw", pvti.Metadata("bytes", b"\\x00\\x01"))
    pvti.Tracepoint.event(channel, "untagged")
    print(pvti.tilescope.traceFile())
""")


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def unzigzag(v):
    return (v >> 1) ^ -(v & 1)


def event_names(db):
    """{event id: name} from event_block rows of layout 1 (ids implicit), per EventBlockCodec.hpp."""
    names = dict(db.execute("SELECT id, text FROM name"))
    out = {}
    for first, count, blob in db.execute("SELECT first_event_id, events, data FROM event_block"):
        assert blob[0] == 1
        n, at = varint(blob, 1)
        assert n == count
        for i in range(n):
            _, at = varint(blob, at)         # start delta
            code, at = varint(blob, at)      # duration and kind
            if code == 3:
                _, at = varint(blob, at)
            name, at = varint(blob, at)
            _, at = varint(blob, at)         # channel
            out[first + i] = names[unzigzag(name)]
    return out


def test_metadata_stored_with_the_events_it_was_given_to(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = dict(os.environ, PVTI_OPTIONS='{"enable":"true","directory":"./trace"}')
    printed = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
    files = glob.glob(str(tmp_path / "trace" / "*.pvti"))
    assert len(files) == 1 and printed.endswith(os.path.basename(files[0]))
    db = sqlite3.connect(files[0])
    assert db.execute("PRAGMA user_version").fetchone()[0] == 5
    names = event_names(db)
    rows = db.execute("SELECT event_id, point, type, data FROM event_metadata ORDER BY event_id, point")
    found = {}
    for event_id, point, kind, data in rows:
        found[(names[event_id], point)] = (kind, bytes(data))
    tagged = {(n, p): json.loads(d)["label"] for (n, p), (k, d) in found.items() if k == "json"}
    assert tagged == {
        ("context", 0): "context",
        ("instant", 0): "instant",
        ("decorated", 0): "decorated",
        ("instrumented", 0): "instrumented",
        ("manual", 0): "manual begin",
        ("manual", 1): "manual end",
    }
    assert found[("raw", 0)] == ("bytes", b"\x00\x01")
    assert not any(n == "untagged" for n, _ in found)


def test_metadata_objects_and_bad_input():
    m = libpvti.createJsonMetadata('{"a": [1, 2]}')
    assert m.type == "json" and m.data == b'{"a": [1, 2]}'
    raw = libpvti.Metadata("text", "héllo")
    assert raw.data == "héllo".encode() and "6 bytes" in repr(raw)
    raw.data = b"\xff"
    assert raw.data == b"\xff"
    for bad in ('{"a": ', "", "[1,]", "{} x"):
        try:
            libpvti.createJsonMetadata(bad)
        except ValueError as e:
            assert "createJsonMetadata" in str(e) and "not valid JSON" in str(e)
        else:
            raise AssertionError("accepted %r" % bad)
    channel = libpvti.createTraceChannel("bad")
    for call in (lambda: libpvti.Tracepoint(channel, "x", '{"not": "metadata"}'),
                 lambda: libpvti.Tracepoint.event(channel, "x", {"a": 1})):
        try:
            call()
        except TypeError as e:
            assert "libpvti.Metadata" in str(e)
        else:
            raise AssertionError("accepted metadata that is not a Metadata")
