#include "ReportLoader.hpp"

#include "core/ReportSession.hpp"

namespace tilescope::gui {

void ReportLoader::start(const QString& fileOrFolder) {
    const std::string argument = fileOrFolder.toStdString();
    startOpening(tr("Opening %1").arg(fileOrFolder), [argument](const Progress& progress,
                                                                const KeepGoing& keepGoing) {
        return std::shared_ptr<void>(ReportSession::open(argument, progress, keepGoing));
    });
}

void ReportLoader::opened(std::shared_ptr<void> session) {
    emit loaded(std::static_pointer_cast<ReportSession>(std::move(session)));
}

} // namespace tilescope::gui
