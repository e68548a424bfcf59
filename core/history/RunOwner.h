#pragma once

#include <string>
#include <string_view>

namespace tapestry {

// Which process is running a run, written next to a `running` run so that a later
// opening of the history can tell a run still in progress (in the GUI, in another CLI)
// from one whose process was killed: "HOST/PID/START", START being the process's start
// time (so that a reused pid is not mistaken for the original process).
[[nodiscard]] std::string currentRunOwner();

// False only when `owner` names a process on this host that no longer exists; an owner
// on another host (a shared network folder) or one that cannot be parsed is assumed
// alive, so that a run in progress is never marked interrupted. An empty owner (a run
// recorded before owners were kept) counts as ended.
[[nodiscard]] bool runOwnerIsAlive(std::string_view owner);

}  // namespace tapestry
