#include "solver/CbcSolve.h"

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CbcTree.hpp>
#include <CglCutGenerator.hpp>
#include <ClpEventHandler.hpp>
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiCuts.hpp>
#include <OsiRowCut.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

// CBC is not reentrant. Never destroyed: a solve whose caller stopped waiting for it
// (the general solver's deadline) may still hold it while the process exits.
std::timed_mutex& cbcMutex()
{
    static auto* mutex = new std::timed_mutex;
    return *mutex;
}

// When to give up: on a stop request, or after the end (CBC checks its own limit only
// between nodes, and the root LP of a large problem can take longer).
struct Interrupt {
    const CbcSettings& settings;
    Clock::time_point end;
    bool fired = false;

    bool due()
    {
        fired = fired || (settings.stopRequested && settings.stopRequested()) || Clock::now() > end;
        return fired;
    }
};

// Lowers CBC's cutoff to a solution known elsewhere, less half a unit (the objectives
// the callers build are whole numbers, so a node that cannot go below that holds no
// better solution), and prunes the tree by it at once, as CBC does after an incumbent
// of its own: left to CBC's next pass, the node it takes before that pass can be above
// the cutoff, which trips its addCuts assertion. Only between nodes (tree status
// events): at a node event, under the node just solved, it trips doOneNode's. CBC
// keeps its own incumbents only while they beat the cutoff.
void applyKnownObjective(CbcModel& model, const CbcSettings& settings)
{
    if (!settings.knownObjective || !model.tree())
        return;
    const double cutoff = settings.knownObjective() - 0.5;
    if (!(cutoff < model.getCutoff()))
        return;
    model.setCutoff(cutoff);
    double bestPossible = 0;
    model.tree()->cleanTree(&model, cutoff, bestPossible);
}

// Ends the branch and bound between nodes; hands each new incumbent and each better
// bound on, and lowers the cutoff to a solution known elsewhere.
class BranchHandler : public CbcEventHandler {
public:
    // `treeBound`: the best bound read at the tree's events.
    BranchHandler(Interrupt* interrupt, int columns, double* treeBound)
        : interrupt_(interrupt), columns_(columns), treeBound_(treeBound)
    {
    }
    CbcAction event(CbcEvent whichEvent) override
    {
        if (interrupt_->due())
            return stop;
        // The primal heuristics run sub-models of their own (fixed or preprocessed
        // copies) that send events here too: their bounds, solutions and relaxations are
        // not the program's (a 16-column sub-model's bound of 81.9 M on a problem whose
        // optimum is 79.9 M).
        if (!model_ || model_->parentModel())
            return noAction;
        const CbcSettings& settings = interrupt_->settings;
        if (whichEvent == treeStatus)
            applyKnownObjective(*model_, settings);
        if ((whichEvent == solution || whichEvent == heuristicSolution) && settings.onSolution
            && model_->bestSolution() && model_->getNumCols() == columns_)
            settings.onSolution(model_->bestSolution(), model_->getObjValue());
        // Only once the root is done (tree status and node events): during the root's
        // cut passes the value read is the LP's of the moment.
        if (whichEvent == node || whichEvent == treeStatus) {
            const double bound = model_->getBestPossibleObjValue();
            if (bound > *treeBound_ && bound < 1e49) {
                *treeBound_ = bound;
                if (settings.onBound)
                    settings.onBound(bound);
            }
            // After the bound: a caller may stop the search on seeing the relaxation.
            if (!rootRelaxationSent_ && settings.solverDefaults && settings.onRootRelaxation
                && model_->continuousSolution() && model_->getNumCols() == columns_) {
                rootRelaxationSent_ = true;
                settings.onRootRelaxation(model_->continuousSolution());
            }
        }
        return noAction;
    }
    CbcEventHandler* clone() const override { return new BranchHandler(*this); }

private:
    Interrupt* interrupt_;
    int columns_;
    double* treeBound_;
    bool rootRelaxationSent_ = false;
};

