#pragma once

#include <QtGlobal>

#include <atomic>
#include <memory>

namespace tapestry {

// The background jobs of one owner (a view, a loader), one current at a time: each
// start() cancels and supersedes the running job, whose late reports and result are
// dropped (finish() and isCurrent() say false for it). Lives on the GUI thread; only the
// cancel flag is shared with the worker.
class JobTracker {
public:
    using JobId = quint64;

    struct Ticket {
        JobId id = 0;
        std::shared_ptr<std::atomic_bool> cancelled;  // polled by the worker
    };

    // Cancels the running job and starts a new one.
    Ticket start()
    {
        cancel();
        cancelled_ = std::make_shared<std::atomic_bool>(false);
        return {++latest_, cancelled_};
    }
    // True when `job`'s result is to be shown (it is the latest); marks it finished.
    bool finish(JobId job)
    {
        if (job != latest_)
            return false;
        finished_ = job;
        return true;
    }
    // True while `job` is the latest and has not finished: its progress is to be shown.
    [[nodiscard]] bool isCurrent(JobId job) const { return job == latest_ && isBusy(); }
    [[nodiscard]] bool isBusy() const { return finished_ != latest_; }
    // True once the running job was asked to stop and until it reports its result.
    [[nodiscard]] bool isCancelling() const { return isBusy() && cancelled_ && *cancelled_; }
    // Asks the running job to stop; it still reports its (partial) result.
    void cancel()
    {
        if (cancelled_)
            *cancelled_ = true;
    }
    // Cancels the running job and drops everything it would still report.
    void discard()
    {
        cancel();
        finished_ = ++latest_;
    }

private:
    JobId latest_ = 0;
    JobId finished_ = 0;
    std::shared_ptr<std::atomic_bool> cancelled_;
};

}  // namespace tapestry
