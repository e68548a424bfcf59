#include "SolutionFile.h"

#include "base/Error.h"
#include "base/TextFile.h"
#include "iopddl/SolutionLine.h"

#include <QSaveFile>

#include <string>

namespace tapestry {

Assignment SolutionFile::read(const QString& path)
{
    const std::string file = path.toStdString();
    return parseSolutionText(readTextFile(file), file);
}

void SolutionFile::write(const QString& path, const Assignment& assignment)
{
    const std::string line = solutionLine(assignment) + "\n";
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)
        || out.write(line.data(), static_cast<qint64>(line.size())) < 0 || !out.commit())
        throw Error(ErrorCode::WriteFailed, path.toStdString(), out.errorString().toStdString());
}

}  // namespace tapestry
