#include "ExecutionCanvas.hpp"

#include "ExecutionModel.hpp"
#include "Format.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
constexpr double kMinimumCyclesVisible = 64;
constexpr float kSwatch = 10.0f;
void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}
} // namespace

QColor ExecutionCanvas::phaseColour(int phase) {
    switch (phase) {
    case ExecutionModel::Compute:
        return QColor(0x4e, 0x79, 0xa7);
    case ExecutionModel::Exchange:
        return QColor(0xf2, 0x8e, 0x2b);
    case ExecutionModel::Sync:
        return QColor(0xba, 0xb0, 0xac);
    default:
        return QColor(0x59, 0xa1, 0x4f); // stream copies
    }
}

ExecutionCanvas::ExecutionCanvas(ExecutionModel& model, QWidget* parent)
    : ChartCanvas(parent), model_(model) {
    connect(&model_, &ExecutionModel::runChanged, this, &ExecutionCanvas::resetExtent);
    connect(&model_, &ExecutionModel::windowChanged, this, qOverload<>(&QWidget::update));
    connect(&model_, &ExecutionModel::failed, this, qOverload<>(&QWidget::update));
}

void ExecutionCanvas::resetExtent() {
    const auto* run = model_.run();
    const double cycles = run ? double(std::max<std::uint64_t>(1, run->totalCycles)) : 1.0;
    viewport().setExtent(cycles, std::min(kMinimumCyclesVisible, cycles));
    emit windowChanged(viewport().begin(), viewport().end());
    update();
}

QString ExecutionCanvas::message() const {
    if (!model_.error().isEmpty())
        return tr("Cannot read the execution trace: %1").arg(model_.error());
    if (!model_.isLoaded())
        return tr("Loading runs…");
    if (model_.runs().empty())
        return tr("This report has no runs: the program was compiled but not executed.");
    if (!model_.hasWindow())
        return tr("Loading steps…");
    return {};
}

QString ExecutionCanvas::formatY(double value) const {
    return formatPercent(value);
}

QString ExecutionCanvas::formatX(double value) const {
    // Cycle counts reach billions: keep axis labels short.
    const double v = std::abs(value);
    if (v >= 1e9)
        return QStringLiteral("%1G").arg(value / 1e9, 0, 'g', 4);
    if (v >= 1e6)
        return QStringLiteral("%1M").arg(value / 1e6, 0, 'g', 4);
    if (v >= 1e4)
        return QStringLiteral("%1k").arg(value / 1e3, 0, 'g', 4);
    return QString::number(std::llround(value));
}

double ExecutionCanvas::rightMargin() const {
    float widest = 0;
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        widest = std::max(widest,
                          ImGui::CalcTextSize(ExecutionModel::phaseName(p).toUtf8().constData()).x);
    return widest + kSwatch + 24;
}

void ExecutionCanvas::prepareFrame(const QRectF& plot) {
    if (!model_.run())
        return;
    model_.requestWindow(std::uint64_t(std::max(0.0, std::floor(viewport().begin()))),
                         std::uint64_t(std::max(0.0, std::ceil(viewport().end()))),
                         std::max(1, int(plot.width())));
}

int ExecutionCanvas::columnAt(double cycle) const {
    const auto& cols = model_.window().columns;
    auto it = std::upper_bound(cols.begin(), cols.end(), cycle, [](double c, const auto& col) {
        return c < double(col.firstCycle);
    });
    if (it == cols.begin())
        return -1;
    --it;
    return cycle < double(it->endCycle) ? int(it - cols.begin()) : -1;
}

