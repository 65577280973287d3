#include "ReportLoader.hpp"

#include "core/ReportSession.hpp"

#include <QPromise>

namespace tilescope::gui {

ReportLoader::ReportLoader(QObject* parent) : QObject(parent) {}

ReportLoader::~ReportLoader() {
    if (watcher_)
        watcher_->future().cancel();
}

void ReportLoader::start(const QString& fileOrFolder) {
    // A load in progress is abandoned silently: `cancelled` is for the user's Cancel only.
    if (watcher_)
        watcher_->future().cancel();
    auto* watcher = new QFutureWatcher<Result>(this);
    watcher_ = watcher;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher](int value) {
        if (watcher == watcher_)
            emit progress(value, watcher->progressText());
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] { finish(watcher); });
    emit progress(0, tr("Opening %1").arg(fileOrFolder));
    const std::string argument = fileOrFolder.toStdString();
    watcher->setFuture(QtConcurrent::run([argument](QPromise<Result>& promise) {
        promise.setProgressRange(0, 100);
        Result r;
        try {
            r.value = ReportSession::open(
                argument,
                [&](double fraction, const char* stage) {
                    promise.setProgressValueAndText(static_cast<int>(fraction * 100.0),
                                                    QString::fromUtf8(stage));
                },
                [&] { return !promise.isCanceled(); });
        } catch (const std::exception& e) {
            r.error = QString::fromStdString(e.what()).simplified();
        }
        promise.addResult(std::move(r));
    }));
}

void ReportLoader::finish(QFutureWatcher<Result>* watcher) {
    watcher->deleteLater();
    if (watcher != watcher_)
        return; // superseded or cancelled: its outcome no longer matters
    watcher_ = nullptr;
    const QFuture<Result> future = watcher->future();
    if (future.isCanceled() || future.resultCount() == 0) {
        emit cancelled();
        return;
    }
    Result r = future.result();
    if (!r.error.isEmpty())
        emit failed(r.error);
    else if (r.value && *r.value)
        emit loaded(std::move(*r.value));
    else
        emit cancelled();
}

void ReportLoader::cancel() {
    if (!watcher_)
        return;
    watcher_->future().cancel();
    watcher_ = nullptr;
    emit cancelled();
}

} // namespace tilescope::gui
