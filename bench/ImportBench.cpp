// bench_import: how fast and how lean ONNX import is, on a real dynamo export and on
// a synthesized 96-layer GPT-3 175B (the overview's "under 1 s" target covers import +
// coarsen + prune of the latter). Time: min/median/max over several imports in this
// process. Peak memory: each case imported once more in a fresh child process (this
// executable re-run with --peak-rss), reporting its resident size before the import
// and its ru_maxrss after.
#include "graph/Graph.h"
#include "onnx/OnnxExporter.h"
#include "onnx/OnnxImporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

long maxRssKib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Resident now, from /proc (ru_maxrss before the import can be a start-up transient
// that hides the import's own peak).
long currentRssKib()
{
    long pages = 0;
    long resident = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(statm);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// Child mode: import once, print "<resident before> <peak after> <ops>" in KiB.
int measurePeakInThisProcess(const char* file)
{
    const long before = currentRssKib();
    const tapestry::Graph graph = tapestry::importOnnxModel(file);
    const long after = maxRssKib();
    std::printf("%ld %ld %zu\n", before, after, graph.opCount());
    return 0;
}

struct PeakRss {
    long beforeKib = 0;
    long afterKib = 0;
};

PeakRss measurePeakInChild(const fs::path& file)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string path = file.string();
    char* argv[] = {const_cast<char*>(self.c_str()), const_cast<char*>("--peak-rss"), const_cast<char*>(path.c_str()),
                    nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    PeakRss peak;
    if (spawned == 0) {
        std::string text;
        char buffer[256];
        ssize_t n = 0;
        while ((n = read(fds[0], buffer, sizeof buffer)) > 0)
            text.append(buffer, static_cast<std::size_t>(n));
        int status = 0;
        waitpid(pid, &status, 0);
        if (std::sscanf(text.c_str(), "%ld %ld", &peak.beforeKib, &peak.afterKib) != 2)
            peak = {};
    }
    close(fds[0]);
    return peak;
}

void benchCase(const char* label, const fs::path& file, int runs)
{
    std::vector<double> seconds;
    std::size_t ops = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        const tapestry::Graph graph = tapestry::importOnnxModel(file);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        ops = graph.opCount();
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    const PeakRss peak = measurePeakInChild(file);
    std::printf("%-28s %7zu ops %8.1f MB file | import min %7.1f ms  median %7.1f ms  max %7.1f ms | %9.0f ops/s | "
                "peak RSS %6.1f MB (+%.1f MB over resident before import)\n",
                label, ops, static_cast<double>(fs::file_size(file)) / 1e6, seconds.front() * 1e3, median * 1e3,
                seconds.back() * 1e3, static_cast<double>(ops) / median, static_cast<double>(peak.afterKib) / 1024.0,
                static_cast<double>(peak.afterKib - peak.beforeKib) / 1024.0);
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        if (argc == 3 && std::string(argv[1]) == "--peak-rss")
            return measurePeakInThisProcess(argv[2]);
        int runs = 7;
        if (argc == 3 && std::string(argv[1]) == "--runs")
            runs = std::max(1, std::atoi(argv[2]));
        else if (argc != 1) {
            std::fprintf(stderr, "usage: bench_import [--runs N]\n");
            return 2;
        }

        const fs::path dir = fs::temp_directory_path() / ("tapestry-bench-import-" + std::to_string(getpid()));
        fs::create_directories(dir);
        const fs::path gpt3 = dir / "gpt3-175b.onnx";
        const tapestry::SynthPreset* preset = tapestry::findSynthPreset("gpt3-175b");
        const auto start = Clock::now();
        tapestry::writeOnnxModel(tapestry::synthesizeModel(preset->spec, "gpt3-175b"), gpt3);
        std::printf("synthesized and wrote gpt3-175b in %.1f ms\n",
                    std::chrono::duration<double>(Clock::now() - start).count() * 1e3);

        benchCase("llama3_8b_shape.dynamo", fs::path(TAPESTRY_TEST_DATA_DIR) / "llama3_8b_shape.dynamo.stripped.onnx",
                  runs);
        benchCase("gpt3-175b (synth, 96 layers)", gpt3, runs);
        fs::remove_all(dir);
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_import: %s\n", error.what());
        return 1;
    }
}
