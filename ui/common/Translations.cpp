#include "common/Translations.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <memory>

namespace tapestry {

namespace {

QString settingsKey()
{
    return QStringLiteral("language");
}

void installTranslator(QCoreApplication& app, const QLocale& locale, const QString& name, const QString& directory)
{
    auto translator = std::make_unique<QTranslator>();
    if (!translator->load(locale, name, QStringLiteral("_"), directory))
        return;
    translator->setParent(&app);  // the application owns it from here on
    QCoreApplication::installTranslator(translator.release());
}

}  // namespace

QList<Translations::Language> Translations::available()
{
    return {
        {QString(), tr("System default")},
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("de"), QStringLiteral("Deutsch")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
    };
}

QString Translations::chosen()
{
    return QSettings().value(settingsKey()).toString();
}

void Translations::choose(const QString& code)
{
    QSettings().setValue(settingsKey(), code);
}

void Translations::install(QCoreApplication& app)
{
    const QString code = chosen();
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    // Numbers follow the interface language, so "8,03 Mrd." never mixes with English text.
    QLocale::setDefault(locale);

    // English is the source language: for it neither file exists and nothing is installed.
    installTranslator(app, locale, QStringLiteral("tapestry"), QStringLiteral(":/i18n"));
    installTranslator(app, locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
}

}  // namespace tapestry
