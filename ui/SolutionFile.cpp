#include "SolutionFile.h"

#include "base/Error.h"
#include "base/JsonReader.h"
#include "base/TextFile.h"

#include <QSaveFile>

#include <climits>
#include <cmath>
#include <string>

namespace tapestry {

namespace {

std::string_view lastNonEmptyLine(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    std::size_t end = text.size();
    while (end > 0 && blank(text[end - 1]))
        --end;
    if (end == 0)
        return {};
    const std::size_t newline = text.find_last_of('\n', end - 1);
    const std::size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
    return text.substr(begin, end - begin);
}

}  // namespace

Assignment SolutionFile::read(const QString& path)
{
    const std::string file = path.toStdString();
    const std::string text = readTextFile(file);
    JsonValue list;
    try {
        list = parseJson(lastNonEmptyLine(text), file);
    } catch (Error& error) {
        error.addContext("reading the solution on its last line");
        throw;
    }
    if (!list.isArray())
        throw Error(ErrorCode::InvalidArgument, file,
                    std::string("the last line is a JSON ") + list.kindName() + ", not a list of strategies");
    Assignment assignment;
    assignment.reserve(list.asArray().size());
    for (const JsonValue& entry : list.asArray()) {
        const double strategy = entry.isNumber() ? entry.asNumber() : -1;
        if (strategy < 0 || strategy > INT_MAX || std::floor(strategy) != strategy)
            throw Error(ErrorCode::InvalidArgument, file,
                        "entry " + std::to_string(assignment.size()) + " is not a strategy index");
        assignment.push_back(static_cast<int>(strategy));
    }
    return assignment;
}

void SolutionFile::write(const QString& path, const Assignment& assignment)
{
    QString line = QStringLiteral("[");
    for (std::size_t i = 0; i < assignment.size(); ++i) {
        if (i > 0)
            line += QStringLiteral(", ");
        line += QString::number(assignment[i]);
    }
    line += QStringLiteral("]\n");
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text) || out.write(line.toUtf8()) < 0 || !out.commit())
        throw Error(ErrorCode::WriteFailed, path.toStdString(), out.errorString().toStdString());
}

}  // namespace tapestry
