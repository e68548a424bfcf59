#include "validation/SourceHoldout.h"

#include "base/Error.h"
#include "cluster/ClusterFile.h"

#include <algorithm>
#include <cmath>

namespace tapestry {

std::string publicationOf(const PublishedRun& run)
{
    return run.source.substr(0, run.source.find(" ("));
}

namespace {

// Each run's relative step error on `cluster`; a run that cannot be priced is left out.
void priceOn(const Cluster& cluster, const std::vector<const PublishedRun*>& runs, std::vector<std::string>* names,
             std::vector<double>& errors, std::size_t& skipped)
{
    for (const PublishedRun* run : runs) {
        const RunPrediction prediction = PreparedRun(*run).price(cluster);
        if (!prediction.skipped.empty()) {
            ++skipped;
            continue;
        }
        if (names)
            names->push_back(run->name);
        errors.push_back(relativeError(prediction.stepSeconds, run->measured.stepSeconds));
    }
}

ValidationSummary summaryOf(const std::vector<double>& errors, std::size_t skipped)
{
    std::vector<double> absolute;
    for (const double error : errors)
        absolute.push_back(std::abs(error));
    return summarizeErrors(std::move(absolute), skipped);
}

}  // namespace

std::vector<HeldOutSource> holdOutEachSource(
    const std::vector<PublishedRun>& runs, const std::filesystem::path& clusterPresets,
    const std::function<void(const std::string& source, const std::string& gpu)>& progress)
{
    std::vector<HeldOutSource> out;
    for (const PublishedRun& run : runs) {
        const std::string source = publicationOf(run);
        const bool seen = std::any_of(out.begin(), out.end(), [&](const HeldOutSource& s) {
            return s.source == source && s.gpu == run.hardware.gpu;
        });
        if (!seen) {
            HeldOutSource held;
            held.source = source;
            held.gpu = run.hardware.gpu;
            out.push_back(std::move(held));
        }
    }
    for (HeldOutSource& held : out) {
        std::vector<const PublishedRun*> own;
        std::vector<PublishedRun> others;
        for (const PublishedRun& run : runs) {
            if (run.hardware.gpu != held.gpu)
                continue;
            const std::string source = publicationOf(run);
            if (source == held.source) {
                own.push_back(&run);
                continue;
            }
            others.push_back(run);
            if (std::find(held.fittedOn.begin(), held.fittedOn.end(), source) == held.fittedOn.end())
                held.fittedOn.push_back(source);
        }
        held.fittedRuns = others.size();
        const std::string preset = clusterPresetForGpu(held.gpu);
        if (preset.empty()) {
            held.notHeldOut = "no cluster preset for GPU " + held.gpu;
            continue;
        }
        const Cluster cluster = loadClusterPreset(clusterPresets, preset);
        std::size_t skipped = 0;
        priceOn(cluster, own, &held.runNames, held.presetErrors, skipped);
        held.preset = summaryOf(held.presetErrors, skipped);
        if (others.empty()) {
            held.notHeldOut = "the only source of " + held.gpu + " runs: no other source's runs to fit " + preset +
                              "'s figures to";
            continue;
        }
        if (progress)
            progress(held.source, held.gpu);
        try {
            const CalibrationResult fit = calibrateCluster(cluster, others, "the other sources' " + held.gpu + " runs", {});
            held.fitted = fit.fitted;
            held.kept = fit.kept;
            skipped = 0;
            priceOn(fit.cluster, own, nullptr, held.heldOutErrors, skipped);
            held.heldOut = summaryOf(held.heldOutErrors, skipped);
        } catch (const Error& error) {
            if (error.code() != ErrorCode::CalibrationRefused)
                throw;
            held.notHeldOut = "the other sources' " + std::to_string(others.size()) + " " + held.gpu +
                              " runs constrain no figure (" + error.message() + ")";
        }
    }
    return out;
}

ValidationSummary pooledHeldOutErrors(const std::vector<HeldOutSource>& sources)
{
    std::vector<double> errors;
    std::size_t skipped = 0;
    for (const HeldOutSource& held : sources) {
        if (!held.notHeldOut.empty())
            continue;
        errors.insert(errors.end(), held.heldOutErrors.begin(), held.heldOutErrors.end());
        skipped += held.heldOut.skipped;
    }
    return summaryOf(errors, skipped);
}

}  // namespace tapestry
