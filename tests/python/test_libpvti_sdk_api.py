"""libpvti's documented session API and the decorators of SDK programs (poptorch's dataset
instrumentation, poplar KGE's instrument_fn, per-thread channels), each traced and read back with
pva.openTrace; without PVTI_OPTIONS the same program records nothing."""
import glob
import os
import sqlite3
import subprocess
import sys
import textwrap

import pva

PROGRAM = textwrap.dedent("""
    import threading
    import libpvti as pvti

    print("file", pvti.getCurrentTraceFilename())
    pvti.Tracepoint.begin(pvti.traceDrivers, "driver work")
    pvti.Tracepoint.end(pvti.traceDrivers, "driver work")
    muted = pvti.createTraceChannel("muted")
    print("channels", pvti.listTraceChannel())
    pvti.disableTraceChannel(muted)
    print("muted", pvti.checkTraceChannel(muted))
    with pvti.Tracepoint(muted, "not recorded"):
        pass
    pvti.enableTraceChannel(muted)
    print("unmuted", pvti.checkTraceChannel(muted))
    with pvti.Tracepoint(muted, "recorded"):
        pass

    kge = pvti.createTraceChannel("kge")

    @pvti.instrument_fn(kge)
    def score(x):
        return x * 2

    class Trainer:
        @pvti.instrument_fn(kge)
        def step(self):
            return score(3)

    print("step", Trainer().step())

    class Samples:
        def __len__(self):
            return 2

        def __getitem__(self, index):
            return index + 10

    data = pvti.createTraceChannel("data")
    samples = pvti.instrument(Samples(), ("__len__", "__getitem__"), data)
    print("samples", [samples[i] for i in range(len(samples))], type(samples).__name__,
          isinstance(samples, Samples), type(Samples()).__len__ is Samples.__len__)

    def worker(index):
        channel = pvti.createTraceChannel(f"worker {index}")
        with pvti.Tracepoint(channel, f"job {index}"):
            pass

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pvti.Graph("Loss").addSeries("train").add(0.25)  # the unit is optional, as in libpvti
    pvti.closeTrace()
    pvti.Tracepoint.event(kge, "after close")
    print("closed", pvti.checkTraceChannel(kge))
""")


def run(tmp_path, options):
    env = dict(os.environ)
    env.pop("PVTI_OPTIONS", None)
    if options:
        env["PVTI_OPTIONS"] = options
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.strip().splitlines())


def tree(event):
    return (event.channel, event.label, [tree(c) for c in event.children()])


def test_session_api_and_decorators_traced(tmp_path):
    printed = run(tmp_path, '{"enable":"true","directory":"trace"}')
    [path] = glob.glob(str(tmp_path / "trace" / "*.pvti"))
    assert printed["file"] == os.path.join("trace", os.path.basename(path))
    assert printed["channels"].startswith(
        "[['Drivers', True], ['Poplar', True], ['Framework', True], ")
    assert "['muted', True]" in printed["channels"]
    assert (printed["muted"], printed["unmuted"]) == ("False", "True")
    assert printed["step"] == "6"
    assert printed["samples"] == "[10, 11] Samples True True"
    assert printed["closed"] == "False"

    [process] = pva.openTrace(path).processes
    main, *workers = sorted(process.threads, key=lambda t: t.tid != process.pid)
    assert main.tid == process.pid
    assert [tree(e) for e in main.events] == [
        ("Drivers", "driver work", []),
        ("muted", "recorded", []),
        ("kge", "Trainer.step", [("kge", "score", [])]),
        ("data", "__len__", []),
        ("data", "__getitem__", []),
        ("data", "__getitem__", []),
    ]
    assert sorted(tree(e) for t in workers for e in t.events) == [
        ("worker 0", "job 0", []), ("worker 1", "job 1", [])]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT n.text, g.unit, s.value FROM graph g JOIN name n ON "
                          "n.id = g.name_id JOIN series r ON r.graph_id = g.id JOIN sample s "
                          "ON s.series_id = r.id").fetchall() == [("Loss", "", 0.25)]


def test_session_api_without_tracing(tmp_path):
    printed = run(tmp_path, None)
    assert printed["file"] == ""
    assert printed["channels"].startswith(
        "[['Drivers', False], ['Poplar', False], ['Framework', False], ")
    assert (printed["muted"], printed["unmuted"], printed["closed"]) == ("False", "False", "False")
    assert printed["samples"] == "[10, 11] Samples True True"
    assert glob.glob(str(tmp_path / "**" / "*.pvti"), recursive=True) == []
