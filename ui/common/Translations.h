#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace tapestry {

// Which language the user interface speaks: the choice made in View > Language, kept in
// QSettings, else the system locale. A change takes effect at the next start.
class Translations {
    Q_DECLARE_TR_FUNCTIONS(Translations)

public:
    struct Language {
        QString code;  // "de", "zh_CN"; empty means "follow the system"
        QString name;  // in its own language, so anyone can find theirs
    };

    // The choices for the menu, "follow the system" first.
    [[nodiscard]] static QList<Language> available();
    [[nodiscard]] static QString chosen();
    static void choose(const QString& code);

    // Loads Tapestry's and Qt's own translations for the chosen language into `app`.
    // Call once, before any window is created.
    static void install(QCoreApplication& app);
};

}  // namespace tapestry
