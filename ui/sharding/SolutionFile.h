#pragma once

#include "solver/ShardingProblem.h"

#include <QString>

namespace tapestry {

// Solution files as the IOPDDL contest binary and `tapestry-cli solve` print them: the
// last non-empty line is the assignment as a bracketed list, `[0, 0, 2, 1, 0]`; lines
// before it (a cost summary, a log) are ignored.
class SolutionFile {
public:
    // Throws Error naming the file: FileNotFound, ReadFailed, EmptyFile; InvalidJson when
    // the last line is not a JSON list; InvalidArgument when an entry is not a
    // non-negative whole number.
    [[nodiscard]] static Assignment read(const QString& path);
    // Throws Error(WriteFailed) naming the file.
    static void write(const QString& path, const Assignment& assignment);
};

}  // namespace tapestry
