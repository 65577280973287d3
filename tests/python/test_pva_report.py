"""pva over a captured report: values agree with the C++ reader, the names are libpva's
properties, the visitor dispatches by program type, and bad files raise naming the file."""
import json

import numpy

import pytest

import pva


def test_target_and_tiles_match_cpp(profile, cpp_figures):
    report = pva.openReport(profile)
    target = report.compilation.target
    assert target.numTiles == cpp_figures["tiles"] == 4
    assert target.tilesPerIpu == 4 and target.numIPUs == 1
    assert target.type == pva.Target.Type.IPU_MODEL
    assert target.bytesPerTile > 0 and target.clockFrequency > 0
    tiles = report.compilation.tiles
    assert len(tiles) == 4
    assert {t.number: t.memory.total.includingGaps for t in tiles} == cpp_figures["memory"]
    for tile in tiles:
        memory = tile.memory
        assert memory.total.excludingGaps <= memory.total.includingGaps
        assert memory.category.vertexCode.total > 0
        assert memory.alwaysLiveBytes + memory.notAlwaysLiveBytes >= 0


def test_memory_by_tile_is_numpy(profile, cpp_figures):
    compilation = pva.openReport(profile).compilation
    array = compilation.memoryByTile()
    assert isinstance(array, numpy.ndarray) and array.dtype == numpy.uint64
    assert list(array) == [cpp_figures["memory"][t] for t in range(4)]


def test_graph_programs_and_liveness(profile, cpp_figures):
    compilation = pva.openReport(profile).compilation
    assert compilation.graph.numComputeSets == cpp_figures["computeSets"]
    assert compilation.graph.numVertices == 4
    with pytest.raises(RuntimeError, match="numEdges"):
        compilation.graph.numEdges
    programs = compilation.programs
    assert [p.type for p in programs] == [pva.Program.Type.Sequence, pva.Program.Type.OnTileExecute]
    assert [c.name for c in programs[0].children] == ["square"]
    assert programs[1] is not None and programs[1].children == []
    assert len(compilation.computeSets) == 1
    assert len(compilation.livenessProgramSteps) == 1
    step = compilation.livenessProgramSteps[0]
    assert step.program.type == pva.Program.Type.OnTileExecute
    assert step.notAlwaysLiveMemory.bytes >= 0
    assert any(v.name == "x" for v in compilation.alwaysLiveVariables)


def test_execution_cycles_match_cpp(profile, cpp_figures):
    execution = pva.openReport(profile).execution
    runs = execution.runs
    assert len(runs) == 2
    seen = []
    for r, run in enumerate(runs):
        for i, step in enumerate(run.steps):
            seen.append((r, i, step.cycles, step.program.name))
            assert step.cyclesTo - step.cyclesFrom == step.cycles
            assert step.ipus[0].cycles == step.cycles
            assert max(step.cyclesByTile) == step.cycles
        by_tile = run.cyclesByTile()
        assert by_tile.shape == (run.numSteps, 4)
        assert isinstance(by_tile, numpy.ndarray) and by_tile.dtype == numpy.uint64
        assert list(by_tile[0]) == run.steps[0].cyclesByTile
    assert seen == cpp_figures["steps"]
    assert execution.totalCycles == sum(s[2] for s in cpp_figures["steps"])
    assert len(execution.steps) == len(cpp_figures["steps"])


def test_visitor_dispatches_by_type(profile):
    report = pva.openReport(profile)

    class Collect(pva.ProgramVisitor):
        def __init__(self):
            super().__init__()
            self.visited = []

        def visitOnTileExecute(self, p):
            cs = p.computeset
            self.visited.append((p.name, cs.name, [(v.type.name, v.type.size, list(v.countByTile))
                                                   for v in cs.vertices]))

    visitor = Collect()
    for program in report.compilation.programs:
        program.accept(visitor)  # the Sequence goes to the base class's no-op visitSequence
    assert len(visitor.visited) == 1
    name, cs_name, vertices = visitor.visited[0]
    assert name == "square" and cs_name.startswith("square")
    assert len(vertices) == 1 and "SQUARE" in vertices[0][0]
    assert vertices[0][2] == [1, 1, 1, 1]
    with pytest.raises(TypeError, match="visitSequence"):
        report.compilation.programs[0].accept(object())


