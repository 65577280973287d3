#pragma once

#include "LatestFetch.hpp"
#include "NewestLoad.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <cstdint>
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

template <class T, class Job, class Done, class Failed>
void NewestLoad::start(QObject* context, Job job, Done done, Failed failed) {
    busy_ = true;
    const std::uint64_t generation = ++generation_;
    runInBackground<T>(
        context, std::move(job),
        [this, generation, done = std::move(done)](T value) mutable {
            if (generation != generation_)
                return;
            busy_ = false;
            done(std::move(value));
        },
        [this, generation, failed = std::move(failed)](const QString& message) mutable {
            if (generation != generation_)
                return;
            busy_ = false;
            failed(message);
        });
}

template <class Request>
template <class Answer, class Job, class Show, class Fail>
void LatestFetch<Request>::run(QObject* context, Job job, Show show, Fail fail) {
    running_ = true;
    const std::uint64_t generation = generation_;
    runInBackground<Answer>(
        context, std::move(job),
        [this, generation, show = std::move(show)](Answer answer) mutable {
            running_ = false;
            if (generation == generation_)
                show(std::move(answer));
            startNext();
        },
        [this, fail = std::move(fail)](const QString& message) mutable {
            running_ = false;
            fail(message);
        });
}

} // namespace tilescope::gui
