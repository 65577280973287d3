#pragma once

#include "Background.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace tilescope::gui {

/// Opens a session (one report, or two to compare) on a worker thread and reports progress, the
/// result or the error back on the UI thread. One load at a time: starting a new one abandons the
/// previous one (its result is dropped, no signal). cancel() takes effect between loading stages
/// and emits `cancelled`; the file is never left half-open. ReportLoader and CompareLoader derive
/// from it and only say what to open and which `loaded` signal carries the session.
class SessionLoader : public QObject {
    Q_OBJECT
public:
    /// Receives (fraction, stage) while opening.
    using Progress = std::function<void(double, const char*)>;
    /// Returns false once the load is abandoned; the opener then returns nullptr.
    using KeepGoing = std::function<bool()>;
    /// Opens the session on the worker (nullptr when abandoned); may throw.
    using Open = std::function<std::shared_ptr<void>(const Progress&, const KeepGoing&)>;

    explicit SessionLoader(QObject* parent = nullptr);
    ~SessionLoader() override;

    void cancel();
    bool isLoading() const { return watcher_ != nullptr; }

signals:
    void progress(int percent, const QString& stage);
    void failed(const QString& message);
    void cancelled();

protected:
    /// Starts `open` on a worker; `what` is the first progress text ("Opening FILE").
    void startOpening(const QString& what, Open open);
    /// The opened session, on the UI thread; derived loaders emit their typed `loaded`.
    virtual void opened(std::shared_ptr<void> session) = 0;

private:
    using Result = Outcome<std::shared_ptr<void>>;
    void finish(QFutureWatcher<Result>* watcher);

    QFutureWatcher<Result>* watcher_ = nullptr;
};

} // namespace tilescope::gui
