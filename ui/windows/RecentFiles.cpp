#include "windows/RecentFiles.h"

#include <QFileInfo>
#include <QSettings>

namespace tapestry {

namespace {

QString settingsKey()
{
    return QStringLiteral("recentFiles");
}

void store(const QStringList& files)
{
    QSettings().setValue(settingsKey(), files);
}

}  // namespace

QStringList RecentFiles::list()
{
    return QSettings().value(settingsKey()).toStringList();
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = list();
    files.removeAll(absolute);
    files.prepend(absolute);
    store(files.mid(0, kMaxCount));
}

void RecentFiles::remove(const QString& path)
{
    QStringList files = list();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    store(files);
}

void RecentFiles::clear()
{
    store({});
}

}  // namespace tapestry
