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
};

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
      session_(std::move(session)) {}

void LiveVariablesModel::showStep(std::int64_t step) {
    step_ = step;
    auto session = session_;
    load_.start<Loaded>(
        this,
        [session, step] {
            return session->read([&](const report::ProfileReader& reader) {
                Loaded out;
                const auto steps = reader.steps(step, 1);
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
                if (s.computeSetId) {
                    std::map<std::int64_t, std::string> typeNames;
                    for (const auto& t : reader.vertexTypes())
                        typeNames[t.id] = t.name;
                    auto instances = reader.vertexInstances(*s.computeSetId);
                    std::sort(instances.begin(), instances.end(),
                              [](const auto& a, const auto& b) { return a.count > b.count; });
                    QStringList types;
                    for (const auto& vi : instances) {
                        out.info.vertexCount += vi.count;
                        types << QStringLiteral("%1 × %2").arg(
                            QString::fromStdString(typeNames[vi.vertexTypeId]),
                            formatCount(std::int64_t(vi.count)));
                    }
                    out.info.vertexTypes = types.join(QStringLiteral(", "));
                }
                std::map<std::int64_t, QString> categoryLabels;
                for (const auto& c : reader.memoryCategories())
                    categoryLabels[c.id] = QString::fromStdString(c.label);
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
            setRows(std::move(loaded.rows));
            emit stepLoaded();
        },
        [this](const QString& message) {
            variableIds_.clear();
            setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
