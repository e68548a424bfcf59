#include "model/ModelLoader.h"

#include "jobs/BackgroundTask.h"
#include "common/ErrorText.h"
#include "model/LoadedModel.h"
#include "base/Error.h"
#include "onnx/OnnxExporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <optional>

namespace tapestry {

namespace {

// What one job hands back to the GUI thread: a model, or why there is none.
struct LoadResult {
    std::shared_ptr<const LoadedModel> model;
    std::optional<Error> error;
    QString unexpected;  // an exception that is not a tapestry::Error
};

template <class Make>
LoadResult catching(Make make)
{
    try {
        return {make(), std::nullopt, {}};
    } catch (const Error& error) {
        return {nullptr, error, {}};
    } catch (const std::exception& exception) {
        return {nullptr, std::nullopt, QString::fromLocal8Bit(exception.what())};
    }
}

}  // namespace

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {}

template <class Work>
ModelLoader::JobId ModelLoader::start(const QString& path, Work work)
{
    const JobId job = jobs_.start().id;
    emit started(path);
    runInBackground(
        this, [work] { return catching(work); },
        [this, job, path](const LoadResult& result) {
            if (!jobs_.finish(job))
                return;  // superseded by a newer load()
            if (result.model)
                emit loaded(result.model);
            else if (result.error)
                emit failed(path, ErrorText::problem(*result.error), ErrorText::detail(*result.error));
            else
                emit failed(path, QCoreApplication::translate("tapestry::ModelLoader", "The import stopped with an unexpected error."),
                            result.unexpected);
        });
    return job;
}

ModelLoader::JobId ModelLoader::load(const QString& path)
{
    return start(path, [path] { return LoadedModel::load(path); });
}

ModelLoader::JobId ModelLoader::synthesize(const QString& preset, int layers, const QString& path)
{
    const std::string name = preset.toStdString();
    const std::filesystem::path file = path.toStdString();
    return start(path, [name, layers, file, path] {
        const SynthPreset* found = findSynthPreset(name);
        if (!found)
            throw Error(ErrorCode::InvalidArgument, {}, "no reference model named '" + name + "'");
        ModelSpec spec = found->spec;
        if (layers > 0)
            spec.layers = layers;
        std::filesystem::create_directories(file.parent_path());
        writeOnnxModel(synthesizeModel(spec, name), file);
        return LoadedModel::load(path);
    });
}


}  // namespace tapestry
