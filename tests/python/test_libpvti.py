"""libpvti: a Python program instrumented with tracepoints, run with PVTI_OPTIONS, whose trace is
read back with pva.openTrace; without PVTI_OPTIONS nothing is written."""
import glob
import os
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