void ExecutionCanvas::drawChart(ImDrawList& list, const QRectF& plot) {
    ImU32 colours[ExecutionModel::PhaseCount];
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        colours[p] = colour(phaseColour(p));
    const auto& cols = model_.window().columns;
    for (const auto& col : cols) {
        float x0 = float(xToPixel(double(col.firstCycle)));
        const float x1 = std::max(float(xToPixel(double(col.endCycle))), x0 + 1);
        double whole = 0;
        for (double c : col.cycles)
            whole += c;
        // Shares of the cycles counted in the column (close to, not always exactly, its width:
        // a step counts in the pyramid bucket it starts in).
        if (whole <= 0)
            continue;
        double acc = 0;
        for (int p = 0; p < ExecutionModel::PhaseCount; ++p) {
            if (col.cycles[std::size_t(p)] <= 0)
                continue;
            const double share = col.cycles[std::size_t(p)] / whole;
            list.AddRectFilled(ImVec2(x0, float(yToPixel(acc + share))),
                               ImVec2(x1, float(yToPixel(acc))), colours[p]);
            acc += share;
        }
    }
    if (hasHover() && plot.contains(hoverPosition())) {
        const int c =
            columnAt(viewport().toDomain(hoverPosition().x() - plot.left(), plot.width()));
        if (c >= 0) {
            const auto& col = cols[std::size_t(c)];
            list.AddRectFilled(ImVec2(float(xToPixel(double(col.firstCycle))), float(plot.top())),
                               ImVec2(std::max(float(xToPixel(double(col.endCycle))),
                                               float(xToPixel(double(col.firstCycle))) + 1),
                                      float(plot.bottom())),
                               colour(palette().color(QPalette::Text), 0.15));
            drawTooltip(c);
        }
    }
}

void ExecutionCanvas::drawOverlay(ImDrawList& list, const QRectF& plot) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float x = float(plot.right()) + 12;
    float y = float(plot.top());
    const ImU32 label = colour(palette().color(QPalette::Text));
    for (int p = ExecutionModel::PhaseCount - 1; p >= 0; --p) {
        list.AddRectFilled(ImVec2(x, y + 2), ImVec2(x + kSwatch, y + 2 + kSwatch),
                           colour(phaseColour(p)));
        list.AddText(ImVec2(x + kSwatch + 6, y), label,
                     ExecutionModel::phaseName(p).toUtf8().constData());
        y += line;
    }
}

void ExecutionCanvas::drawTooltip(int column) {
    const auto& col = model_.window().columns[std::size_t(column)];
    ImGui::BeginTooltip();
    if (col.step) {
        const auto& s = *col.step;
        text(tr("Step %1 of the run (program step %2)")
                 .arg(formatCount(s.seq), formatCount(s.stepId)));
        text(tr("%1, %2 cycles from cycle %3")
                 .arg(ExecutionModel::phaseName(ExecutionModel::phaseFromName(s.phase)),
                      formatCount(std::int64_t(s.cycles)),
                      formatCount(std::int64_t(s.startCycle))));
        text(tr("Tile balance %1").arg(formatPercent(s.tileBalance)));
        text(tr("Click to select this program step in the other views"));
        if (col.steps > 1)
            text(tr("%1 steps in this pixel").arg(std::llround(col.steps)));
    } else {
        text(tr("Cycles %1–%2, %3 steps")
                 .arg(formatCount(std::int64_t(col.firstCycle)),
                      formatCount(std::int64_t(col.endCycle)),
                      formatCount(std::llround(col.steps))));
    }
    double sum = 0;
    for (double c : col.cycles)
        sum += c;
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        if (col.cycles[std::size_t(p)] > 0)
            text(QStringLiteral("%1: %2 cycles (%3)")
                     .arg(ExecutionModel::phaseName(p),
                          formatCount(std::llround(col.cycles[std::size_t(p)])),
                          formatPercent(col.cycles[std::size_t(p)] / sum)));
    ImGui::EndTooltip();
}

void ExecutionCanvas::clickedAt(double x, Qt::KeyboardModifiers modifiers) {
    Q_UNUSED(modifiers);
    const int c = columnAt(x);
    if (c >= 0 && model_.window().columns[std::size_t(c)].step)
        emit stepClicked(model_.window().columns[std::size_t(c)].step->stepId);
}

} // namespace tilescope::gui
