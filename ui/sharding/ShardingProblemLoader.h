#pragma once

#include "jobs/JobTracker.h"
#include "solver/ShardingProblem.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tapestry {

// Reads IOPDDL sharding problems (JSON, plain or gzip) off the GUI thread, one request
// at a time from the caller's view: a newer read() supersedes a running one, whose late
// result is dropped (like ModelLoader for ONNX models).
class ShardingProblemLoader : public QObject {
    Q_OBJECT

public:
    using JobId = quint64;

    explicit ShardingProblemLoader(QObject* parent = nullptr);

    // True for a .json.gz file, and for a .json file whose first key is "problem" (the
    // contest's format), so File > Open, drops and recent files can tell a problem from a
    // Tapestry plan file. Reads at most the first few hundred bytes.
    [[nodiscard]] static bool isProblemFile(const QString& path);

    JobId read(const QString& path);
    [[nodiscard]] bool isBusy() const { return jobs_.isBusy(); }

signals:
    void started(const QString& path);
    void loaded(const QString& path, std::shared_ptr<const tapestry::ShardingProblem> problem);
    // `problem` and `detail` are translated text (see ErrorText).
    void failed(const QString& path, const QString& problem, const QString& detail);

private:
    JobTracker jobs_;
};

}  // namespace tapestry
