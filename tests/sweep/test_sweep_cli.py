"""tilescope-cli sweep end to end: a matMul chain over PopLibs options and arguments with the local
executor and through a real single-node Slurm cluster (same summary), sweep-summary's formats and
gate, --resume, Ctrl-C, timeouts, and the failures --slurm must report at once."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from slurm_cluster import SlurmCluster  # noqa: E402

CLI = os.environ.get("TILESCOPE_CLI", "tilescope-cli")
MATMUL = os.environ.get("MATMUL_CHAIN", "matmul_chain")

# Seven variants that run and one whose option the matMul refuses (availableMemoryProportion > 1).
VARIANTS = [
    {"arg:tiles": t, "matmul.partialsType": p, "matmul.availableMemoryProportion": a}
    for t, p, a in [("4", "float", "0.6"), ("4", "half", "0.6"), ("8", "float", "0.6"),
                    ("8", "half", "0.6"), ("4", "float", "0.1"), ("8", "float", "0.1"),
                    ("16", "float", "0.6"), ("8", "half", "1.5")]
]
FAILING = "tiles-8_partialsType-half_availableMemoryProportion-1.5"
PROGRAM = ["--", MATMUL, "{tiles}", "24", "16", "20", "12"]


def run(*args, env=None, timeout=600, check=None):
    r = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, env=env,
                       timeout=timeout)
    if check is not None:
        assert r.returncode == check, f"exit {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


def metadata(report):
    db = sqlite3.connect(f"file:{report}?mode=ro", uri=True)
    try:
        return dict(db.execute("SELECT key, value FROM metadata"))
    finally:
        db.close()


def comparable(summary):
    """What must not depend on the executor: everything but times and the folder."""
    out = {}
    for v in summary["variants"]:
        out[v["name"]] = {k: v[k] for k in (
            "settings", "state", "reason", "has_report", "compiled", "fits", "pareto", "tiles",
            "total_memory_bytes", "peak_tile_memory_bytes", "always_live_bytes",
            "peak_not_always_live_bytes", "cycles", "cycles_per_run", "cycles_by_phase",
            "baseline_differences")}
    return out, summary["baseline"], summary["axes"]


@pytest.fixture(scope="module")
def variants_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("input") / "variants.json"
    path.write_text(json.dumps(VARIANTS))
    return path


@pytest.fixture(scope="module")
def local_sweep(tmp_path_factory, variants_file):
    out = tmp_path_factory.mktemp("local") / "sweep"
    r = run("sweep", "-o", out, "--variants", variants_file, "--jobs", "2", *PROGRAM, check=0)
    return out, r


def test_local_sweep_runs_every_variant_and_records_its_settings(local_sweep):
    out, r = local_sweep
    summary = json.loads((out / "summary.json").read_text())
    rows = {v["name"]: v for v in summary["variants"]}
    assert len(rows) == 8
    assert "8 variants: 7 compiled, 7 fit, 1 failed" in r.stdout
    failed = rows[FAILING]
    assert failed["state"] == "failed" and failed["reason"] == "exit status 1"
    assert "availableMemoryProportion" in failed["output_tail"]
    for name, v in rows.items():
        if name == FAILING:
            continue
        assert v["state"] == "succeeded", v
        assert v["compiled"] and v["fits"] and v["cycles"] > 0
        assert v["peak_tile_memory_bytes"] > 0 and v["total_memory_bytes"] > 0
        assert v["cycles_by_phase"]["compute"] > 0
        assert v["host_seconds"] > 0
        meta = metadata(out / name / "profile.pop")
        assert meta["sweep_variant"] == name
        assert json.loads(meta["sweep_settings"]) == v["settings"]
        poplibs = json.loads(meta["poplibs_option_defaults"])
        assert poplibs["matmul"]["partialsType"] == v["settings"]["poplibs:matmul.partialsType"]
    # The PopLibs options reached the planner: half partials and a smaller memory budget change
    # what is compiled.
    base = rows["tiles-4_partialsType-float_availableMemoryProportion-0.6"]
    half = rows["tiles-4_partialsType-half_availableMemoryProportion-0.6"]
    assert (half["cycles"], half["total_memory_bytes"]) != (base["cycles"], base["total_memory_bytes"])
    assert summary["baseline"] == "tiles-4_partialsType-float_availableMemoryProportion-0.6"
    assert any(v["pareto"] for v in rows.values())
    assert not rows[FAILING]["pareto"]


def test_sweep_summary_formats_baseline_and_gate(local_sweep):
    out, _ = local_sweep
    text = run("sweep-summary", out, check=0).stdout
    assert "Pareto front" in text and FAILING in text
    md = run("sweep-summary", out, "--format", "markdown", check=0).stdout
    assert md.startswith("## TileScope sweep") and "| Variant |" in md
    j = json.loads(run("sweep-summary", out, "--format", "json", check=0).stdout)
    assert len(j["variants"]) == 8 and j["passed"]
    base = "tiles-16_partialsType-float_availableMemoryProportion-0.6"
    j = json.loads(run("sweep-summary", out, "--format", "json", "--baseline", base, check=0).stdout)
    assert j["baseline"] == base
    deltas = {v["name"]: v["baseline_differences"] for v in j["variants"]}
    assert deltas[base] == {}
    assert "cycles" in deltas["tiles-4_partialsType-float_availableMemoryProportion-0.6"]
    # A variant slower than the baseline exceeds +0% (exit 3, named on stderr).
    slow = run("sweep-summary", out, "--max-cycles-increase", "0%", "--baseline", base)
    assert slow.returncode == 3, slow.stderr
    assert "threshold exceeded" in slow.stderr
    assert run("sweep-summary", out, "--max-cycles-increase", "1000000%").returncode == 0
    assert run("sweep-summary", out, "--max-cycles-increase", "abc").returncode == 2
    bad = run("sweep-summary", out, "--baseline", "nope")
    assert bad.returncode == 2 and "nope" in bad.stderr
    assert run("sweep-summary", out / "missing").returncode == 2


def test_resume_reruns_only_variants_without_a_complete_report(local_sweep, variants_file):
    out, _ = local_sweep
    again = run("sweep", "-o", out, "--variants", variants_file, *PROGRAM)
    assert again.returncode == 2 and "--resume" in again.stderr
    other = run("sweep", "-o", out, "--resume", "--vary", "arg:tiles=4", *PROGRAM)
    assert other.returncode == 2 and "different sweep" in other.stderr
    victim = "tiles-8_partialsType-float_availableMemoryProportion-0.6"
    kept = "tiles-4_partialsType-float_availableMemoryProportion-0.6"
    (out / victim / "profile.pop").unlink()
    kept_mtime = (out / kept / "status.json").stat().st_mtime_ns
    r = run("sweep", "-o", out, "--variants", variants_file, "--resume", *PROGRAM, check=0)
    assert "6 of 8 variants have a complete report" in r.stderr
    assert (out / victim / "profile.pop").exists()
    assert (out / kept / "status.json").stat().st_mtime_ns == kept_mtime


def test_bad_input_is_a_usage_error(tmp_path):
    r = run("sweep", "-o", tmp_path / "s", "--vary", "arg:tiles", "--", "true")
    assert r.returncode == 2 and "KEY=V1,V2" in r.stderr
    r = run("sweep", "-o", tmp_path / "s", "--vary", "arg:tiles=1,2", "--", "true")
    assert r.returncode == 2 and "{tiles}" in r.stderr
    r = run("sweep", "-o", tmp_path / "s", "--variants", tmp_path / "none.json", "--", "true")
    assert r.returncode == 2 and "none.json" in r.stderr
    r = run("sweep", "-o", "/proc/tilescope-sweep", "--", "true")
    assert r.returncode == 1 and "/proc/tilescope-sweep" in r.stderr


def test_timeout_records_a_failed_variant_with_its_output(tmp_path):
    out = tmp_path / "s"
    r = run("sweep", "-o", out, "--timeout", "1", "--vary", "arg:t=0,30", "--",
            "sh", "-c", "echo started {t}; sleep {t}", check=0)
    rows = {v["name"]: v for v in json.loads((out / "summary.json").read_text())["variants"]}
    assert rows["t-0"]["state"] == "succeeded"
    assert rows["t-30"]["state"] == "failed" and "timed out" in rows["t-30"]["reason"]
    assert "started 30" in rows["t-30"]["output_tail"]
    assert not rows["t-30"]["has_report"]


def test_ctrl_c_stops_running_variants_and_keeps_finished_ones(tmp_path):
    out = tmp_path / "s"
    # The command names this run's folder, so the check of `ps` below sees only its own
    # processes, not those of another run of this test on the same machine.
    command = f"sleep {{t}}; echo done in {out}"
    p = subprocess.Popen([CLI, "sweep", "-o", str(out), "--jobs", "1", "--vary", "arg:t=0,60",
                          "--", "sh", "-c", command],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / "t-60" / "variant.json").exists():
        assert time.monotonic() < deadline and p.poll() is None
        time.sleep(0.1)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=30)
    assert p.returncode == 130, stderr
    assert "interrupted" in stderr
    rows = {v["name"]: v for v in json.loads((out / "summary.json").read_text())["variants"]}
    assert rows["t-0"]["state"] == "succeeded"
    assert rows["t-60"]["state"] == "cancelled"
    # The program's process group is gone: nothing sleeps on.
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert command.replace("{t}", "60") not in ps


# --- Slurm -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    for tool in ("slurmctld", "slurmd", "munged", "sbatch"):
        if subprocess.run(["which", tool], capture_output=True).returncode != 0:
            pytest.fail(f"{tool} is not installed (scripts/setup.sh installs Slurm and munge)")
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    cluster.start()
    yield cluster
    cluster.stop()


def test_slurm_sweep_gives_the_local_summary(slurm, local_sweep, variants_file, tmp_path):
    out = tmp_path / "slurm-sweep"
    r = run("sweep", "-o", out, "--slurm", "--poll-interval", "0.5", "--time", "10",
            "--variants", variants_file, *PROGRAM, env=slurm.env)
    assert r.returncode == 0, r.stderr + "\n" + slurm.logs()
    assert "submitted job array" in r.stderr
    local = json.loads((local_sweep[0] / "summary.json").read_text())
    remote = json.loads((out / "summary.json").read_text())
    assert comparable(remote) == comparable(local)
    executors = {json.loads((out / v["name"] / "status.json").read_text())["executor"]
                 for v in remote["variants"]}
    assert executors == {"slurm"}


def test_slurm_ctrl_c_cancels_the_array_and_keeps_finished_variants(slurm, tmp_path):
    out = tmp_path / "s"
    p = subprocess.Popen([CLI, "sweep", "-o", str(out), "--slurm", "--poll-interval", "0.3",
                          "--vary", "arg:t=0,60", "--", "sh", "-c", "sleep {t}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=slurm.env)
    deadline = time.monotonic() + 90
    while not ((out / "t-0" / "status.json").exists() and (out / "t-60" / "variant.json").exists()):
        assert time.monotonic() < deadline and p.poll() is None, slurm.logs()
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=90)
    assert p.returncode == 130, stderr
    assert "cancelled job array" in stderr
    rows = {v["name"]: v for v in json.loads((out / "summary.json").read_text())["variants"]}
    assert rows["t-0"]["state"] == "succeeded"
    assert rows["t-60"]["state"] == "cancelled"
    queue = subprocess.run(["squeue", "-h"], capture_output=True, text=True, env=slurm.env)
    assert queue.stdout.strip() == ""


def test_slurm_failures_are_reported_at_once_and_lose_nothing(local_sweep, variants_file, tmp_path):
    out, _ = local_sweep
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    env = dict(os.environ, PATH="/nonexistent")
    r = run("sweep", "-o", out, "--resume", "--slurm", "--variants", variants_file, *PROGRAM,
            env=env)
    assert r.returncode == 1 and "sbatch not found on PATH" in r.stderr

    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=none\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=9\n"
                    "AuthType=auth/none\nNodeName=x CPUs=1\nPartitionName=p Nodes=x\n")
    env = dict(os.environ, SLURM_CONF=str(conf))
    started = time.monotonic()
    r = run("sweep", "-o", out, "--resume", "--slurm", "--variants", variants_file, *PROGRAM,
            env=env, timeout=120)
    assert r.returncode == 1 and "slurmctld is not answering" in r.stderr, r.stderr
    assert time.monotonic() - started < 60

    r = run("sweep", "-o", "/proc/tilescope-sweep", "--slurm", "--", "true")
    assert r.returncode == 1 and "/proc/tilescope-sweep" in r.stderr

    after = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    assert after == before

