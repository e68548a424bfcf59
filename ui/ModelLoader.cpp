#include "ModelLoader.h"

#include "ErrorText.h"
#include "LoadedModel.h"
#include "base/Error.h"

#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace tapestry {

namespace {

// What one job hands back to the GUI thread: a model, or why there is none.
struct LoadResult {
    std::shared_ptr<const LoadedModel> model;
    std::optional<Error> error;
    QString unexpected;  // an exception that is not a tapestry::Error
};

LoadResult loadCatching(const QString& path)
{
    try {
        return {LoadedModel::load(path), std::nullopt, {}};
    } catch (const Error& error) {
        return {nullptr, error, {}};
    } catch (const std::exception& exception) {
        return {nullptr, std::nullopt, QString::fromLocal8Bit(exception.what())};
    }
}

}  // namespace

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {}

ModelLoader::JobId ModelLoader::load(const QString& path)
{
    const JobId job = ++latestJob_;
    emit started(path);
    QtConcurrent::run([path] { return loadCatching(path); })
        .then(this, [this, job, path](const LoadResult& result) {
            if (job != latestJob_)
                return;  // superseded by a newer load()
            finishedJob_ = job;
            if (result.model)
                emit loaded(result.model);
            else if (result.error)
                emit failed(path, ErrorText::problem(*result.error), ErrorText::detail(*result.error));
            else
                emit failed(path, tr("The import stopped with an unexpected error."), result.unexpected);
        });
    return job;
}

}  // namespace tapestry
