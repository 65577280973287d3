#include "ExecutionCanvas.hpp"

#include "ExecutionModel.hpp"
#include "canvas/ColumnLookup.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
constexpr double kMinimumCyclesVisible = 64;
constexpr float kSwatch = 10.0f;
constexpr double kMaxFlameRowHeight = 24;
constexpr float kMinLabelWidth = 36;
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
    connect(&model_, &ExecutionModel::modeChanged, this, qOverload<>(&QWidget::update));
    connect(&model_, &ExecutionModel::filterChanged, this, qOverload<>(&QWidget::update));
}

double ExecutionCanvas::yAxisMaximum() const {
    switch (model_.window().mode) {
    case ExecutionModel::Flame:
        return 0; // rows, not values
    case ExecutionModel::Bsp:
        return double(std::max<std::uint32_t>(1, model_.window().bsp.tileCount));
    case ExecutionModel::PerIpu:
        return double(std::max<std::uint32_t>(1, model_.window().ipu.ipus));
    case ExecutionModel::Blocks:
        return double(std::max<std::uint32_t>(1, model_.window().blocks.totalRows()));
    default:
        return 1.0;
    }
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
    const auto& w = model_.window();
    if (w.mode == ExecutionModel::Bsp && w.bsp.tooManySteps)
        return tr("Per-tile bands show at most %1 steps: zoom in (W or the mouse wheel).")
            .arg(ExecutionModel::kMaxBspSteps);
    if (w.mode == ExecutionModel::Bsp && !w.bsp.perTileRecorded)
        return tr("This run has no per-tile cycles (captured without per-tile instrumentation).");
    if (w.mode == ExecutionModel::PerIpu && w.ipu.tooManySteps)
        return tr("Per-IPU rows of a run still being written show at most %1 steps: zoom in (W "
                  "or the mouse wheel).")
            .arg(ExecutionModel::kMaxIpuSteps);
    if (w.mode == ExecutionModel::Blocks && w.blocks.bars.empty())
        return tr("No blocks in this window: select blocks with the engine options "
                  "profiler.blocks.filter or profiler.programs.filter (lightweight profiling).");
    if (w.mode == ExecutionModel::PerIpu && !w.ipu.recorded)
        return tr("This run has no per-IPU cycles (captured without per-IPU instrumentation).");
    return {};
}