def test_bad_files_raise_naming_the_file(tmp_path):
    missing = str(tmp_path / "missing.pop")
    with pytest.raises(pva.OpenFileError, match="missing.pop"):
        pva.openReport(missing)
    corrupt = tmp_path / "corrupt.pop"
    corrupt.write_bytes(b"not a report" * 100)
    with pytest.raises(RuntimeError, match="corrupt.pop"):
        pva.openReport(str(corrupt))
    with pytest.raises(RuntimeError, match="corrupt.pop"):
        pva.openTrace(str(corrupt))
    assert issubclass(pva.OpenFileError, RuntimeError)


def test_step_lists_index_and_slice(profile):
    steps = pva.openReport(profile).execution.steps
    assert len(steps) == 2
    assert steps[-1].cyclesFrom == steps[1].cyclesFrom
    assert [s.cycles for s in steps[0:2]] == [s.cycles for s in steps]
    with pytest.raises(IndexError):
        steps[2]


def test_operation_analysis(profile):
    operations = pva.OperationAnalysis(pva.openReport(profile)).operations
    assert [op.name for op in operations] == ["squareInPlace"]
    op = operations[0]
    assert op.debugPath.startswith("square") and op.layer == "PopLibs"
    assert [p.name for p in op.programs] == ["square"]
    dc = op.debugContext
    assert dc.name == "squareInPlace" and dc.layer == "PopLibs"
    info = json.loads(dc.json)
    assert info["api"] == "squareInPlace"
    assert info["args"]["t"]["name"] == "x"
    assert info["args"]["t"]["shape"] == "[4, 2]"
    assert info["args"]["t"]["type"] == "float"
    with pytest.raises(RuntimeError, match="replacedDebugContext"):
        op.replacedDebugContext


def test_blocks_of_a_tile(profile, tmp_path):
    # The captured program selects no blocks: none on any tile.
    assert pva.openReport(profile).execution.blocks(0) == []
    # Rows as the engine writes them (format v5 `block` table), added to a copy of the report.
    import shutil
    import sqlite3
    copy = str(tmp_path / "blocks.pop")
    shutil.copy(profile, copy)
    db = sqlite3.connect(copy)
    program = db.execute("SELECT id FROM program ORDER BY id LIMIT 1").fetchone()[0]
    db.executemany("INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, "
                   "cycles_from, cycles_to, dropped) VALUES(?,?,?,?,?,?,?,?,?)",
                   [(0, 0, 0, 0, program, None, 100, 250, 0),
                    (0, 0, 0, 7, None, None, 300, 400, 5)])
    db.commit()
    db.close()
    execution = pva.openReport(copy).execution
    assert execution.blockTiles == [0]
    blocks = execution.blocks(0)
    assert [(b.cyclesFrom, b.cyclesTo, b.tile) for b in blocks] == [(100, 250, 0), (300, 400, 0)]
    assert blocks[0].isCommon and not blocks[0].isStreamCopy
    names = {p.name for p in pva.openReport(copy).compilation.programs}
    assert blocks[0].program.name in names
    assert blocks[1].isOverflow and blocks[1].droppedRecords == 5
    assert blocks[1].program.name == "Overflow"


def test_debug_contexts_of_programs_and_variables(profile):
    compilation = pva.openReport(profile).compilation
    [dc] = compilation.debugContexts
    assert json.loads(dc.json)["api"] == "squareInPlace"
    programs = [p for p in compilation.programs if p.debugContexts]
    assert programs and all(p.debugContexts[0].id == dc.id for p in programs)
    # x was created by the user, outside any operation.
    assert [v.debugContexts for v in compilation.variables if v.name == "x"] == [[]]
