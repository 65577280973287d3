#include "ComparePane.hpp"

#include "CompareSession.hpp"
#include "CompareSummaryView.hpp"
#include "MemoryCompareView.hpp"
#include "OperationCompareModel.hpp"
#include "ProgramCompareModel.hpp"
#include "StepCompareView.hpp"
#include "StructureCompareView.hpp"

namespace tilescope::gui {
namespace {

const RailPane::Entry kViews[] = {{"summary", "Summary"},       {"memory", "Memory"},
                                  {"liveness", "Liveness"},     {"programs", "Program Tree"},
                                  {"operations", "Operations"}, {"execution", "Execution Trace"}};

} // namespace

QStringList ComparePane::viewNames() {
    return entryNames(kViews);
}

QStringList ComparePane::viewTitles() {
    return entryTitles(kViews, staticMetaObject.className());
}

ComparePane::ComparePane(std::shared_ptr<CompareSession> session, QWidget* parent)
    : RailPane(viewNames(), viewTitles(), parent), session_(std::move(session)) {}

RailView* ComparePane::createView(const QString& name) {
    if (name == QLatin1String("summary"))
        return new CompareSummaryView(session_);
    if (name == QLatin1String("memory"))
        return new MemoryCompareView(session_);
    if (name == QLatin1String("liveness"))
        return new StepCompareView(session_, false);
    if (name == QLatin1String("execution"))
        return new StepCompareView(session_, true);
    if (name == QLatin1String("programs"))
        return new StructureCompareView(session_, new ProgramCompareModel(session_),
                                        tr("Program tree"), -1);
    if (name == QLatin1String("operations"))
        return new StructureCompareView(session_, new OperationCompareModel(session_),
                                        tr("Operations"), OperationCompareModel::Estimated + 2);
    return nullptr;
}

CompareView* ComparePane::showView(const QString& name) {
    return static_cast<CompareView*>(RailPane::showView(name));
}

CompareView* ComparePane::currentView() const {
    return static_cast<CompareView*>(RailPane::currentView());
}

} // namespace tilescope::gui
