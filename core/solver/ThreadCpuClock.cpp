#include "solver/ThreadCpuClock.h"

#include <pthread.h>

namespace tapestry {

namespace {

double secondsOf(const timespec& t)
{
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

ThreadCpuClock::ThreadCpuClock(std::thread& thread)
{
    clockid_t clock{};
    if (pthread_getcpuclockid(thread.native_handle(), &clock) == 0)
        clock_ = clock;
}

std::optional<double> ThreadCpuClock::seconds() const
{
    timespec t{};
    if (!clock_ || clock_gettime(*clock_, &t) != 0)
        return std::nullopt;
    return secondsOf(t);
}

double callingThreadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return secondsOf(t);
}

}  // namespace tapestry
