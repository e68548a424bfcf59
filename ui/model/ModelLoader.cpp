#include "model/ModelLoader.h"

#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "common/ErrorText.h"
#include "model/LoadedModel.h"
#include "base/Error.h"
#include "onnx/OnnxExporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>

namespace tapestry {

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {}

template <class Work>
ModelLoader::JobId ModelLoader::start(const QString& path, Work work)
{
    const JobId job = jobs_.start().id;
    emit started(path);
    using Outcome = JobOutcome<std::shared_ptr<const LoadedModel>>;
    runInBackground(
        this, [work] { return Outcome::catching(work); },
        [this, job, path](const Outcome& outcome) {
            if (!jobs_.finish(job))
                return;  // superseded by a newer load()
            if (outcome.value)
                emit loaded(*outcome.value);
            else if (outcome.error)
                emit failed(path, ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error));
            else
                emit failed(path, QCoreApplication::translate("tapestry::ModelLoader", "The import stopped with an unexpected error."),
                            outcome.unexpected);
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
