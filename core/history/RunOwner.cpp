#include "history/RunOwner.h"

#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

#include <signal.h>
#include <unistd.h>

namespace tapestry {

namespace {

std::string hostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        return "unknown-host";
    return name;
}

// Field 22 of /proc/PID/stat (start time in clock ticks since boot); empty where /proc
// is not available. The command name (field 2) may hold spaces and parentheses, so
// fields are counted after its last ')'.
std::string startTimeOf(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return {};
    const std::size_t nameEnd = line.rfind(')');
    if (nameEnd == std::string::npos)
        return {};
    std::istringstream fields(line.substr(nameEnd + 1));
    std::string field;
    for (int index = 3; index <= 22 && fields >> field; ++index) {
        if (index == 22)
            return field;
    }
    return {};
}

}  // namespace

std::string currentRunOwner()
{
    const long pid = static_cast<long>(getpid());
    return hostName() + "/" + std::to_string(pid) + "/" + startTimeOf(pid);
}

bool runOwnerIsAlive(std::string_view owner)
{
    if (owner.empty())
        return false;
    const std::size_t pidStart = owner.find('/');
    const std::size_t pidEnd = pidStart == std::string_view::npos ? pidStart : owner.find('/', pidStart + 1);
    if (pidEnd == std::string_view::npos)
        return true;
    if (owner.substr(0, pidStart) != hostName())
        return true;
    long pid = 0;
    const std::string_view pidText = owner.substr(pidStart + 1, pidEnd - pidStart - 1);
    const auto parsed = std::from_chars(pidText.data(), pidText.data() + pidText.size(), pid);
    if (parsed.ec != std::errc() || parsed.ptr != pidText.data() + pidText.size() || pid <= 0)
        return true;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        return false;
    const std::string_view startTime = owner.substr(pidEnd + 1);
    return startTime.empty() || startTimeOf(pid) == startTime;
}

}  // namespace tapestry
