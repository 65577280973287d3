#include "StructureTableModel.hpp"

#include "CompareSession.hpp"
#include "core/Background.hpp"

namespace tilescope::gui {

void StructureTableModel::load(std::shared_ptr<CompareSession> session,
                               std::function<Result(report::StructureComparison&)> build) {
    runInBackground<Result>(
        this,
        [session, build = std::move(build)] {
            return session->structure([&](report::StructureComparison& s) { return build(s); });
        },
        [this](Result r) {
            summary_ = r.summary;
            series_ = std::move(r.series);
            pointLabel_ = std::move(r.pointLabel);
            setRows(std::move(r.rows));
            loaded_ = true;
            emit loaded();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

} // namespace tilescope::gui
