#pragma once

#include <ctime>
#include <optional>
#include <thread>

namespace tapestry {

// The CPU time one thread has been given, readable from any other thread while that
// thread runs (POSIX per-thread CPU clock). The solver compares it with the wall time to
// see how much of a core its searches actually get on a loaded machine.
class ThreadCpuClock {
public:
    // The clock of `thread`, which must be running (not yet joined or detached).
    explicit ThreadCpuClock(std::thread& thread);

    // CPU seconds the thread has had; none once it has ended (its clock is gone).
    [[nodiscard]] std::optional<double> seconds() const;

private:
    std::optional<clockid_t> clock_;
};

// CPU seconds the calling thread has had.
[[nodiscard]] double callingThreadCpuSeconds();

}  // namespace tapestry
