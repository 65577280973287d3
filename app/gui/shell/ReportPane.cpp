#include "ReportPane.hpp"

#include "core/ReportSession.hpp"
#include "execution/ExecutionView.hpp"
#include "insights/InsightsView.hpp"
#include "liveness/LivenessView.hpp"
#include "memory/MemoryView.hpp"
#include "operations/OperationGraphView.hpp"
#include "operations/OperationsView.hpp"
#include "programs/ProgramTreeView.hpp"
#include "summary/SummaryView.hpp"

namespace tilescope::gui {
namespace {

const RailPane::Entry kViews[] = {
    {"summary", "Summary"},       {"insights", "Insights"},
    {"memory", "Memory"},         {"liveness", "Liveness"},
    {"programs", "Program Tree"}, {"execution", "Execution Trace"},
    {"operations", "Operations"}, {"operations-graph", "Operations Graph"}};

} // namespace

QStringList ReportPane::viewNames() {
    return entryNames(kViews);
}

QStringList ReportPane::viewTitles() {
    return entryTitles(kViews, staticMetaObject.className());
}

ReportPane::ReportPane(std::shared_ptr<ReportSession> session, QWidget* parent)
    : RailPane(viewNames(), viewTitles(), parent), session_(std::move(session)) {}

RailView* ReportPane::createView(const QString& name) {
    if (name == QLatin1String("summary"))
        return new SummaryView(session_);
    if (name == QLatin1String("insights"))
        return new InsightsView(session_);
    if (name == QLatin1String("memory"))
        return new MemoryView(session_);
    if (name == QLatin1String("liveness"))
        return new LivenessView(session_);
    if (name == QLatin1String("programs"))
        return new ProgramTreeView(session_);
    if (name == QLatin1String("execution"))
        return new ExecutionView(session_);
    if (name == QLatin1String("operations"))
        return new OperationsView(session_);
    if (name == QLatin1String("operations-graph"))
        return new OperationGraphView(session_);
    return nullptr;
}

ReportView* ReportPane::showView(const QString& name) {
    return static_cast<ReportView*>(RailPane::showView(name));
}

ReportView* ReportPane::currentView() const {
    return static_cast<ReportView*>(RailPane::currentView());
}

void ReportPane::viewShown(const QString& name) {
    session_->state().currentView = name;
}

} // namespace tilescope::gui