QString ExecutionCanvas::formatY(double value) const {
    const auto& w = model_.window();
    if (w.mode == ExecutionModel::Bsp) // a tick is the top edge of the row of the tile it names
        return QStringLiteral("tile %1").arg(
            std::llround(double(w.bsp.firstTile) + double(w.bsp.tileCount) - value));
    if (w.mode == ExecutionModel::Blocks) { // the tile of a band, at the band's first row
        const double fromTop = double(w.blocks.totalRows()) - value;
        if (std::abs(fromTop - std::round(fromTop)) > 1e-6)
            return {}; // ticks between rows name nothing
        const auto row = std::llround(fromTop);
        for (std::uint32_t b = 0; b < w.blocks.tiles.size(); ++b)
            if (std::llround(double(w.blocks.firstRow(b))) == row)
                return QStringLiteral("tile %1").arg(w.blocks.tiles[b]);
        return {};
    }
    if (w.mode == ExecutionModel::PerIpu) // likewise, rows of IPUs
        return QStringLiteral("IPU %1").arg(std::llround(double(w.ipu.ipus) - value));
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

QStringList ExecutionCanvas::legendNames() const {
    QStringList names;
    switch (model_.mode()) {
    case ExecutionModel::Blocks:
        // Blocks are coloured by kind and, for user blocks, by name: say so, not the phases.
        return {tr("User blocks: colour by name"), tr("Stream copy"), tr("Buffer flush (faded)"),
                tr("Overflow: records dropped")};
    case ExecutionModel::Flame:
        names << tr("Bars: programs,") << tr("one colour each") << tr("(as in Program Tree)");
        return names;
    default:
        for (int p = ExecutionModel::PhaseCount - 1; p >= 0; --p)
            names << ExecutionModel::phaseName(p);
        return names;
    }
}

double ExecutionCanvas::rightMargin() const {
    float widest = 0;
    for (const QString& n : legendNames())
        widest = std::max(widest, ImGui::CalcTextSize(n.toUtf8().constData()).x);
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
    return columnContaining(
        model_.window().columns, cycle, [](const auto& c) { return c.firstCycle; },
        [](const auto& c) { return c.endCycle; });
}

void ExecutionCanvas::drawChart(ImDrawList& list, const QRectF& plot) {
    switch (model_.window().mode) {
    case ExecutionModel::Flame:
        drawFlame(list, plot);
        break;
    case ExecutionModel::Bsp:
        drawBsp(list, plot);
        break;
    case ExecutionModel::PerIpu:
        drawIpuRows(list, plot);
        break;
    case ExecutionModel::Blocks:
        drawBlockRows(list, plot);
        break;
    default:
        drawFlat(list, plot);
    }
}

double ExecutionCanvas::flameRowHeight(const QRectF& plot) const {
    const std::size_t rows = std::max<std::size_t>(1, model_.window().flame.rows.size());
    return std::min(kMaxFlameRowHeight, plot.height() / double(rows));
}

void ExecutionCanvas::drawFlame(ImDrawList& list, const QRectF& plot) {
    const auto& rows = model_.window().flame.rows;
    const double rowH = flameRowHeight(plot);
    const ImU32 textColour = colour(QColor(0x20, 0x20, 0x20));
    const ImU32 edge = colour(palette().color(QPalette::Base), 0.8);
    const FlameSpan* hovered = nullptr;
    std::size_t hoveredDepth = 0;
    const bool hovering = hasHover() && plot.contains(hoverPosition());
    const double hoverCycle = hovering ? hoveredX() : -1;
    std::vector<std::pair<ImVec2, ImVec2>> selectedBars; // outlined after all rows are drawn
    for (std::size_t d = 0; d < rows.size(); ++d) {
        const float y0 = float(plot.top() + double(d) * rowH);
        const float y1 = float(plot.top() + double(d + 1) * rowH) - 1;
        // Bars narrower than a pixel merge into the bar being drawn, so a dense row costs one
        // rectangle per pixel at most.
        float pendingX0 = 0, pendingX1 = -1;
        ImU32 pendingColour = 0;
        auto flush = [&] {
            if (pendingX1 > pendingX0)
                list.AddRectFilled(ImVec2(pendingX0, y0), ImVec2(pendingX1, y1), pendingColour);
            pendingX1 = -1;
        };
        for (const FlameSpan& s : rows[d]) {
            const float x0 = float(xToPixel(double(s.firstCycle)));
            const float x1 = std::max(float(xToPixel(double(s.endCycle))), x0 + 1);
            if (x1 < float(plot.left()) || x0 > float(plot.right()))
                continue;
            if (hovering && hoverPosition().y() >= y0 && hoverPosition().y() < y1 &&
                hoverCycle >= double(s.firstCycle) && hoverCycle < double(s.endCycle)) {
                hovered = &s;
                hoveredDepth = d;
            }
            const ImU32 fill = colour(programColour(s.programId), 0.85);
            if (selectedProgram_ && s.programId == *selectedProgram_)
                selectedBars.emplace_back(ImVec2(x0, y0), ImVec2(x1, y1));
            if (x1 - x0 < 2 && pendingX1 >= x0 - 0.5f) {
                pendingX1 = std::max(pendingX1, x1);
                continue;
            }
            flush();
            if (x1 - x0 < 2) {
                pendingX0 = x0;
                pendingX1 = x1;
                pendingColour = fill;
                continue;
            }
            list.AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), fill);
            list.AddLine(ImVec2(x1 - 0.5f, y0), ImVec2(x1 - 0.5f, y1), edge);
            if (x1 - x0 >= kMinLabelWidth) {
                const auto entry = model_.programs().entry(s.programId);
                const QByteArray name =
                    QString::fromStdString(entry.name.empty() ? entry.kind : entry.name).toUtf8();
                const ImVec4 clip(std::max(x0, float(plot.left())) + 3, y0,
                                  std::min(x1, float(plot.right())) - 3, y1);
                list.AddText(nullptr, 0.0f,
                             ImVec2(clip.x, y0 + (y1 - y0 - ImGui::GetTextLineHeight()) / 2),
                             textColour, name.constData(), nullptr, 0.0f, &clip);
            }
        }
        flush();
    }
    const ImU32 outline = colour(palette().color(QPalette::Highlight));
    for (const auto& [a, b] : selectedBars)
        list.AddRect(a, b, outline, 0.0f, 0, 2.5f);
    if (hovered) {
        const auto entry = model_.programs().entry(hovered->programId);
        ImGui::BeginTooltip();
        text(tr("%1 (%2), program %3 at depth %4")
                 .arg(QString::fromStdString(entry.name), QString::fromStdString(entry.kind))
                 .arg(hovered->programId)
                 .arg(hoveredDepth));
        text(tr("Cycles %1–%2 (%3 cycles), %4 steps")
                 .arg(formatCount(std::int64_t(hovered->firstCycle)),
                      formatCount(std::int64_t(hovered->endCycle)),
                      formatCount(std::int64_t(hovered->endCycle - hovered->firstCycle)),
                      formatCount(std::llround(hovered->steps))));
        if (model_.window().lodLevel >= 0)
            text(tr("Zoomed out: each bucket of the pyramid is shown under the program of its "
                    "first step"));
        ImGui::EndTooltip();
    }
}

