#pragma once

#include <QCoreApplication>
#include <QSize>
#include <QString>
#include <QStringList>

#include "graphview/GraphViewKind.h"

#include <variant>
#include <vector>

class QCommandLineParser;

namespace tapestry {

// What `tapestry [--screenshot FILE [--view scope|coarse|folded]] [--search [--cluster NAME]
// [--nodes N] [--mesh AxB|pp=P,dp=D,tp=T|auto] [--batch N] [--seq L] [--micro-batch N] [--target STACK]
// [--show results|inspector|timeline|traffic|edit|compare|history|export] [--expand-block] [--edit TEXT]]
// [--open-plan PLAN.json] [--zoom F] [--select TEXT] [--window-size WxH] [--solve-seconds S]
// [MODEL | PROBLEM]` asks for.
struct StartupOptions {
    Q_DECLARE_TR_FUNCTIONS(StartupOptions)

public:
    QString modelPath;       // a model or sharding problem; empty: open what the window opens at startup
    // Non-empty: save a PNG of the window once the model loaded (of the problem's window
    // once a sharding problem is read and, with solveSeconds, solved), then quit.
    QString screenshotPath;
    GraphViewKind view = GraphViewKind::Folded;  // the graph view shown (and waited for) first
    // Search once the model is folded (a screenshot then waits for the search).
    bool search = false;
    QString cluster;         // preset name; empty: the panel's default
    int nodes = 0;           // 0: the preset's
    QString mesh;            // "2x8", "pp=8,dp=2,tp=8" or "auto"; empty: the panel's default
    int batch = 0;           // 0: the panel's default (the model's)
    int sequence = 0;
    int microBatch = 0;      // 0: the panel's default
    QString target;          // megatron, torchtitan, pytorch or any; empty: the panel's
    bool showInspector = false;  // raise the plan inspector rather than the results
    bool showTimeline = false;   // and its pipeline schedule tab
    bool showTraffic = false;    // or its ring attention and expert all-to-all tab
    double timelineZoom = 1;     // that schedule's time axis zoomed this much, from its start
    bool showCompare = false;    // compare the edited plan with the best one (needs --edit)
    bool showExport = false;     // open the export dialog; the picture is the whole screen
    bool showHistory = false;    // raise the history of runs and plans
    // After the search, apply the first other strategy of the first edit target whose
    // name contains this (the plan editor shows it).
    QString edit;
    // Once the model is folded, open this plan file in the editor (and the inspector).
    QString planPath;
    QString select;          // select the first box of the graph view whose name contains this
    QSize windowSize;        // invalid: the saved or default size
    // Expand the first repeated block in the folded view (its coloured nodes show).
    bool expandBlock = false;
    // Solve the sharding problem for this many seconds once it is open (0: don't).
    int solveSeconds = 0;

    // Handles --help and --version itself (prints and exits, like QCommandLineParser); a
    // bad option is printed and the process exits with status 2.
    [[nodiscard]] static StartupOptions parse(const QCoreApplication& app);
    // The options `arguments` (the program's name first) ask for, or the message saying
    // which option is wrong and why.
    [[nodiscard]] static std::variant<StartupOptions, QString> fromArguments(const QStringList& arguments);

private:
    static void declareOptions(QCommandLineParser& parser);
    static std::variant<StartupOptions, QString> read(const QCommandLineParser& parser);
};

}  // namespace tapestry
