#pragma once

#include <QCoreApplication>
#include <QString>

#include "GraphViewKind.h"

namespace tapestry {

// What `tapestry [--screenshot FILE [--view scope|coarse|folded]] [MODEL]` asks for.
struct StartupOptions {
    Q_DECLARE_TR_FUNCTIONS(StartupOptions)

public:
    QString modelPath;       // empty: open what the window opens at startup
    QString screenshotPath;  // non-empty: save a PNG of the window once the model loaded, then quit
    GraphViewKind view = GraphViewKind::Folded;  // the graph view shown (and waited for) first

    // Handles --help and --version itself (prints and exits, like QCommandLineParser).
    [[nodiscard]] static StartupOptions parse(const QCoreApplication& app);
};

}  // namespace tapestry
