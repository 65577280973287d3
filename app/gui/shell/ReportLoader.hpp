#pragma once

#include "core/Background.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

namespace tilescope::gui {

class ReportSession;

/// Opens a report on a worker thread and reports progress, the result or the error back on the
/// UI thread. One load at a time: starting a new one abandons the previous one (its result is
/// dropped, no signal). cancel() takes effect between loading stages and emits `cancelled`; the
/// file is never left half-open.
class ReportLoader : public QObject {
    Q_OBJECT
public:
    explicit ReportLoader(QObject* parent = nullptr);
    ~ReportLoader() override;

    void start(const QString& fileOrFolder);
    void cancel();
    bool isLoading() const { return watcher_ != nullptr; }

signals:
    void progress(int percent, const QString& stage);
    void loaded(std::shared_ptr<tilescope::gui::ReportSession> session);
    void failed(const QString& message);
    void cancelled();

private:
    using Result = Outcome<std::shared_ptr<ReportSession>>;
    void finish(QFutureWatcher<Result>* watcher);

    QFutureWatcher<Result>* watcher_ = nullptr;
};

} // namespace tilescope::gui

Q_DECLARE_METATYPE(std::shared_ptr<tilescope::gui::ReportSession>)
