#pragma once

#include <QElapsedTimer>
#include <QMainWindow>

#include <memory>

class QAction;
class QFormLayout;
class QLabel;
class QProgressBar;
class QSpinBox;
class QTimer;

namespace tapestry {

class CostSplitChart;
struct ShardingProblem;
struct ShardingSolution;
class ShardingSolveJob;
struct SolveOutcome;
class SolveProgressChart;
class UsageProfileChart;

// One IOPDDL sharding problem in its own window: what it is (nodes, edges, time points,
// usage limit), a solve with a time limit in the background (best cost over time,
// Esc cancels and keeps the best feasible assignment), solution files in the contest's
// format, and the solution on screen: total cost split into node and edge costs,
// feasibility, and the memory usage over time against the limit.
// Value labels carry object names (totalCostValue, feasibilityValue, ...) for tests.
class ShardingProblemWindow : public QMainWindow {
    Q_OBJECT

public:
    ShardingProblemWindow(const QString& path, std::shared_ptr<const ShardingProblem> problem,
                          QWidget* parent = nullptr);
    ~ShardingProblemWindow() override;

    [[nodiscard]] const QString& path() const { return path_; }
    [[nodiscard]] const ShardingProblem& problem() const { return *problem_; }
    // Null until a solve finished or a solution file was loaded.
    [[nodiscard]] std::shared_ptr<const ShardingSolution> solution() const { return solution_; }
    [[nodiscard]] bool isSolving() const;
    [[nodiscard]] QAction* solveAction() const { return solve_; }
    [[nodiscard]] QAction* cancelAction() const { return cancel_; }
    // Seconds the next solve may take.
    [[nodiscard]] QSpinBox* timeLimitBox() const { return timeLimit_; }

public slots:
    void startSolve();
    void cancelSolve();
    // Shows the assignment in `file` (its last non-empty line, `[s0, s1, ...]`); a file
    // that does not hold one for this problem is reported and the solution on screen stays.
    void loadSolution(const QString& file);
    void saveSolution(const QString& file);

signals:
    // A solve ended: finished, cancelled or failed.
    void solveFinished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createProblemSummary();
    QWidget* createSolutionSummary();
    void createActions();
    void chooseSolutionToLoad();
    void chooseSolutionToSave();
    void showSolution(std::shared_ptr<const ShardingSolution> solution, const QString& origin);
    void onImproved(double seconds, double cost);
    void onSolved(const std::shared_ptr<const SolveOutcome>& outcome);
    void onSolveFailed(const QString& problem, const QString& detail);
    void setSolving(bool solving);
    void showElapsed();
    void reportProblem(const QString& objectName, const QString& title, const QString& text,
                       const QString& informative);
    QLabel* addValueRow(QFormLayout* form, const QString& label, const QString& objectName);

    QString path_;
    std::shared_ptr<const ShardingProblem> problem_;
    std::shared_ptr<const ShardingSolution> solution_;
    ShardingSolveJob* job_ = nullptr;

    QAction* solve_ = nullptr;
    QAction* cancel_ = nullptr;
    QAction* load_ = nullptr;
    QAction* save_ = nullptr;
    QSpinBox* timeLimit_ = nullptr;
    QLabel* origin_ = nullptr;
    QLabel* totalCost_ = nullptr;
    QLabel* nodeCost_ = nullptr;
    QLabel* edgeCost_ = nullptr;
    QLabel* feasibility_ = nullptr;
    QLabel* peakUsage_ = nullptr;
    CostSplitChart* costSplit_ = nullptr;
    UsageProfileChart* usageChart_ = nullptr;
    SolveProgressChart* progressChart_ = nullptr;
    QLabel* solveStatus_ = nullptr;
    QProgressBar* solveProgress_ = nullptr;
    QTimer* elapsedTimer_ = nullptr;
    QElapsedTimer solveClock_;  // for the elapsed-time bar
    double bestSoFar_ = -1;     // negative: none yet
    bool cancelling_ = false;
};

}  // namespace tapestry
