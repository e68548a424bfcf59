#pragma once

// What every GUI test starts from: settings and the history in scratch places, never the
// user's, and English number formats whatever the machine's locale.
#include <QCoreApplication>
#include <QLocale>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace tapestry::test {

inline void useScratchGuiEnvironment(const QString& applicationName)
{
    QStandardPaths::setTestModeEnabled(true);
    static QTemporaryDir history;
    qputenv("TAPESTRY_HISTORY", history.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
    QCoreApplication::setOrganizationName(QStringLiteral("TapestryTest"));
    QCoreApplication::setApplicationName(applicationName);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

}  // namespace tapestry::test
