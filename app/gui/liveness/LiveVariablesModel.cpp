#include "LiveVariablesModel.hpp"

#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ReportError.hpp"

#include <QStringList>
#include <algorithm>
#include <map>
#include <string>

namespace tilescope::gui {
namespace {

struct Loaded {
    LiveVariablesModel::StepInfo info;
    std::vector<RecordTableModel::Row> rows;
    std::vector<std::int64_t> variableIds; // per row
    std::vector<RecordTableModel::Row> alwaysLive;
    std::vector<RecordTableModel::Row> vertices;
};

/// Always-live variables listed at most: the largest; the step label says how many there are.
constexpr std::int64_t kAlwaysLiveRowLimit = 20000;

} // namespace

LiveVariablesModel::LiveVariablesModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : RecordTableModel({{tr("Variable"), {}, false},
                        {tr("Bytes"), RecordTableModel::bytesCell, true},
                        {tr("Type"), {}, false},
                        {tr("Elements"), RecordTableModel::countCell, true},
                        {tr("First step"), RecordTableModel::countCell, true},
                        {tr("Last step"), RecordTableModel::countCell, true},
                        {tr("Category"), {}, false}},
                       parent),
      session_(std::move(session)),
      alwaysLive_(new RecordTableModel({{tr("Variable"), {}, false},
                                        {tr("Bytes"), RecordTableModel::bytesCell, true},
                                        {tr("Type"), {}, false},
                                        {tr("Elements"), RecordTableModel::countCell, true},
                                        {tr("Category"), {}, false}},
                                       this)),
      vertices_(new RecordTableModel({{tr("Vertex type"), {}, false},
                                      {tr("Instances"), RecordTableModel::countCell, true},
                                      {tr("Tiles"), RecordTableModel::countCell, true},
                                      {tr("State bytes"), RecordTableModel::bytesCell, true},
                                      {tr("Code bytes"), RecordTableModel::bytesCell, true}},
                                     this)) {}

void LiveVariablesModel::showStep(std::int64_t step) {
    step_ = step;
    auto session = session_;
    load_.start<Loaded>(
        this,
        [session, step] {
            return session->read([&](const report::ProfileReader& reader) {
                Loaded out;
                const auto steps = reader.steps(step, 1, true);
                if (steps.empty())
                    throw report::ReportError(reader.path(),
                                              "has no program step " + std::to_string(step));
                const report::StepRecord& s = steps.front();
                out.info.id = s.id;
                out.info.kind = QString::fromStdString(s.kind);
                out.info.phase = QString::fromStdString(s.phase);
                out.info.estimatedCycles = s.estimatedCycles;
                out.info.exchangeBytes = s.exchangeBytes;
                out.info.notAlwaysLiveBytes = s.notAlwaysLiveBytes;
                out.info.maxTileNotAlwaysLiveBytes = s.maxTileNotAlwaysLiveBytes;
                out.info.programId = s.programId;
                if (auto p = reader.program(s.programId))
                    out.info.program = QString::fromStdString(p->name.empty() ? p->kind : p->name);
                // The step lasts as long as its slowest tile; the mean over tiles with work says
                // how far the others are from it.
                std::uint64_t busySum = 0, slowest = 0;
                for (std::size_t t = 0; t < s.estimatedPerTile.size(); ++t) {
                    const std::uint64_t c = s.estimatedPerTile[t];
                    if (c == 0)
                        continue;
                    ++out.info.busyTiles;
                    busySum += c;
                    if (c > slowest) {
                        slowest = c;
                        out.info.slowestTile = std::int64_t(t);
                    }
                }
                if (out.info.busyTiles)
                    out.info.meanBusyTileCycles = double(busySum) / double(out.info.busyTiles);
                if (s.computeSetId) {
                    std::map<std::int64_t, report::VertexTypeRecord> types;
                    for (const auto& t : reader.vertexTypes())
                        types[t.id] = t;
                    auto instances = reader.vertexInstances(*s.computeSetId, true);
                    std::sort(instances.begin(), instances.end(),
                              [](const auto& a, const auto& b) { return a.count > b.count; });
                    QStringList names;
                    for (const auto& vi : instances) {
                        const report::VertexTypeRecord& type = types[vi.vertexTypeId];
                        const auto tiles = std::uint64_t(std::count_if(
                            vi.perTile.begin(), vi.perTile.end(), [](auto n) { return n > 0; }));
                        out.info.vertexCount += vi.count;
                        names << QStringLiteral("%1 × %2").arg(QString::fromStdString(type.name),
                                                               formatCount(std::int64_t(vi.count)));
                        // Code is held once per tile with an instance, state once per instance.
                        out.vertices.push_back({QString::fromStdString(type.name),
                                                RecordTableModel::u64(vi.count),
                                                RecordTableModel::u64(tiles),
                                                RecordTableModel::u64(vi.count * type.stateBytes),
                                                RecordTableModel::u64(tiles * type.codeBytes)});
                    }
                    out.info.vertexTypes = names.join(QStringLiteral(", "));
                }
                std::map<std::int64_t, QString> categoryLabels;
                for (const auto& c : reader.memoryCategories())
                    categoryLabels[c.id] = QString::fromStdString(c.label);
                for (const report::VariableRecord& v :
                     reader.largestAlwaysLiveVariables(kAlwaysLiveRowLimit)) {
                    ++out.info.alwaysLiveCount;
                    out.info.alwaysLiveBytes += v.bytes;
                    out.alwaysLive.push_back(
                        {QString::fromStdString(v.name), RecordTableModel::u64(v.bytes),
                         QString::fromStdString(v.elementType),
                         QVariant::fromValue<qlonglong>(qlonglong(v.numElements)),
                         categoryLabels[v.categoryId]});
                }
                for (const report::VariableRecord& v : reader.variablesLiveAt(step)) {
                    out.info.variableBytes += v.bytes;
                    out.variableIds.push_back(v.id);
                    out.rows.push_back({QString::fromStdString(v.name),
                                        QVariant::fromValue<qulonglong>(v.bytes),
                                        QString::fromStdString(v.elementType),
                                        QVariant::fromValue<qlonglong>(qlonglong(v.numElements)),
                                        QVariant::fromValue<qlonglong>(v.firstStep.value_or(-1)),
                                        QVariant::fromValue<qlonglong>(v.lastStep.value_or(-1)),
                                        categoryLabels[v.categoryId]});
                }
                return out;
            });
        },
        [this](Loaded loaded) {
            info_ = loaded.info;
            variableIds_ = std::move(loaded.variableIds);
            alwaysLive_->setRows(std::move(loaded.alwaysLive));
            vertices_->setRows(std::move(loaded.vertices));
            setRows(std::move(loaded.rows));
            emit stepLoaded();
        },
        [this](const QString& message) {
            variableIds_.clear();
            alwaysLive_->setRows({});
            vertices_->setRows({});
            setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
