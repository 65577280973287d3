#pragma once

#include "core/SessionLoader.hpp"

#include <memory>

namespace tilescope::gui {

class CompareSession;

/// Opens two reports for comparison (CompareSession::open) as a SessionLoader: progress, failure
/// and Cancel as there, the session in `loaded`.
class CompareLoader : public SessionLoader {
    Q_OBJECT
public:
    explicit CompareLoader(QObject* parent = nullptr) : SessionLoader(parent) {}

    void start(const QString& source, const QString& target);

signals:
    void loaded(std::shared_ptr<tilescope::gui::CompareSession> session);

protected:
    void opened(std::shared_ptr<void> session) override;
};

} // namespace tilescope::gui
