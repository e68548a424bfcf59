#include "sharding/ShardingProblemLoader.h"

#include "jobs/BackgroundTask.h"
#include "common/ErrorText.h"
#include "jobs/JobOutcome.h"
#include "iopddl/IopddlReader.h"

#include <QFile>
#include <QRegularExpression>

namespace tapestry {

ShardingProblemLoader::ShardingProblemLoader(QObject* parent) : QObject(parent) {}

bool ShardingProblemLoader::isProblemFile(const QString& path)
{
    if (path.endsWith(QStringLiteral(".json.gz"), Qt::CaseInsensitive))
        return true;
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    static const QRegularExpression problemFirst(QStringLiteral(R"(^\s*\{\s*"problem"\s*:)"));
    return problemFirst.match(QString::fromUtf8(file.read(512))).hasMatch();
}

ShardingProblemLoader::JobId ShardingProblemLoader::read(const QString& path)
{
    using Outcome = JobOutcome<std::shared_ptr<const ShardingProblem>>;
    const JobId job = jobs_.start().id;
    emit started(path);
    const std::filesystem::path file = path.toStdString();
    runInBackground(
        this,
        [file] {
            return Outcome::catching([&] { return std::make_shared<const ShardingProblem>(readIopddlFile(file)); });
        },
        [this, job, path](const Outcome& outcome) {
            if (!jobs_.finish(job))
                return;  // superseded by a newer read()
            if (outcome.value)
                emit loaded(path, *outcome.value);
            else if (outcome.error)
                emit failed(path, ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error));
            else
                emit failed(path, tr("Reading the problem stopped with an unexpected error."), outcome.unexpected);
        });
    return job;
}

}  // namespace tapestry
