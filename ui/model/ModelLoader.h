#pragma once

#include "jobs/JobTracker.h"
#include <QObject>
#include <QString>

#include <memory>

namespace tapestry {

struct LoadedModel;

// Imports models off the GUI thread, one request at a time from the caller's view: a new
// load() supersedes any import still running, whose late result is then dropped.
class ModelLoader : public QObject {
    Q_OBJECT

public:
    using JobId = quint64;

    explicit ModelLoader(QObject* parent = nullptr);

    // Copies `path` and starts the import on the thread pool; returns the new job's id.
    JobId load(const QString& path);
    // Synthesizes the reference model `preset` (`layers` > 0 overrides its depth), writes
    // it to `path` (shapes only, no weights) and imports that file, all on the thread
    // pool, so a preset opens exactly like a file.
    JobId synthesize(const QString& preset, int layers, const QString& path);
    // True while the newest job has not reported back.
    [[nodiscard]] bool isBusy() const { return jobs_.isBusy(); }

signals:
    void started(const QString& path);
    void loaded(std::shared_ptr<const tapestry::LoadedModel> model);
    // `problem` and `detail` are already translated text (see ErrorText).
    void failed(const QString& path, const QString& problem, const QString& detail);

private:
    template <class Work>
    JobId start(const QString& path, Work work);

    JobTracker jobs_;
};

}  // namespace tapestry