void ExecutionCanvas::drawBsp(ImDrawList& list, const QRectF& plot) {
    const auto& bsp = model_.window().bsp;
    if (bsp.steps.empty() || bsp.tileCount == 0)
        return;
    const double rowH = plot.height() / double(bsp.tileCount);
    const StepFilterIndex* filter = model_.stepFilter();
    drawWaitingBand(list, plot, bsp.steps.front().startCycle,
                    bsp.steps.back().startCycle + bsp.steps.back().cycles);
    for (const auto& s : bsp.steps) {
        const int phase = ExecutionModel::phaseFromName(s.phase);
        drawStepRowBars(
            list, plot, rowH, 1, s.startCycle, s.cycles, s.tileCycles,
            colour(phaseColour(phase), filter && !filter->matches(s.stepId) ? 0.2 : 1.0));
    }
    if (!hasHover() || !plot.contains(hoverPosition()))
        return;
    const int i = stepIndexAt(model_.window().bsp.steps, hoveredX());
    const auto t = std::size_t((hoverPosition().y() - plot.top()) / rowH);
    if (i < 0 || t >= bsp.tileCount)
        return;
    const auto& s = bsp.steps[std::size_t(i)];
    const std::uint64_t busy = t < s.tileCycles.size() ? s.tileCycles[t] : 0;
    const std::uint32_t tile = bsp.firstTile + std::uint32_t(t);
    ImGui::BeginTooltip();
    text(tr("Tile %1, step %2 of the run (program step %3)")
             .arg(formatCount(tile), formatCount(s.seq), formatCount(s.stepId)));
    text(tr("%1: %2 cycles working, %3 cycles waiting for the slowest tile")
             .arg(ExecutionModel::phaseName(ExecutionModel::phaseFromName(s.phase)),
                  formatCount(std::int64_t(busy)), formatCount(std::int64_t(s.cycles - busy))));
    text(tr("Step: %1 cycles from cycle %2")
             .arg(formatCount(std::int64_t(s.cycles)), formatCount(std::int64_t(s.startCycle))));
    ImGui::EndTooltip();
}

