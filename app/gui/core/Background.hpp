#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <new>
#include <optional>
#include <utility>

namespace tilescope::gui {

/// The value of a background job, or the one-line message of why it failed.
template <class T> struct Outcome {
    std::optional<T> value;
    QString error;
};

/// Runs `job` on the global thread pool and calls `done(T)` or `failed(QString)` on `context`'s
/// thread when it finishes. If `context` is destroyed first, neither is called (the watcher dies
/// with it), so models can be deleted while their queries run. Exceptions never cross threads:
/// they become the failure message.
template <class T, class Job, class Done, class Failed>
void runInBackground(QObject* context, Job job, Done done, Failed failed) {
    auto* watcher = new QFutureWatcher<Outcome<T>>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done), failed = std::move(failed)]() mutable {
                         Outcome<T> o = watcher->result();
                         watcher->deleteLater();
                         if (o.value)
                             done(std::move(*o.value));
                         else
                             failed(o.error);
                     });
    watcher->setFuture(QtConcurrent::run([job = std::move(job)]() mutable -> Outcome<T> {
        try {
            return {std::optional<T>(job()), {}};
        } catch (const std::bad_alloc&) {
            return {std::nullopt, QStringLiteral("out of memory while reading the report")};
        } catch (const std::exception& e) {
            return {std::nullopt, QString::fromStdString(e.what()).simplified()};
        }
    }));
}

} // namespace tilescope::gui
