"""pva.ExecutionStep and pva.Event are native views into data read once at open: they show the
same values whichever way they are reached (iteration, indexing, slicing), cannot be created from
Python, and keep their report or trace alive after the user's last reference to it is gone."""
import gc
import glob
import os
import subprocess
import sys
import textwrap

import pytest

import pva

STEP_FIELDS = ("cycles", "cyclesFrom", "cyclesTo", "programStepIndex", "activeTiles",
               "activeTileBalance")


def fields(step):
    return tuple(getattr(step, f) for f in STEP_FIELDS) + (step.program.name,)


def test_steps_iterated_indexed_and_sliced_agree(profile):
    for run in pva.openReport(profile).execution.runs:
        steps = run.steps
        indexed = [fields(steps[i]) for i in range(len(steps))]
        assert [fields(s) for s in steps] == indexed
        assert [fields(s) for s in steps[::-1]] == indexed[::-1]
        assert all(isinstance(s, pva.ExecutionStep) for s in steps)
        assert all(f[2] - f[1] == f[0] for f in indexed)
        it = iter(steps)
        assert iter(it) is it
        assert len(list(it)) == len(steps)
        with pytest.raises(StopIteration):
            next(it)


def test_steps_outlive_their_report(profile):
    report = pva.openReport(profile)
    expected = [fields(s) for s in report.execution.steps]
    kept = list(report.execution.steps)
    iterator = iter(report.execution.runs[0].steps)
    del report
    gc.collect()
    assert [fields(s) for s in kept] == expected
    assert fields(next(iterator)) == expected[0]
    assert kept[0].ipus[0].cycles == kept[0].cycles
    assert max(kept[0].cyclesByTile) == kept[0].cycles


def test_native_types_cannot_be_made_or_changed_from_python(profile):
    step = pva.openReport(profile).execution.steps[0]
    with pytest.raises(TypeError):
        pva.ExecutionStep()
    with pytest.raises(TypeError):
        pva.Event()
    with pytest.raises(AttributeError):
        step.cycles = 1


PROGRAM = textwrap.dedent("""
    import libpvti as pvti
    channel = pvti.createTraceChannel("native")
    with pvti.Tracepoint(channel, "a"):
        for i in range(3):
            with pvti.Tracepoint(channel, "b%d" % i):
                pvti.Tracepoint.event(channel, "x")
    print(pvti.tilescope.traceFile())
""")


def tree(event):
    return (event.label, event.channel, event.duration >= 0, [tree(c) for c in event.children()])


def test_events_form_a_tree_and_outlive_their_trace(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = dict(os.environ, PVTI_OPTIONS='{"enable":"true","directory":"./trace"}')
    subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, check=True,
                   capture_output=True)
    files = glob.glob(str(tmp_path / "trace" / "*.pvti"))
    assert len(files) == 1
    trace = pva.openTrace(files[0])
    roots = [e for p in trace.processes for t in p.threads for e in t.events
             if e.channel == "native"]
    del trace
    gc.collect()
    x = ("x", "native", True, [])
    assert [tree(e) for e in roots] == [
        ("a", "native", True, [("b%d" % i, "native", True, [x]) for i in range(3)])]
    a = roots[0]
    assert isinstance(a, pva.Event) and repr(a) == "<pva.Event 'a'>"
    children = a.children()
    assert [c.timestamp for c in children] == sorted(c.timestamp for c in children)
    assert all(a.timestamp <= c.timestamp for c in children)
    assert children[0].children()[0].duration == 0
