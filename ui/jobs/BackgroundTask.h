#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <type_traits>
#include <utility>

namespace tapestry {

// Runs `work` on Qt's thread pool, then `done(result)` on `context`'s thread, never after
// `context` is gone: the watcher that delivers the result belongs to it. Qt 6.4's
// QFuture::then(context, ...) invokes its continuation even when the context was
// destroyed meanwhile, which crashed MainWindowTest when a window closed while its model
// was still loading. Returns the work's future (for owners that wait for it).
template <class Work, class Done>
QFuture<std::invoke_result_t<Work>> runInBackground(QObject* context, Work work, Done done)
{
    using Result = std::invoke_result_t<Work>;
    auto* watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->future().result());
    });
    QFuture<Result> future = QtConcurrent::run(std::move(work));
    watcher->setFuture(future);
    return future;
}

}  // namespace tapestry
