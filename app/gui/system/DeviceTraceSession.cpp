#include "DeviceTraceSession.hpp"

#include "core/Format.hpp"
#include "core/LockedReader.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ReportError.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <algorithm>
#include <array>
#include <cmath>
#include <new>

namespace tilescope::gui {
namespace {

using Box = TimelineModel::Box;

struct Phase {
    const char* name;
    std::uint8_t colour; // TimelineModel palette index
};
// Green compute, blue exchange, grey sync, orange stream copies: the Execution Trace's key.
constexpr std::array<Phase, 4> kPhases{
    {{"compute", 4}, {"exchange", 0}, {"sync", 14}, {"stream", 1}}};
constexpr std::uint8_t kRunColour = 6;
constexpr std::uint8_t kUnknownColour = 8;

/// Single steps are read while a run shows at most this many per pixel of the window.
constexpr double kRawStepsPerPixel = 0.5;
constexpr std::int64_t kRawLimit = 20000;

QString tr(const char* text) {
    return QCoreApplication::translate("DeviceTraceSession", text);
}

} // namespace

std::uint8_t DeviceTraceSession::phaseColour(const std::string& phase) {
    for (const Phase& p : kPhases)
        if (phase == p.name)
            return p.colour;
    return kUnknownColour;
}

std::shared_ptr<DeviceTraceSession> DeviceTraceSession::open(const std::string& path) {
    std::shared_ptr<DeviceTraceSession> s(new DeviceTraceSession);
    s->path_ = path;
    try {
        s->path_ = ReportSession::resolvePath(path);
        s->reader_ = std::make_unique<report::ProfileReader>(s->path_);
        const auto& r = *s->reader_;
        s->target_ = r.target();
        if (!(s->target_.clockHz > 0) || !std::isfinite(s->target_.clockHz))
            throw report::ReportError(s->path_, "target clock is not a positive frequency");
        s->nsPerCycle_ = 1e9 / s->target_.clockHz;
        s->runs_ = r.runs();
        std::vector<std::string> programs;
        for (const auto& c : r.controlPrograms())
            if (!c.isFunction) {
                if (std::size_t(c.index) >= programs.size())
                    programs.resize(std::size_t(c.index) + 1);
                programs[std::size_t(c.index)] = c.name;
            }
        bool first = true;
        for (const auto& run : s->runs_) {
            const std::string program = std::size_t(run.programIndex) < programs.size() &&
                                                !programs[std::size_t(run.programIndex)].empty()
                                            ? programs[std::size_t(run.programIndex)]
                                            : "program " + std::to_string(run.programIndex);
            s->runLabel_.push_back(s->intern("run " + std::to_string(run.id) + ": " + program));
            s->beginNs_ = first ? s->runBeginNs(run) : std::min(s->beginNs_, s->runBeginNs(run));
            s->endNs_ = first ? s->runEndNs(run) : std::max(s->endNs_, s->runEndNs(run));
            first = false;
        }
        s->loadBlocks();
    } catch (...) {
        rethrowNamingFile(s->path_);
    }
    return s;
}

QString DeviceTraceSession::fileName() const {
    return QFileInfo(QString::fromStdString(path_)).fileName();
}

std::int64_t DeviceTraceSession::runEndNs(const report::RunRecord& run) const {
    return run.hostStartNs +
           std::max<std::int64_t>(1, std::llround(double(run.totalCycles) * nsPerCycle_));
}

std::int64_t DeviceTraceSession::intern(const std::string& text) const {
    const auto [it, added] = nameIds_.try_emplace(text, std::int64_t(names_.size()));
    if (added)
        names_.push_back(QString::fromStdString(text));
    return it->second;
}

const QString& DeviceTraceSession::name(std::int64_t nameId) const {
    static const QString none;
    std::lock_guard lock(mutex_);
    return nameId >= 0 && std::size_t(nameId) < names_.size() ? names_[std::size_t(nameId)] : none;
}

std::int64_t DeviceTraceSession::programName(std::int64_t programId) const {
    if (const auto it = programNames_.find(programId); it != programNames_.end())
        return it->second;
    std::string text = "unknown program";
    for (const auto& node : reader_->programNodes({programId}))
        if (node.id == programId)
            text = node.name.empty() ? node.kind : node.name;
    const std::int64_t id = intern(text);
    programNames_.emplace(programId, id);
    return id;
}

QString DeviceTraceSession::describe(std::int32_t track, const Box& box) const {
    const QString cycles = tr("%1 on the device (%2 at %3 GHz)")
                               .arg(formatDuration(double(box.cycles) * nsPerCycle_))
                               .arg(formatCycles(box.cycles, 0))
                               .arg(target_.clockHz / 1e9, 0, 'g', 4);
    if (track >= FirstBlockTrack)
        return describeBlock(std::size_t(track - FirstBlockTrack), box);
    if (track == Runs) {
        for (const auto& run : runs_)
            if (run.id == box.eventId) {
                QString host;
                if (run.hostEndNs)
                    host = tr("; the host's call took %1")
                               .arg(formatDuration(double(*run.hostEndNs - run.hostStartNs)));
                return tr("%1 steps, %2%3")
                    .arg(formatCount(std::int64_t(run.numSteps)), cycles, host);
            }
        return cycles;
    }
    QString phase = tr("unknown phase");
    for (const Phase& p : kPhases)
        if (p.colour == box.colour)
            phase = QString::fromLatin1(p.name);
    if (box.aggregated)
        return tr("%1 steps, mostly %2; %3").arg(formatCount(box.count), phase, cycles);
    return tr("%1 step; %2").arg(phase, cycles);
}

std::vector<Box> DeviceTraceSession::boxes(std::int32_t track, std::int64_t fromNs,
                                           std::int64_t toNs, int widthPx) const {
    if (track == Runs)
        return runBoxes(fromNs, toNs);
    if (track >= FirstBlockTrack)
        return blockBoxes(std::size_t(track - FirstBlockTrack), fromNs, toNs, widthPx);
    std::vector<Box> out;
    const double nsPerPixel = double(std::max<std::int64_t>(toNs - fromNs, 1)) / widthPx;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        const auto& run = runs_[i];
        const std::int64_t begin = runBeginNs(run), end = runEndNs(run);
        if (end < fromNs || begin > toNs)
            continue;
        if (double(end - begin) < 2 * nsPerPixel || run.numSteps == 0) {
            // Too narrow to show steps: the run as one box, without a query.
            Box b;
            b.startNs = begin;
            b.endNs = end;
            b.nameId = runLabel_[i];
            b.count = std::uint32_t(std::min<std::uint64_t>(run.numSteps, 0xffffffffu));
            b.aggregated = true;
            b.colour = kRunColour;
            b.cycles = run.totalCycles;
            out.push_back(b);
            continue;
        }
        stepBoxesOfRun(run, fromNs, toNs, nsPerPixel, out);
    }
    return out;
}

