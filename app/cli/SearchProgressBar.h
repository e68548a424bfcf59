#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace tapestry::cli {

// The last line of a terminal while a search runs, redrawn in place:
//   [####......]  38 %  9 of 14 meshes left; best 225.7 ms on dp=2,tp=8
// Lines the search prints meanwhile go above it (line()). Only for a terminal: the
// caller asks isTerminal() first and prints plain lines otherwise.
class SearchProgressBar {
public:
    explicit SearchProgressBar(std::FILE* stream);
    // Clears the bar, so that what follows starts on a clean line.
    ~SearchProgressBar();
    SearchProgressBar(const SearchProgressBar&) = delete;
    SearchProgressBar& operator=(const SearchProgressBar&) = delete;

    [[nodiscard]] static bool isTerminal(std::FILE* stream);

    // Prints `text` (without its newline) above the bar.
    void line(const std::string& text);
    // The whole search's fraction in [0, 1]; redrawn at most ten times a second.
    void setFraction(double fraction);
    // Meshes searched to the end of all `meshes` the search searches (as its snapshots
    // say: the setup's less pipelines longer than the model), and the best plan so far
    // ("225.7 ms on dp=2,tp=8"; empty: none yet); redrawn at once.
    void setSearched(std::size_t searched, std::size_t meshes, const std::string& best);
    // Removes the bar from the terminal.
    void clear();

private:
    void draw();

    std::FILE* stream_;
    std::size_t meshes_ = 0;  // 0: not known yet
    std::size_t searched_ = 0;
    double fraction_ = 0;
    std::string best_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point drawn_;
};

}  // namespace tapestry::cli