// At the root the caller's cuts are asked for while the pass before lifted the bound by
// at least this share of it. A separator that finds one weak cut per pass keeps CBC's
// root passes going: on a generated 1,200-node diffusion problem, covers at every pass
// took the root from 7.3 s without them to 52 s (50 passes, the last forty lifting it by
// about 3e-6 of it each). Measured on nine generated problems of seven families (590-1,190
// nodes after reduction; load 11-15), tenfold each way: at 1e-4 that problem keeps 3 %
// of the lift instead of 96 %; at 1e-6 four problems of three families close 1-97 % of
// the gap left to their optimum for 1.3-2.2 times the root's time, the other five
// little or nothing; at 1e-5 no root takes more than about twice its time without
// covers. Between 1e-5 and 1e-6 neither is better everywhere (README, session 15).
constexpr double kRootRise = 1e-5;

// The caller's separator (CbcSettings::separate) as one of CBC's cut generators. Only
// on the program's own columns: heuristics' sub-models differ.
class CallerCuts : public CglCutGenerator {
public:
    CallerCuts(const CbcSettings& settings, int columns) : settings_(&settings), columns_(columns) {}
    void generateCuts(const OsiSolverInterface& solver, OsiCuts& cuts, const CglTreeInfo info) override
    {
        if (solver.getNumCols() != columns_)
            return;
        if (!info.inTree) {
            const double objective = solver.getObjValue();
            const double rise = objective - lastRootObjective_;
            lastRootObjective_ = objective;
            if (rise < kRootRise * std::abs(objective))
                return;
        }
        for (const RowCut& found : settings_->separate(solver.getColSolution())) {
            OsiRowCut cut;
            cut.setRow(static_cast<int>(found.columns.size()), found.columns.data(), found.values.data());
            cut.setLb(-solver.getInfinity());
            cut.setUb(found.upper);
            cut.setGloballyValid(true);
            cuts.insert(cut);
        }
    }
    CglCutGenerator* clone() const override { return new CallerCuts(*this); }

private:
    const CbcSettings* settings_;
    int columns_;
    double lastRootObjective_ = -std::numeric_limits<double>::infinity();
};

// Ends a simplex solve between iterations (the root LP, strong branching, heuristics).
class LpStopHandler : public ClpEventHandler {
public:
    explicit LpStopHandler(Interrupt* interrupt) : interrupt_(interrupt) {}
    int event(Event whichEvent) override { return whichEvent == endOfIteration && interrupt_->due() ? 0 : -1; }
    ClpEventHandler* clone() const override { return new LpStopHandler(*this); }

private:
    Interrupt* interrupt_;
};

}  // namespace

int MixedIntegerProgram::addColumn(double cost, double lo, double hi, bool integer)
{
    objective.push_back(cost);
    lower.push_back(lo);
    upper.push_back(hi);
    const int index = static_cast<int>(objective.size()) - 1;
    if (integer)
        integers.push_back(index);
    return index;
}

void MixedIntegerProgram::addRow(const std::vector<int>& columns, const std::vector<double>& values, double lo, double hi)
{
    rowColumns.insert(rowColumns.end(), columns.begin(), columns.end());
    rowValues.insert(rowValues.end(), values.begin(), values.end());
    rowStarts.push_back(static_cast<int>(rowColumns.size()));
    rowLower.push_back(lo);
    rowUpper.push_back(hi);
}

