#include "LivenessStepDiffModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ReportError.hpp"

#include <set>
#include <string>

namespace tilescope::gui {

StepLiveDiff StepLiveDiff::fetch(const report::ProfileReader& reader, std::int64_t fromStep,
                                 std::int64_t toStep) {
    StepLiveDiff c;
    c.fromStep = fromStep;
    c.toStep = toStep;
    for (std::int64_t s : {fromStep, toStep}) {
        const auto rec = reader.steps(s, 1);
        if (rec.empty())
            throw report::ReportError(reader.path(), "has no program step " + std::to_string(s));
        (s == fromStep ? c.fromBytes : c.toBytes) = rec.front().notAlwaysLiveBytes;
    }
    const auto before = reader.variablesLiveAt(fromStep);
    const auto after = reader.variablesLiveAt(toStep);
    std::set<std::int64_t> beforeIds, afterIds;
    for (const auto& v : before)
        beforeIds.insert(v.id);
    for (const auto& v : after)
        afterIds.insert(v.id);
    // Both lists come largest first, so the differences keep that order.
    for (const auto& v : after)
        if (!beforeIds.count(v.id)) {
            c.becameLiveBytes += v.bytes;
            c.becameLive.push_back(v);
        }
    for (const auto& v : before)
        if (!afterIds.count(v.id)) {
            c.stoppedLiveBytes += v.bytes;
            c.stoppedLive.push_back(v);
        }
    return c;
}

LivenessStepDiffModel::LivenessStepDiffModel(std::shared_ptr<ReportSession> session,
                                             QObject* parent)
    : RecordTableModel({{tr("Change"), {}, false},
                        {tr("Variable"), {}, false},
                        {tr("Bytes"),
                         [](const QVariant& v) {
                             const qlonglong b = v.toLongLong();
                             return (b >= 0 ? QStringLiteral("+") : QStringLiteral("−")) +
                                    RecordTableModel::bytesCell(
                                        QVariant::fromValue<qulonglong>(qulonglong(std::llabs(b))));
                         },
                         true},
                        {tr("First step"), RecordTableModel::countCell, true},
                        {tr("Last step"), RecordTableModel::countCell, true}},
                       parent),
      session_(std::move(session)) {}

void LivenessStepDiffModel::compare(std::int64_t fromStep, std::int64_t toStep) {
    auto session = session_;
    load_.start<StepLiveDiff>(
        this,
        [session, fromStep, toStep] {
            return session->read([&](const report::ProfileReader& reader) {
                return StepLiveDiff::fetch(reader, fromStep, toStep);
            });
        },
        [this](StepLiveDiff c) {
            std::vector<Row> rows;
            auto add = [&rows](const report::VariableRecord& v, const QString& change,
                               qlonglong sign) {
                rows.push_back({change, QString::fromStdString(v.name),
                                QVariant::fromValue<qlonglong>(sign * qlonglong(v.bytes)),
                                QVariant::fromValue<qlonglong>(v.firstStep.value_or(-1)),
                                QVariant::fromValue<qlonglong>(v.lastStep.value_or(-1))});
            };
            for (const auto& v : c.becameLive)
                add(v, tr("became live"), 1);
            for (const auto& v : c.stoppedLive)
                add(v, tr("stopped being live"), -1);
            comparison_ = std::move(c);
            setRows(std::move(rows));
            emit compared();
        },
        [this](const QString& message) {
            setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
