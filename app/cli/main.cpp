// tapestry-cli: every step of Tapestry, headless.
#include "cli/Commands.h"

#include "base/Error.h"

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: tapestry-cli COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  inspect FILE [--json] [--scope-depth N]\n"
    "      describe an ONNX model: producer, IR and opsets, op histogram,\n"
    "      parameters, inputs and outputs, the top of its module scope tree\n"
    "  fold FILE [--json] [--dot OUT.dot]\n"
    "      fold the model to its repeated blocks (TAP): families with their\n"
    "      multiplicity and anchors, the fold ratio; --dot writes the folded graph\n"
    "  evaluate MODEL --cluster NAME|FILE.json [--nodes N] --mesh AxB [--axes dp,tp]\n"
    "           --plan dp|megatron|megatron-sp [--batch N --seq L] [--zero1] [--json]\n"
    "      price a plan for one training step: time per device by compute,\n"
    "      collective, mesh axis and link class; memory by category\n"
    "  solve FILE [--time-limit S] [--seed N] [--threads N] [--json]\n"
    "      choose one strategy per node of a sharding problem in the IOPDDL\n"
    "      contest format (JSON, plain or gzip) within the memory limit; progress\n"
    "      on stderr, the solution [s0, s1, ...] as the last line\n"
    "  search MODEL --cluster NAME --mesh AxB|auto [--batch N --seq L] [--pin NODE=SPLITS ...]\n"
    "           [--memory-limit GB] [--baseline] [--time-limit S] [--json] [-o PLAN.json]\n"
    "      find the fastest tensor/data-parallel plan that fits (TAP: each unique block\n"
    "      searched once); --baseline also solves the whole graph for comparison\n"
    "      (evaluate and search record their run and plans in the history: --history FILE,\n"
    "      default $TAPESTRY_HISTORY or $XDG_DATA_HOME/Tapestry/history.sqlite; --no-history)\n"
    "  history list|show ID|diff A B [--model MODEL]|tag ID TAG|delete ID [--force]|export ID -o PLAN.json\n"
    "      the runs and plans kept in the history: id, model, cluster, mesh, step time,\n"
    "      memory, origin, parent, stale; strategies of a plan; what changed between two\n"
    "      plans and by how much; tags; deletion (refused for parents without --force)\n"
    "  synth --preset NAME -o FILE [--layers N --hidden H --heads A ...]\n"
    "      write a reference architecture as ONNX (shapes only, no weights);\n"
    "      `tapestry-cli synth --list` shows the presets and size flags\n"
    "  export PLAN.json --model MODEL --format json|pytorch|hf|hf-python|onnx|dot|svg|png\n"
    "           [--view coarse|folded] [--hf-keys model|base] -o FILE\n"
    "      write a plan for a training stack: PyTorch DTensor (parallelize_module),\n"
    "      Hugging Face tp_plan (JSON or Python; keys of the whole or the base model),\n"
    "      the ONNX model with sharding annotations, or a picture of the graph\n"
    "  import-plan FILE --model MODEL [--mesh AxB] -o PLAN.json\n"
    "      read a Tapestry plan or a Hugging Face tp_plan (JSON or .py dict; needs\n"
    "      --mesh, tensor parallel on the last axis) into a plan file; warns about\n"
    "      patterns that match nothing and Linear modules the tp_plan leaves out\n"
    "\n"
    "exit status: 0 on success, 1 when the input is bad, 2 on a usage error\n";

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::string_view command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    try {
        if (command == "inspect")
            return tapestry::cli::runInspect(args);
        if (command == "evaluate")
            return tapestry::cli::runEvaluate(args, argv[0]);
        if (command == "search")
            return tapestry::cli::runSearch(args, argv[0]);
        if (command == "history")
            return tapestry::cli::runHistory(args);
        if (command == "fold")
            return tapestry::cli::runFold(args);
        if (command == "synth")
            return tapestry::cli::runSynth(args);
        if (command == "solve")
            return tapestry::cli::runSolve(args);
        if (command == "export")
            return tapestry::cli::runExport(args);
        if (command == "import-plan")
            return tapestry::cli::runImportPlan(args);
        if (command == "help" || command == "--help" || command == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        std::fprintf(stderr, "tapestry-cli: unknown command '%.*s'\n\n%s", static_cast<int>(command.size()),
                     command.data(), kUsage);
        return 2;
    } catch (const tapestry::Error& error) {
        std::fprintf(stderr, "tapestry-cli %.*s: error: %s\n", static_cast<int>(command.size()), command.data(),
                     error.what());
        return error.code() == tapestry::ErrorCode::InvalidArgument ? 2 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tapestry-cli %.*s: internal error: %s\n", static_cast<int>(command.size()),
                     command.data(), error.what());
        return 1;
    }
}
