#include "search/WhyThisPlan.h"

#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

// "+1.2 ms", "-7.6 ms"; a change that rounds to nothing is "0.0 ms".
QString signedMs(double seconds)
{
    const double shown = std::round(seconds * 1e4) / 10;
    if (shown == 0)
        return QStringLiteral("%L1 ms").arg(0.0, 0, 'f', 1);
    return (shown > 0 ? QStringLiteral("+") : QString()) + QStringLiteral("%L1 ms").arg(shown, 0, 'f', 1);
}

bool samePrice(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

std::shared_ptr<const PlanCandidate> WhyThisPlan::bestExpert(const SearchOutcome& results)
{
    std::shared_ptr<const PlanCandidate> chosen;
    const auto fits = [&](const PlanCandidate& candidate) { return candidate.memoryBytes() <= results.memoryLimitBytes; };
    for (const std::shared_ptr<const PlanCandidate>& candidate : results.candidates) {
        if (candidate->role != PlanCandidate::Role::Expert)
            continue;
        const bool better = !chosen || (fits(*candidate) != fits(*chosen)
                                            ? fits(*candidate)
                                            : fits(*candidate) ? candidate->stepSeconds() < chosen->stepSeconds()
                                                               : candidate->memoryBytes() < chosen->memoryBytes());
        if (better)
            chosen = candidate;
    }
    return chosen;
}

bool WhyThisPlan::withinModelError(const PlanCandidate& best, const PlanCandidate& expert)
{
    return std::abs(best.stepSeconds() / expert.stepSeconds() - 1) < kValidatedMedianError;
}

bool WhyThisPlan::pricedAlike(const PlanCandidate& best, const PlanCandidate& expert)
{
    return samePrice(best.stepSeconds(), expert.stepSeconds()) && samePrice(best.memoryBytes(), expert.memoryBytes());
}

QString WhyThisPlan::text(const PlanCandidate& best, const PlanCandidate& expert)
{
    // The search arrived at the expert layout itself (on a mesh of the same shape, or
    // with axes of one GPU more): a comparison of differences would only read "0.0".
    if (pricedAlike(best, expert))
        return tr("Why this plan: it prices exactly as %1 on %2 (%L3 ms, %L4 GB per device): the search found "
                  "no faster plan than this expert layout.")
            .arg(SearchResultsModel::planLabel(expert), QString::fromStdString(expert.meshText))
            .arg(best.stepSeconds() * 1e3, 0, 'f', 1)
            .arg(best.memoryBytes() / 1e9, 0, 'f', 2);
    const TimeBreakdown& a = best.evaluation.total.time;
    const TimeBreakdown& b = expert.evaluation.total.time;
    const double change = best.stepSeconds() / expert.stepSeconds() - 1;
    QStringList parts;
    parts << tr("compute %1").arg(signedMs(a.computeSeconds - b.computeSeconds));
    parts << tr("exposed communication %1")
                 .arg(signedMs(a.exposedCommunicationSeconds() + a.pipelineSendSeconds -
                               b.exposedCommunicationSeconds() - b.pipelineSendSeconds));
    if (a.bubbleSeconds > 0 || b.bubbleSeconds > 0)
        parts << tr("pipeline bubble %1").arg(signedMs(a.bubbleSeconds - b.bubbleSeconds));
    const double memory = best.memoryBytes() - expert.memoryBytes();
    const QString memoryText = memory <= 0 ? tr("%L1 GB less memory per device").arg(-memory / 1e9, 0, 'f', 2)
                                           : tr("%L1 GB more memory per device").arg(memory / 1e9, 0, 'f', 2);
    const QString speed = change <= 0 ? tr("%L1 % faster").arg(-change * 100, 0, 'f', 1)
                                      : tr("%L1 % slower").arg(change * 100, 0, 'f', 1);
    QString text = tr("Why this plan: %L1 ms against %L2 ms for %3 on %4: %5 (%6), %7.")
                       .arg(best.stepSeconds() * 1e3, 0, 'f', 1)
                       .arg(expert.stepSeconds() * 1e3, 0, 'f', 1)
                       .arg(SearchResultsModel::planLabel(expert), QString::fromStdString(expert.meshText), speed,
                            parts.join(QStringLiteral(", ")), memoryText);
    if (withinModelError(best, expert))
        text += u' ' + tr("The difference is within the cost model's validated error (median %L1 %): the model does "
                          "not tell these two plans apart; measure both before choosing.")
                           .arg(kValidatedMedianError * 100, 0, 'f', 1);
    return text;
}

}  // namespace tapestry
