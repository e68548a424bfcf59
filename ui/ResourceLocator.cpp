#include "ResourceLocator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tapestry {

QString ResourceLocator::defaultModelPath()
{
    const QString relative = QStringLiteral("models/default.onnx");
    const QStringList candidates{
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/tapestry/") + relative),
        QDir(QStringLiteral(TAPESTRY_SOURCE_RESOURCES_DIR)).filePath(relative),
    };
    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isFile())
            return QDir::cleanPath(candidate);
    }
    return {};
}

}  // namespace tapestry
