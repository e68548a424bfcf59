#include "sharding/SolutionFile.h"

#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/TextFile.h"
#include "iopddl/SolutionLine.h"

#include <QFile>

#include <string>

namespace tapestry {

Assignment SolutionFile::read(const QString& path)
{
    const std::string file = path.toStdString();
    return parseSolutionText(readTextFile(file), file);
}

void SolutionFile::write(const QString& path, const Assignment& assignment)
{
    writeFileAtomically(QFile::encodeName(path).toStdString(), solutionLine(assignment) + "\n");
}

}  // namespace tapestry
