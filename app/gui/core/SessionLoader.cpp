#include "SessionLoader.hpp"

#include <QPromise>

namespace tilescope::gui {

SessionLoader::SessionLoader(QObject* parent) : QObject(parent) {}

SessionLoader::~SessionLoader() {
    if (watcher_)
        watcher_->future().cancel();
}

void SessionLoader::startOpening(const QString& what, Open open) {
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
    emit progress(0, what);
    watcher->setFuture(QtConcurrent::run([open = std::move(open)](QPromise<Result>& promise) {
        promise.setProgressRange(0, 100);
        Result r;
        try {
            r.value = open(
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

void SessionLoader::finish(QFutureWatcher<Result>* watcher) {
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
        opened(std::move(*r.value));
    else
        emit cancelled();
}

void SessionLoader::cancel() {
    if (!watcher_)
        return;
    watcher_->future().cancel();
    watcher_ = nullptr;
    emit cancelled();
}

} // namespace tilescope::gui
