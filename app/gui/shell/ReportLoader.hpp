#pragma once

#include "core/SessionLoader.hpp"

#include <memory>

namespace tilescope::gui {

class ReportSession;

/// Opens one report (ReportSession::open) as a SessionLoader: progress, failure and Cancel as
/// there, the session in `loaded`.
class ReportLoader : public SessionLoader {
    Q_OBJECT
public:
    explicit ReportLoader(QObject* parent = nullptr) : SessionLoader(parent) {}

    void start(const QString& fileOrFolder);

signals:
    void loaded(std::shared_ptr<tilescope::gui::ReportSession> session);

protected:
    void opened(std::shared_ptr<void> session) override;
};

} // namespace tilescope::gui

Q_DECLARE_METATYPE(std::shared_ptr<tilescope::gui::ReportSession>)
