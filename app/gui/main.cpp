#include "common/Translations.h"
#include "windows/MainWindow.h"
#include "windows/StartupOptions.h"
#include "windows/StartupScript.h"

#include <QApplication>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationVersion(QStringLiteral(TAPESTRY_VERSION));
    tapestry::Translations::install(app);

    tapestry::StartupOptions options = tapestry::StartupOptions::parse(app);
    tapestry::MainWindow window;
    auto* script = new tapestry::StartupScript(&window, std::move(options));
    window.show();
    script->start();
    return QApplication::exec();
}
