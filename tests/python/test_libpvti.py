"""libpvti: a Python program instrumented with tracepoints, run with PVTI_OPTIONS, whose trace is
read back with pva.openTrace; without PVTI_OPTIONS nothing is written."""
import glob
import os
import sqlite3
import subprocess
import sys
import textwrap

import pva

PROGRAM = textwrap.dedent("""
    import libpvti as pvti

    channel = pvti.createTraceChannel("pytest")

    @pvti.Tracepoint(channel, "decorated")
    def decorated():
        pvti.Tracepoint.event(channel, "instant")

    class Model:
        def train(self):
            with pvti.Tracepoint(channel, "inner"):
                pass

    with pvti.Tracepoint(channel, "outer"):
        decorated()
        decorated()
    model = pvti.instrument(Model(), ["train"], channel)
    model.train()
    pvti.Tracepoint.begin(channel, "manual")
    pvti.Tracepoint.end(channel, "manual")
    series = pvti.Graph("loss", "%").addSeries("train")
    series.add(1.0)
    print(pvti.tilescope.traceFile())
""")


def run_program(directory, options):
    env = dict(os.environ)
    env.pop("PVTI_OPTIONS", None)
    if options is not None:
        env["PVTI_OPTIONS"] = options
    script = os.path.join(directory, "program.py")
    with open(script, "w") as f:
        f.write(PROGRAM)
    return subprocess.run([sys.executable, script], cwd=directory, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def tree(event):
    return (event.label, [tree(c) for c in event.children()])


def test_trace_read_back(tmp_path):
    printed = run_program(str(tmp_path), '{"enable":"true","directory":"./trace"}')
    files = glob.glob(str(tmp_path / "trace" / "*.pvti"))
    assert len(files) == 1 and printed.endswith(os.path.basename(files[0]))
    trace = pva.openTrace(files[0])
    assert len(trace.processes) == 1
    process = trace.processes[0]
    assert process.pid > 0
    events = [e for t in process.threads for e in t.events if e.channel == "pytest"]
    assert [tree(e) for e in events] == [
        ("outer", [("decorated", [("instant", [])]), ("decorated", [("instant", [])])]),
        ("train", [("inner", [])]),
        ("manual", []),
    ]
    outer = events[0]
    assert isinstance(outer, pva.Event)
    assert outer.duration >= 0 and outer.timestamp > 1_600_000_000_000_000  # µs since 1970
    first, second = outer.children()
    assert outer.timestamp <= first.timestamp <= second.timestamp
    assert all(t.tid > 0 for t in process.threads)


def count_events(event):
    return 1 + sum(count_events(c) for c in event.children())


def test_python_and_cpp_tracepoints_share_file_and_clock(tmp_path):
    """A C++ library loaded into the Python process traces into the same file; its events nest
    inside the Python tracepoint around the call (one clock), and every thread's event count
    equals what the C++ trace reader counts."""
    program = textwrap.dedent(f"""
        import ctypes
        import libpvti as pvti
        library = ctypes.CDLL({os.environ["TILESCOPE_TEST_CPP_TRACEPOINTS"]!r})
        channel = pvti.createTraceChannel("python")
        with pvti.Tracepoint(channel, "python calls C++"):
            library.tilescope_test_cpp_work()
    """)
    script = tmp_path / "mixed.py"
    script.write_text(program)
    env = dict(os.environ, PVTI_OPTIONS='{"enable":"true","directory":"./trace"}')
    subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, check=True)
    files = glob.glob(str(tmp_path / "trace" / "*.pvti"))
    assert len(files) == 1
    trace = pva.openTrace(files[0])
    ours = [e for p in trace.processes for t in p.threads for e in t.events
            if e.channel in ("python", "cpp")]
    assert [tree(e) for e in ours] == [
        ("python calls C++", [("cpp work", [("cpp instant", [])])])]
    assert [(c.channel) for c in ours[0].children()] == ["cpp"]

    figures = subprocess.run([os.environ["TILESCOPE_TEST_FIGURES"], "--trace", files[0]],
                             check=True, capture_output=True, text=True).stdout.split("\n")
    expected = {int(line.split()[1]): int(line.split()[2]) for line in figures if line}
    seen = {t.tid: sum(count_events(e) for e in t.events) for p in trace.processes
            for t in p.threads}
    assert seen == expected


def test_no_options_no_file(tmp_path):
    printed = run_program(str(tmp_path), None)
    assert printed == ""
    assert glob.glob(str(tmp_path / "**" / "*.pvti"), recursive=True) == []


HEATMAP_PROGRAM = textwrap.dedent("""
    import libpvti as pvti

    latency = pvti.HeatmapDouble("latency", [1.0, 10.0], "ms")
    latency.add(0.5)
    latency.add([5.0, 50.0, 10.0])
    sizes = pvti.HeatmapUInt64("sizes", [2 ** 60])
    sizes.add(2 ** 60 + 1)
    try:
        pvti.HeatmapDouble("bad", [2.0, 1.0])
    except ValueError as e:
        print("refused:", e)
    print(pvti.tilescope.traceFile())
""")


def test_heatmaps_recorded_with_their_buckets(tmp_path):
    env = dict(os.environ, PVTI_OPTIONS='{"enable":"true","directory":"./trace"}')
    script = tmp_path / "heatmaps.py"
    script.write_text(HEATMAP_PROGRAM)
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout.strip().splitlines()
    assert "strictly ascending" in out[0]
    with sqlite3.connect(os.path.join(tmp_path, out[-1])) as db:
        heatmaps = db.execute("SELECT h.id, n.text, h.unit, h.integer_values, h.edges FROM heatmap h "
                              "JOIN name n ON n.id = h.name_id ORDER BY h.id").fetchall()
        assert [h[1:] for h in heatmaps] == [("latency", "ms", 0, "1 10"),
                                            ("sizes", "", 1, str(2 ** 60))]
        buckets = db.execute("SELECT heatmap_id, value, bucket FROM heatmap_sample "
                             "ORDER BY id").fetchall()
    latency, sizes = heatmaps[0][0], heatmaps[1][0]
    assert buckets == [(latency, 0.5, 0), (latency, 5.0, 1), (latency, 50.0, 2),
                       (latency, 10.0, 2), (sizes, float(2 ** 60 + 1), 1)]
