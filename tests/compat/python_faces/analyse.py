"""Reads the profile the C++ program left, as a PopVision analysis script would, and prints what
it finds; then traces a little Python work with libpvti into the directory given."""
import sys

import libpvti as pvti
import pva

report = pva.openReport(sys.argv[1])
target = report.compilation.target
print("tiles:", target.numTiles, "per IPU:", target.tilesPerIpu)
print("programs:", ", ".join(f"{p.type.name} {p.name}" for p in report.compilation.programs))


class CountVertices(pva.ProgramVisitor):
    def __init__(self):
        super().__init__()
        self.vertices = 0

    def visitOnTileExecute(self, program):
        for vertex in program.computeset.vertices:
            self.vertices += sum(int(n) for n in vertex.countByTile)


visitor = CountVertices()
for program in report.compilation.programs:
    program.accept(visitor)
print("vertices:", visitor.vertices)
for i, run in enumerate(report.execution.runs):
    print(f"run {i}:", " ".join(f"{s.program.name}={s.ipus[0].cycles > 0}" for s in run.steps))

channel = pvti.createTraceChannel("python")
with pvti.Tracepoint(channel, "analyse"):
    pvti.Tracepoint.event(channel, "done")
