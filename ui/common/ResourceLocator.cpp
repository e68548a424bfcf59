#include "common/ResourceLocator.h"

#include "base/ResourceFiles.h"

#include <QCoreApplication>
#include <QDir>

namespace tapestry {

QString ResourceLocator::defaultModelPath()
{
    const std::filesystem::path found =
        findResource(QDir(QCoreApplication::applicationDirPath()).filesystemAbsolutePath(), "models/default.onnx");
    return found.empty() ? QString() : QDir::cleanPath(QString::fromStdString(found.string()));
}

std::filesystem::path ResourceLocator::clusterPresetDirectory()
{
    return findResource(QDir(QCoreApplication::applicationDirPath()).filesystemAbsolutePath(), "clusters");
}

QString ResourceLocator::readmePath()
{
    for (QDir dir(QCoreApplication::applicationDirPath());; ) {
        if (dir.exists(QStringLiteral("README.md")) && dir.exists(QStringLiteral("resources")))
            return dir.absoluteFilePath(QStringLiteral("README.md"));
        if (!dir.cdUp())
            return {};
    }
}

}  // namespace tapestry