void ExecutionCanvas::drawFlat(ImDrawList& list, const QRectF& plot) {
    ImU32 colours[ExecutionModel::PhaseCount];
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        colours[p] = colour(phaseColour(p));
    ImU32 dimmed[ExecutionModel::PhaseCount];
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        dimmed[p] = colour(phaseColour(p), 0.2);
    const bool filtered = model_.window().filtered;
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
                               ImVec2(x1, float(yToPixel(acc))), filtered ? dimmed[p] : colours[p]);
            acc += share;
        }
        if (selectedProgram_ && col.step && col.step->programId == *selectedProgram_)
            list.AddRect(ImVec2(x0, float(plot.top()) + 1), ImVec2(x1, float(plot.bottom()) - 1),
                         colour(palette().color(QPalette::Highlight)), 0.0f, 0, 2.0f);
        if (!filtered)
            continue;
        // The matching steps' cycles, as a share of the column, in full colour from the bottom.
        acc = 0;
        for (int p = 0; p < ExecutionModel::PhaseCount; ++p) {
            const double share = std::min(1.0 - acc, col.matched[std::size_t(p)] / whole);
            if (share <= 0)
                continue;
            list.AddRectFilled(ImVec2(x0, float(yToPixel(acc + share))),
                               ImVec2(x1, float(yToPixel(acc))), colours[p]);
            acc += share;
        }
    }
    if (hasHover() && plot.contains(hoverPosition())) {
        const int c = columnAt(hoveredX());
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
    const QStringList names = legendNames();
    std::vector<ImU32> swatches;
    switch (model_.mode()) {
    case ExecutionModel::Blocks:
        swatches = {colour(blockColour(report::BlockKind::Common, "user")),
                    colour(phaseColour(ExecutionModel::Stream)),
                    colour(phaseColour(ExecutionModel::Stream), 0.55),
                    colour(blockColour(report::BlockKind::Overflow, {}))};
        drawBlockRowLabels(list, plot);
        break;
    case ExecutionModel::Flame:
        swatches = {colour(programColour(1)), 0, 0};
        break;
    default:
        for (int p = ExecutionModel::PhaseCount - 1; p >= 0; --p)
            swatches.push_back(colour(phaseColour(p)));
    }
    for (int i = 0; i < int(names.size()); ++i) {
        if (std::size_t(i) < swatches.size() && swatches[std::size_t(i)])
            list.AddRectFilled(ImVec2(x, y + 2), ImVec2(x + kSwatch, y + 2 + kSwatch),
                               swatches[std::size_t(i)]);
        list.AddText(ImVec2(x + kSwatch + 6, y), label, names[i].toUtf8().constData());
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
    if (model_.window().filtered) {
        double matched = 0;
        for (double c : col.matched)
            matched += c;
        text(tr("Matching the step filter: %1 cycles (%2)")
                 .arg(formatCount(std::llround(matched)), formatPercent(sum ? matched / sum : 0)));
    }
    ImGui::EndTooltip();
}

void ExecutionCanvas::setSelectedProgram(std::optional<std::int64_t> programId) {
    selectedProgram_ = programId;
    update();
}

void ExecutionCanvas::clickedAt(double x, Qt::KeyboardModifiers modifiers) {
    Q_UNUSED(modifiers);
    if (model_.window().mode == ExecutionModel::Flame) {
        // The bar under the cursor: its row from the height, its program from the cycle.
        const auto& rows = model_.window().flame.rows;
        const double rowH = flameRowHeight(plotRect());
        const double y = hoverPosition().y() - plotRect().top();
        const auto d = rowH > 0 && y >= 0 ? std::size_t(y / rowH) : rows.size();
        if (d < rows.size())
            for (const FlameSpan& s : rows[d])
                if (x >= double(s.firstCycle) && x < double(s.endCycle)) {
                    selectedProgram_ = s.programId;
                    update();
                    emit programClicked(s.programId);
                    break; // zoomed in, the step under the cursor is selected too
                }
    }
    if (model_.window().mode == ExecutionModel::Bsp) {
        if (const int i = stepIndexAt(model_.window().bsp.steps, x); i >= 0)
            emit stepClicked(model_.window().bsp.steps[std::size_t(i)].stepId);
        return;
    }
    if (model_.window().mode == ExecutionModel::PerIpu) {
        if (const int i = stepIndexAt(model_.window().ipu.steps, x); i >= 0)
            emit stepClicked(model_.window().ipu.steps[std::size_t(i)].stepId);
        return;
    }
    const int c = columnAt(x);
    if (c >= 0 && model_.window().columns[std::size_t(c)].step)
        emit stepClicked(model_.window().columns[std::size_t(c)].step->stepId);
}

} // namespace tilescope::gui
