#include "CompareLoader.hpp"

#include "CompareSession.hpp"

namespace tilescope::gui {

void CompareLoader::start(const QString& source, const QString& target) {
    const std::string a = source.toStdString(), b = target.toStdString();
    startOpening(tr("Opening %1 and %2").arg(source, target),
                 [a, b](const Progress& progress, const KeepGoing& keepGoing) {
                     return std::shared_ptr<void>(CompareSession::open(a, b, progress, keepGoing));
                 });
}

void CompareLoader::opened(std::shared_ptr<void> session) {
    emit loaded(std::static_pointer_cast<CompareSession>(std::move(session)));
}

} // namespace tilescope::gui
