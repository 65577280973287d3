"""What public libpva scripts rely on: the tutorial's visitor reads `computeset.vertices` of every
OnTileExecute step (an on-tile Copy is a Copy step, with no compute set), test helpers walk
`compilation.computeSets[i].vertices`, and an API TileScope cannot serve raises naming it."""
import os
import subprocess

import pytest

import pva


@pytest.fixture(scope="module")
def copy_profile(scratch):
    directory = os.path.join(scratch, "copy")
    os.makedirs(directory, exist_ok=True)
    env = dict(os.environ, POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true",'
                                                 '"autoReport.directory":"./report"}')
    out = subprocess.run([os.environ["TILESCOPE_TEST_COPY_PROGRAM"]], cwd=directory, env=env,
                         check=True, capture_output=True, text=True).stdout
    assert out.strip() == "copy: 1 4 9 16 25 36"
    return os.path.join(directory, "report", "profile.pop")


def test_compute_sets_list_their_vertices(profile):
    compilation = pva.openReport(profile).compilation
    [cs] = compilation.computeSets
    assert isinstance(cs, pva.ComputeSet) and repr(cs) == f"<pva.ComputeSet '{cs.name}'>"
    assert sum(v.count for v in cs.vertices) == cs.numVertices == 4
    [program] = [p for p in compilation.programs if p.type == pva.Program.Type.OnTileExecute]
    from_program = program.computeset
    assert type(from_program) is pva.ComputeSet
    assert (from_program.id, from_program.name, from_program.numVertices) == (
        cs.id, cs.name, cs.numVertices)
    assert [(v.type.name, list(v.countByTile)) for v in from_program.vertices] == [
        (v.type.name, list(v.countByTile)) for v in cs.vertices]


def test_tutorial_visitor_over_an_on_tile_copy(copy_profile):
    report = pva.openReport(copy_profile)
    visited = []

    class Visitor(pva.ProgramVisitor):
        def visitOnTileExecute(self, program):
            visited.append(("OnTileExecute", program.name, len(program.computeset.vertices)))

        def visitCopy(self, program):
            visited.append(("Copy", program.name, program.computeset))

    for step in report.execution.steps:
        step.program.accept(Visitor())
    assert visited == [("Copy", "duplicate", None), ("OnTileExecute", "square", 1)]
    # The liveness view lowers the same way.
    types = [s.program.type for s in report.compilation.livenessProgramSteps]
    assert types == [pva.Program.Type.Copy, pva.Program.Type.OnTileExecute]
    copies = [p for p in report.compilation.programs if p.type == pva.Program.Type.Copy]
    assert [p.name for p in copies] == ["duplicate"]


def test_active_cycles_raise_naming_the_api(profile):
    step = pva.openReport(profile).execution.steps[0]
    with pytest.raises(pva.Error, match="activeCycles is not supported"):
        step.ipus[0].activeCycles
