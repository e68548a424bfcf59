// `tapestry-cli import-plan FILE --model MODEL [--mesh AxB] -o plan.json`
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/TextFile.h"
#include "cluster/Cluster.h"
#include "export/HfTpPlanImport.h"
#include "graph/ModelFingerprint.h"
#include "plan/PlanFile.h"

#include <cstdio>

namespace tapestry::cli {

namespace {

constexpr const char* kUsage = "usage: tapestry-cli import-plan FILE --model MODEL [--mesh AxB] [--axes dp,tp] -o PLAN.json\n"
                               "       FILE: a Tapestry plan (JSON) or a Hugging Face tp_plan (JSON object or .py dict)";

}  // namespace

int runImportPlan(const std::vector<std::string>& args)
{
    const CommandLine line(args, {});
    line.rejectUnknown({"model", "mesh", "axes", "output"});
    const auto modelFile = line.option("model");
    const auto output = line.option("output");
    if (line.positionals().size() != 1 || !modelFile || !output)
        throw Error(ErrorCode::InvalidArgument, {}, kUsage);

    const FoldedModel model = loadAndFold(*modelFile);
    const std::string& file = line.positionals().front();
    const std::string text = readTextFile(file);
    PlanDocument document;
    if (file.ends_with(".py") || isHfTpPlan(text)) {
        if (!line.option("mesh"))
            throw Error(ErrorCode::InvalidArgument, {},
                        "a tp_plan does not say its mesh: give --mesh AxB (tensor parallel on the last axis)");
        ImportedPlan imported =
            planFromHfTpPlan(parseHfTpPlan(text, file), model.graph(), model.coarse, meshAxesFromOptions(line, Cluster{}));
        for (const std::string& warning : imported.warnings)
            std::fprintf(stderr, "tapestry-cli import-plan: warning: %s\n", warning.c_str());
        document.plan = std::move(imported.plan);
        document.modelFingerprint = modelFingerprint(model.graph());
    } else {
        document = planFromJson(text, file, model.coarse, model.families);
        if (line.option("mesh") && meshAxesFromOptions(line, Cluster{}) != document.plan.mesh)
            throw Error(ErrorCode::InvalidPlan, file, "was made for another mesh than --mesh " + *line.option("mesh"));
    }
    validatePlan(document.plan, model.coarse);
    savePlanFile(*output, document, model.coarse, model.families);
    std::printf("wrote %s (plan '%s' on %zu coarse nodes)\n", output->c_str(), document.plan.name.c_str(),
                document.plan.strategies.size());
    return 0;
}

}  // namespace tapestry::cli
