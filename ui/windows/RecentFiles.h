#pragma once

#include <QStringList>

namespace tapestry {

// The most recently opened model files, newest first, kept in QSettings.
class RecentFiles {
public:
    static constexpr qsizetype kMaxCount = 8;

    [[nodiscard]] static QStringList list();
    // Moves `path` to the front, dropping the oldest entry beyond kMaxCount.
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

}  // namespace tapestry
