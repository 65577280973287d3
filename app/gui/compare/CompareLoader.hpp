#pragma once

#include "core/Background.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

namespace tilescope::gui {

class CompareSession;

/// Opens two reports for comparison on a worker thread (CompareSession::open) and reports
/// progress, the result or the error on the UI thread. As ReportLoader: one load at a time, a new
/// start abandons the previous one silently, cancel() takes effect between stages.
class CompareLoader : public QObject {
    Q_OBJECT
public:
    explicit CompareLoader(QObject* parent = nullptr);
    ~CompareLoader() override;

    void start(const QString& source, const QString& target);
    void cancel();
    bool isLoading() const { return watcher_ != nullptr; }

signals:
    void progress(int percent, const QString& stage);
    void loaded(std::shared_ptr<tilescope::gui::CompareSession> session);
    void failed(const QString& message);
    void cancelled();

private:
    using Result = Outcome<std::shared_ptr<CompareSession>>;
    void finish(QFutureWatcher<Result>* watcher);

    QFutureWatcher<Result>* watcher_ = nullptr;
};

} // namespace tilescope::gui