CbcOutcome solveWithCbc(const MixedIntegerProgram& program, const CbcSettings& settings)
{
    CbcOutcome outcome;
    std::unique_lock lock(cbcMutex(), std::defer_lock);
    while (!lock.try_lock_for(std::chrono::milliseconds(20))) {
        if ((settings.stopRequested && settings.stopRequested()) || (settings.deadline && Clock::now() >= *settings.deadline)) {
            outcome.stopped = true;
            return outcome;
        }
    }
    auto end = Clock::now()
               + std::chrono::duration_cast<Clock::duration>(
                   std::chrono::duration<double>(std::max(0.01, settings.timeLimitSeconds)));
    if (settings.deadline)
        end = std::min(end, *settings.deadline);
    Interrupt interrupt{settings, end};

    const auto columns = static_cast<int>(program.columnCount());
    const CoinPackedMatrix matrix(false, columns, static_cast<int>(program.rowCount()), program.rowStarts.back(),
                                  program.rowValues.data(), program.rowColumns.data(), program.rowStarts.data(), nullptr);
    OsiClpSolverInterface solver;
    solver.messageHandler()->setLogLevel(0);
    solver.loadProblem(matrix, program.lower.data(), program.upper.data(), program.objective.data(),
                       program.rowLower.data(), program.rowUpper.data());
    for (const int column : program.integers)
        solver.setInteger(column);
    LpStopHandler lpHandler(&interrupt);
    solver.getModelPtr()->passInEventHandler(&lpHandler);
    CbcModel model(solver);
    model.setLogLevel(0);
    model.messageHandler()->setLogLevel(0);
    CbcSolverUsefulData data;
    data.noPrinting_ = true;
    if (settings.solverDefaults) {
        CbcMain0(model, data);
        // CbcMain0 restores chatty defaults; the CLI's stdout must stay clean.
        model.messageHandler()->setLogLevel(0);
        model.solver()->messageHandler()->setLogLevel(0);
    }
    // Unchecked: CBC would re-solve an LP of the whole model to confirm what the caller
    // already knows; on a large model that takes seconds.
    if (settings.start)
        model.setBestSolution(settings.start->data(), columns, settings.startObjective, false);
    // The known objective is applied from the tree's first node on, not at the root: set
    // before the solve it slowed the root of a generated 392-node diffusion problem from
    // 3 to 10 s and sent the tree away from the optimum it proves in 20 s without.
    // Tree status events come every this many nodes (CBC's default is 100 on a model
    // over 2,000 columns, a minute of its tree there); each scans the open nodes. The
    // first one hands on the root's relaxation.
    if (settings.knownObjective || settings.onRootRelaxation)
        model.setPrintFrequency(1);
    CallerCuts callerCuts(settings, columns);
    if (settings.separate)
        model.addCutGenerator(&callerCuts, -1, "caller");  // in the tree too, unless CBC finds it idle at the root
    double treeBound = -std::numeric_limits<double>::infinity();
    BranchHandler branchHandler(&interrupt, columns, &treeBound);
    model.passInEventHandler(&branchHandler);
    const double seconds = std::max(0.01, std::chrono::duration<double>(end - Clock::now()).count());
    if (settings.solverDefaults) {
        const std::string limit = std::to_string(seconds);
        // Wall-clock seconds: CBC counts CPU time of the whole process by default, which
        // runs faster while other threads work.
        std::vector<const char*> argv = {"tapestry", "-log",      "0",     "-slog",       "0",   "-preprocess",
                                         "off",      "-timeMode", "elapsed", "-sec", limit.c_str()};
        // Passed only to switch them off; otherwise CBC keeps its own default set.
        if (!settings.heuristics)
            argv.insert(argv.end(), {"-heuristics", "off"});
        argv.insert(argv.end(), {"-solve", "-quit"});
        CbcMain1(static_cast<int>(argv.size()), argv.data(), model, nullptr, data);
    } else {
        model.setUseElapsedTime(true);
        model.setMaximumSeconds(seconds);
        model.branchAndBound();
    }

    outcome.stopped = interrupt.fired;
    outcome.branchNodes = model.getNodeCount();
    // Stopped in its tree, CBC's own figure can be its incumbent's objective (a search
    // stopped at its first tree event read so); the best bound read at a tree event holds.
    outcome.bound = interrupt.fired && treeBound > -std::numeric_limits<double>::infinity()
                        ? treeBound
                        : model.getBestPossibleObjValue();
    // After a stop the model may hold no solution, or one of a presolved model; only a
    // full-width one is the program's.
    if (const double* best = model.bestSolution(); best && model.getNumCols() == columns) {
        outcome.values.assign(best, best + columns);
        outcome.objective = model.getObjValue();
    }
    // An interrupted simplex solve can look like a proof; only an uninterrupted one is.
    // With a cutoff below every solution CBC found, the end of its search reads as
    // infeasible.
    outcome.complete = (model.isProvenOptimal() || model.isProvenInfeasible()) && !interrupt.fired;
    const double known =
        settings.knownObjective ? settings.knownObjective() : std::numeric_limits<double>::infinity();
    // CBC's solution is the optimum only when the known one is no cheaper.
    outcome.provenOptimal = outcome.complete && !outcome.values.empty() && outcome.objective <= known;
    outcome.provenInfeasible = outcome.complete && outcome.values.empty() && !(known < 1e50);
    if (outcome.complete && settings.onBound && (outcome.provenOptimal || known < 1e50))
        settings.onBound(outcome.provenOptimal ? outcome.objective : known);  // closed: perhaps no tree event came
    return outcome;
}

}  // namespace tapestry