std::vector<Box> DeviceTraceSession::runBoxes(std::int64_t fromNs, std::int64_t toNs) const {
    std::vector<Box> out;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        const auto& run = runs_[i];
        if (runEndNs(run) < fromNs || runBeginNs(run) > toNs)
            continue;
        Box b;
        b.startNs = runBeginNs(run);
        b.endNs = runEndNs(run);
        b.nameId = runLabel_[i];
        b.eventId = run.id;
        b.colour = kRunColour;
        b.cycles = run.totalCycles;
        b.kind = run.hostEndNs ? report::EventKind::Complete : report::EventKind::Unfinished;
        out.push_back(b);
    }
    return out;
}

void DeviceTraceSession::stepBoxesOfRun(const report::RunRecord& run, std::int64_t fromNs,
                                        std::int64_t toNs, double nsPerPixel,
                                        std::vector<Box>& out) const {
    const std::int64_t begin = runBeginNs(run);
    const auto cycleAt = [&](std::int64_t ns) {
        return std::uint64_t(
            std::clamp(double(ns - begin) / nsPerCycle_, 0.0, double(run.totalCycles)));
    };
    const std::uint64_t fromCycle = cycleAt(fromNs);
    const std::uint64_t toCycle = std::min(run.totalCycles, cycleAt(toNs) + 1);
    if (toCycle <= fromCycle)
        return;
    const double cyclesPerPixel = nsPerPixel / nsPerCycle_;
    const double pixels = double(toCycle - fromCycle) / cyclesPerPixel;
    const auto nsOf = [&](double cycle) -> std::int64_t {
        return begin + std::llround(cycle * nsPerCycle_);
    };

    std::lock_guard lock(mutex_);
    const std::int64_t firstSeq = reader_->runStepAtCycle(run, fromCycle);
    const std::int64_t lastSeq = reader_->runStepAtCycle(run, toCycle);
    std::vector<report::RunLodRow> lod;
    if (double(lastSeq - firstSeq) > kRawStepsPerPixel * pixels) {
        const std::int64_t level =
            std::max<std::int64_t>(0, reader_->runLodLevelFor(run, cyclesPerPixel));
        lod = reader_->runLod(run, level, fromCycle, toCycle);
        if (!lod.empty()) {
            const double width = double(reader_->runLodBaseCycles()) * std::pow(4.0, double(level));
            // One box per pixel column: buckets are at most a pixel wide at this level.
            std::array<std::uint64_t, 4> phaseCycles{};
            auto close = [&] {
                Box& b = out.back();
                const auto dominant = std::size_t(
                    std::max_element(phaseCycles.begin(), phaseCycles.end()) - phaseCycles.begin());
                b.colour = kPhases[dominant].colour;
                b.nameId = intern(kPhases[dominant].name);
                const double span = double(b.endNs - b.startNs) / nsPerCycle_;
                b.busy = float(std::clamp(double(b.cycles) / std::max(span, 1.0), 0.05, 1.0));
                phaseCycles = {};
            };
            std::int64_t column = -1;
            for (const auto& row : lod) {
                if (row.steps == 0)
                    continue;
                const double startCycle = double(row.bucket) * width;
                const std::int64_t startNs = nsOf(startCycle);
                const std::int64_t endNs =
                    nsOf(std::min(startCycle + width, double(run.totalCycles)));
                const auto c = std::int64_t(std::floor(double(startNs - fromNs) / nsPerPixel));
                if (c != column || out.empty()) {
                    if (column >= 0)
                        close();
                    column = c;
                    Box b;
                    b.startNs = startNs;
                    b.count = 0;
                    b.aggregated = true;
                    out.push_back(b);
                }
                Box& b = out.back();
                b.endNs = std::max(b.endNs, endNs);
                b.count += std::uint32_t(std::min<std::uint64_t>(row.steps, 0xffffffffu - b.count));
                phaseCycles[0] += row.computeCycles;
                phaseCycles[1] += row.exchangeCycles;
                phaseCycles[2] += row.syncCycles;
                phaseCycles[3] += row.streamCycles;
                b.cycles +=
                    row.computeCycles + row.exchangeCycles + row.syncCycles + row.streamCycles;
            }
            if (column >= 0)
                close();
            return;
        }
        // A run without a pyramid (a writer stopped mid-run): bounded single steps below.
    }
    const std::size_t firstOfRun = out.size();
    std::uint64_t longest = 0; // cycles of the longest step in the last box
    for (const auto& s : reader_->runStepSpans(run, fromCycle, toCycle, kRawLimit)) {
        Box b;
        b.startNs = nsOf(double(s.startCycle));
        b.endNs = std::max(nsOf(double(s.startCycle + s.cycles)), b.startNs + 1);
        b.nameId = s.programId >= 0 ? programName(s.programId) : intern(s.phase);
        b.eventId = run.firstRow + s.seq;
        b.colour = phaseColour(s.phase);
        b.cycles = s.cycles;
        appendOrMergeNarrow(out, firstOfRun, b, s.cycles, false, nsPerPixel, longest);
    }
}

void DeviceTraceSession::appendOrMergeNarrow(std::vector<Box>& out, std::size_t firstMergeable,
                                             const Box& box, std::uint64_t weight, bool overrides,
                                             double nsPerPixel, std::uint64_t& longest) {
    if (out.size() > firstMergeable && double(box.endNs - box.startNs) < nsPerPixel) {
        Box& last = out.back();
        if (double(last.endNs - last.startNs) < nsPerPixel &&
            double(box.startNs - last.startNs) < nsPerPixel) {
            last.endNs = std::max(last.endNs, box.endNs);
            ++last.count;
            last.aggregated = true;
            last.cycles += box.cycles;
            if (weight > longest || overrides) {
                longest = weight;
                last.colour = box.colour;
                last.nameId = box.nameId;
            }
            return;
        }
    }
    longest = weight;
    out.push_back(box);
}

} // namespace tilescope::gui
