#include "OperationsGraphBench.hpp"

#include "operations/OperationGraph.hpp"
#include "operations/OperationGraphWidget.hpp"

#include <QElapsedTimer>
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilescope::gui {
namespace {

std::string tensorJson(int id) {
    return R"({"name":"t)" + std::to_string(id) + R"(","type":"half","shape":"[256, 512]"})";
}

double elapsedMs(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

/// One paint of `widget` into a pixmap (synchronous), in ms.
double paintMs(OperationGraphWidget& widget) {
    QElapsedTimer timer;
    timer.start();
    widget.grab();
    return elapsedMs(timer);
}

/// The sweep's views of the widget's graph: fitted, then every zoom level a factor of 2 apart
/// from the fit up to the largest, each at the top, middle and bottom of the layout. Returns the
/// worst paint, each view's figure being the best of `passes`.
double worstSweepPaint(OperationGraphWidget& widget, int passes, int& frames) {
    widget.fit();
    std::vector<std::pair<double, QPointF>> views;
    const QSizeF size = widget.layoutSize();
    views.push_back({widget.scale(), QPointF(size.width() / 2, size.height() / 2)});
    for (double scale = widget.scale(); scale < 4.0; scale *= 2)
        for (double at : {0.0, 0.5, 1.0})
            views.push_back(
                {std::min(4.0, scale * 2), QPointF(size.width() / 2, size.height() * at)});
    double worst = 0;
    for (const auto& [scale, centre] : views) {
        double best = 1e300;
        for (int pass = 0; pass < passes; ++pass) {
            widget.zoomTo(scale, centre);
            best = std::min(best, paintMs(widget));
            ++frames;
        }
        worst = std::max(worst, best);
        fprintf(stderr, "scale %.4f y %.0f: %.2f ms\n", scale, centre.y(), best);
    }
    return worst;
}

} // namespace

report::RolledUpOperations generatedOperations(int layers, int perLayer, int branches) {
    report::RolledUpOperations r;
    int nextTensor = 0;
    int previousLayerOutput = -1; // the tensor the previous layer ends with
    for (int layer = 0; layer < layers; ++layer) {
        report::OperationTotals l;
        l.operation.name = "layer";
        l.operation.debugPath = "model/layer" + std::to_string(layer);
        r.operations.push_back(l);
        std::vector<int> outputs; // tensor each operation of this layer outputs
        for (int op = 0; op < perLayer; ++op) {
            const int in = op >= branches             ? outputs[std::size_t(op - branches)]
                           : previousLayerOutput >= 0 ? previousLayerOutput
                                                      : nextTensor++; // a graph input
            const int out = nextTensor++;
            outputs.push_back(out);
            report::OperationTotals t;
            t.operation.name = op % 2 ? "matMul" : "add";
            t.operation.debugPath = l.operation.debugPath + "/op" + std::to_string(op);
            t.operation.debugJson =
                R"({"args":{"x":)" + tensorJson(in) + R"(},"output":)" + tensorJson(out) + "}";
            t.estimatedCycles = std::uint64_t(100 + (op * 37 + layer * 11) % 5000);
            t.variableBytes = t.estimatedCycles * 64;
            r.operations.push_back(std::move(t));
        }
        previousLayerOutput = outputs.empty() ? previousLayerOutput : outputs.back();
    }
    for (std::size_t i = 0; i < r.operations.size(); ++i)
        r.operations[i].operation.id = std::int64_t(i + 1);
    r.rollup = report::OperationRollup::compute(r.operations);
    return r;
}

GraphPaintFigures benchOperationsGraph(const report::RolledUpOperations& ops, int passes) {
    GraphPaintFigures f;
    f.operations = ops.operations.size();
    OperationGraphWidget widget;
    widget.resize(1600, 1000);
    widget.show();
    // The first paint of a new top-level window sets up its backing store and the fonts' caches;
    // that one-time cost is not the graph's.
    widget.grab();

    QElapsedTimer timer;
    timer.start();
    auto closed = std::make_shared<const OperationGraph>(ops, OperationGraph::defaultExpanded(ops));
    f.buildClosedMs = elapsedMs(timer);
    widget.setGraph(closed);
    widget.grab();
    f.firstPaintMs = elapsedMs(timer);
    f.closedNodes = closed->nodes().size();

    std::set<int> all;
    for (std::size_t i = 0; i < ops.operations.size(); ++i)
        if (closed->isLayer(int(i)))
            all.insert(int(i));
    timer.restart();
    auto open = std::make_shared<const OperationGraph>(ops, std::move(all));
    f.buildOpenMs = elapsedMs(timer);
    f.openNodes = open->nodes().size();
    f.edges = open->edges().size();

    widget.setGraph(closed);
    f.closedWorstPaintMs = worstSweepPaint(widget, passes, f.framesPainted);
    widget.setGraph(open);
    f.openWorstPaintMs = worstSweepPaint(widget, passes, f.framesPainted);
    return f;
}

} // namespace tilescope::gui
