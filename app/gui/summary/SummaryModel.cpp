#include "SummaryModel.hpp"

#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/Version.hpp"

#include <algorithm>

namespace tilescope::gui {
namespace {

QVariant qs(const std::string& s) {
    return QString::fromStdString(s);
}
double fraction(std::uint64_t part, std::uint64_t whole) {
    return whole ? double(part) / double(whole) : 0.0;
}

/// The value of engine option `name` as the report recorded it, else `fallback` marked default.
QString optionValue(const std::vector<report::EngineOption>& options, const std::string& name,
                    const QString& fallback) {
    const auto it = std::find_if(options.begin(), options.end(),
                                 [&](const report::EngineOption& o) { return o.name == name; });
    if (it == options.end())
        return SummaryModel::tr("%1 (default)").arg(fallback);
    return QString::fromStdString(it->value) +
           (it->applies ? QString() : SummaryModel::tr(" (not applied by the simulator)"));
}

bool optionOn(const std::vector<report::EngineOption>& options, const std::string& name) {
    const auto it = std::find_if(options.begin(), options.end(),
                                 [&](const report::EngineOption& o) { return o.name == name; });
    return it != options.end() && it->applies && it->value == "true";
}

} // namespace

SummaryModel::SummaryModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), target_({{tr("Property"), {}, false}, {tr("Value"), {}, false}}),
      versions_({{tr("Property"), {}, false}, {tr("Value"), {}, false}}),
      capacity_({{tr("Memory"), {}, false},
                 {tr("Capacity"), RecordTableModel::bytesCell, true},
                 {tr("Used (including gaps)"), RecordTableModel::bytesCell, true}}),
      instrumentation_({{tr("Property"), {}, false}, {tr("Value"), {}, false}}),
      categories_({{tr("Category"), {}, false},
                   {tr("Bytes"), RecordTableModel::bytesCell, true},
                   {tr("Share"), RecordTableModel::percentCell, true},
                   {tr("Fullest tile"), RecordTableModel::bytesCell, true}}),
      regions_({{tr("Region"), {}, false},
                {tr("Used (excl. gaps)"), RecordTableModel::bytesCell, true},
                {tr("Used (incl. gaps)"), RecordTableModel::bytesCell, true},
                {tr("Capacity"), RecordTableModel::bytesCell, true},
                {tr("Of capacity"), RecordTableModel::percentCell, true}}),
      liveness_({{tr("Memory"), {}, false},
                 {tr("Bytes"), RecordTableModel::bytesCell, true},
                 {tr("Share"), RecordTableModel::percentCell, true}}),
      runs_({{tr("Run"), {}, true},
             {tr("Engine program"), {}, true},
             {tr("Steps"), RecordTableModel::countCell, true},
             {tr("Cycles"), RecordTableModel::countCell, true},
             {tr("Time at clock"), {}, true},
             {tr("Host time"), {}, true}}),
      options_({{tr("Option"), {}, false},
                {tr("Value"), {}, false},
                {tr("Source"), {}, false},
                {tr("Applies"), {}, false}}) {
    const report::ProfileSummary& s = session->summary();
    const report::TargetInfo& t = s.target;
    // The report profiles one replica of numIpus IPUs; the program ran on every replica.
    const std::uint32_t ipusPerReplica = t.numIpus;
    target_.setRows({
        {tr("Target type"), qs(t.type)},
        {tr("IPU version"), qs(t.ipuVersion)},
        {tr("Replicas"), t.replicas},
        {tr("IPUs per replica"), ipusPerReplica},
        {tr("IPUs"), t.totalIpus()},
        {tr("Tiles per IPU"), formatCount(t.tilesPerIpu)},
        {tr("Tiles per replica"), formatCount(t.numTiles())},
        {tr("Clock"), QStringLiteral("%1 GHz").arg(t.clockHz / 1e9, 0, 'f', 3)},
        {tr("Program steps"), formatCount(s.counts.steps)},
        {tr("Variables"), formatCount(s.counts.variables)},
        {tr("Compute sets / vertices"),
         QStringLiteral("%1 / %2").arg(formatCount(s.counts.computeSets),
                                       formatCount(s.counts.vertices))},
        {tr("Report file"), QString::fromStdString(session->path())},
    });

    const std::string poplar = session->metadata("poplar_version");
    versions_.setRows({
        {tr("Poplar-compatible version"),
         poplar.empty() ? tr("not recorded") : QString::fromStdString(poplar)},
        {tr("TileScope that wrote the report"), qs(s.toolVersion)},
        {tr("TileScope reading it"), QString::fromLatin1(report::kToolVersion)},
        {tr("Report format"), tr("profile v%1").arg(session->formatVersion())},
        {tr("Written"), qs(s.createdUtc)},
    });

    // Used: the fullest tile, an IPU of the profiled replica on average, the replica, and every
    // replica (each holds the same graph).
    const std::uint64_t perIpu = t.bytesPerTile * t.tilesPerIpu;
    const std::uint64_t used = s.totalBytesIncludingGaps;
    capacity_.setRows({
        {tr("Per tile"), RecordTableModel::u64(t.bytesPerTile),
         RecordTableModel::u64(s.maxTileBytesIncludingGaps)},
        {tr("Per IPU (%1 tiles)").arg(formatCount(t.tilesPerIpu)), RecordTableModel::u64(perIpu),
         RecordTableModel::u64(used / std::max<std::uint32_t>(1, ipusPerReplica))},
        {tr("Per replica (%n IPU(s))", nullptr, int(ipusPerReplica)),
         RecordTableModel::u64(perIpu * ipusPerReplica), RecordTableModel::u64(used)},
        {tr("In total (%n IPU(s))", nullptr, int(t.totalIpus())),
         RecordTableModel::u64(perIpu * t.totalIpus()),
         RecordTableModel::u64(used * std::max<std::uint32_t>(1, t.replicas))},
    });

    // The simulator records cycle estimates at compile time and executed cycles of every run at
    // the granularity of debug.computeInstrumentationLevel (per tile unless "ipu");
    // debug.instrument adds the instrumentation code a device would need, which the Memory view
    // counts.
    const auto& engineOptions = session->engineOptions();
    const QString level = optionValue(engineOptions, "debug.computeInstrumentationLevel", "tile");
    const bool perIpuOnly = level.startsWith(QLatin1String("ipu"));
    const QString executed = s.counts.runs == 0 ? tr("no executions recorded")
                             : perIpuOnly       ? tr("executed cycles per IPU")
                                                : tr("executed cycles per tile");
    instrumentation_.setRows({
        {tr("Instrumentation level"), tr("cycle estimates per tile; %1").arg(executed)},
        {tr("Instrumentation code"), optionOn(engineOptions, "debug.instrument")
                                         ? tr("added (debug.instrument)")
                                         : tr("none (debug.instrument off)")},
        {tr("debug.instrument"), optionValue(engineOptions, "debug.instrument", "false")},
        {tr("debug.computeInstrumentationLevel"), level},
        {tr("debug.instrumentExternalExchange"),
         optionValue(engineOptions, "debug.instrumentExternalExchange", "false")},
        {tr("Executions recorded"), formatCount(s.counts.runs)},
        {tr("Executed steps recorded"), formatCount(s.counts.runSteps)},
    });

    std::vector<RecordTableModel::Row> cats;
    for (const auto& c : s.categories)
        cats.push_back({qs(c.label), RecordTableModel::u64(c.bytes),
                        fraction(c.bytes, s.totalBytesIncludingGaps),
                        RecordTableModel::u64(c.maxTileBytes)});
    cats.push_back({tr("Total (excluding gaps)"), RecordTableModel::u64(s.totalBytesExcludingGaps),
                    fraction(s.totalBytesExcludingGaps, s.totalBytesIncludingGaps), QVariant()});
    cats.push_back({tr("Total (including gaps)"), RecordTableModel::u64(s.totalBytesIncludingGaps),
                    1.0, RecordTableModel::u64(s.maxTileBytesIncludingGaps)});
    categories_.setRows(std::move(cats));

    std::vector<RecordTableModel::Row> regions;
    for (const auto& r : s.regions)
        regions.push_back({qs(r.name), RecordTableModel::u64(r.bytesExcludingGaps),
                           RecordTableModel::u64(r.bytesIncludingGaps),
                           RecordTableModel::u64(r.capacityBytes),
                           fraction(r.bytesIncludingGaps, r.capacityBytes)});
    regions.push_back({tr("All regions"), RecordTableModel::u64(s.totalBytesExcludingGaps),
                       RecordTableModel::u64(s.totalBytesIncludingGaps),
                       RecordTableModel::u64(s.totalCapacityBytes),
                       fraction(s.totalBytesIncludingGaps, s.totalCapacityBytes)});
    regions_.setRows(std::move(regions));

    const std::uint64_t live = s.alwaysLiveBytes + s.peakNotAlwaysLiveBytes;
    liveness_.setRows({
        {tr("Always-live"), RecordTableModel::u64(s.alwaysLiveBytes),
         fraction(s.alwaysLiveBytes, live)},
        {tr("Not-always-live (sum of per-tile peaks)"),
         RecordTableModel::u64(s.peakNotAlwaysLiveBytes), fraction(s.peakNotAlwaysLiveBytes, live)},
    });

    std::vector<RecordTableModel::Row> runs;
    for (const auto& r : s.runs)
        runs.push_back(
            {QVariant::fromValue<qlonglong>(r.id), QVariant::fromValue<qlonglong>(r.programIndex),
             QVariant::fromValue<qulonglong>(r.steps), QVariant::fromValue<qulonglong>(r.cycles),
             t.clockHz > 0
                 ? QStringLiteral("%1 ms").arg(double(r.cycles) / t.clockHz * 1e3, 0, 'f', 3)
                 : QString(),
             r.complete ? QStringLiteral("%1 ms").arg(r.hostMicroseconds / 1000.0, 0, 'f', 3)
                        : tr("incomplete")});
    runs_.setRows(std::move(runs));

    std::vector<RecordTableModel::Row> options;
    for (const auto& o : session->engineOptions())
        options.push_back(
            {qs(o.name), qs(o.value), qs(o.source), o.applies ? tr("yes") : tr("no (simulator)")});
    options_.setRows(std::move(options));

    if (s.outOfMemory || s.tilesOverCapacity > 0)
        oom_ = tr("Out of memory: %1 of %2 tiles need more than their %3. The fullest, tile %4, "
                  "needs %5.")
                   .arg(formatCount(s.tilesOverCapacity), formatCount(t.numTiles()),
                        formatBytes(double(t.bytesPerTile)), QString::number(s.maxTile),
                        formatBytes(double(s.maxTileBytesIncludingGaps)));
    headline_ =
        tr("%1 · written by TileScope %2 on %3%4")
            .arg(QString::fromStdString(s.engineName.empty() ? "engine" : s.engineName),
                 QString::fromStdString(s.toolVersion), QString::fromStdString(s.createdUtc),
                 s.complete ? QString() : tr(" · incomplete (writer still running or killed)"));
}

} // namespace tilescope::gui
