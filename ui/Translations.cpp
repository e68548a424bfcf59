#include "Translations.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace tapestry {

namespace {

QString settingsKey()
{
    return QStringLiteral("language");
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

    // English is the source language: nothing to load.
    auto* tapestry = new QTranslator(&app);
    if (tapestry->load(locale, QStringLiteral("tapestry"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(tapestry);
    auto* qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

}  // namespace tapestry
