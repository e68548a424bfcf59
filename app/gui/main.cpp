#include "MainWindow.h"
#include "StartupOptions.h"
#include "Translations.h"

#include <QApplication>
#include <QTimer>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationVersion(QStringLiteral(TAPESTRY_VERSION));
    tapestry::Translations::install(app);
    const tapestry::StartupOptions options = tapestry::StartupOptions::parse(app);

    tapestry::MainWindow window;
    if (!options.screenshotPath.isEmpty()) {
        // Grab once the import has been shown and laid out, then quit with its outcome.
        QObject::connect(&window, &tapestry::MainWindow::loadFinished, &window, [&](bool succeeded) {
            QTimer::singleShot(300, &window, [&, succeeded] {
                const bool saved = window.grab().save(options.screenshotPath);
                QApplication::exit(succeeded && saved ? 0 : 1);
            });
        });
    }
    window.show();
    window.openAtStartup(options.modelPath);
    return QApplication::exec();
}
