#include "cli/SearchProgressBar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace tapestry::cli {

namespace {

constexpr std::size_t kBarWidth = 10;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
// Carriage return and "erase to the end of the line".
constexpr const char* kEraseLine = "\r\033[K";

std::size_t terminalColumns(std::FILE* stream)
{
    winsize size{};
    if (ioctl(fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return size.ws_col;
    return 80;
}

}  // namespace

SearchProgressBar::SearchProgressBar(std::FILE* stream) : stream_(stream) {}

SearchProgressBar::~SearchProgressBar()
{
    clear();
}

bool SearchProgressBar::isTerminal(std::FILE* stream)
{
    return isatty(fileno(stream)) != 0;
}

void SearchProgressBar::line(const std::string& text)
{
    std::fprintf(stream_, "%s%s\n", shown_ ? kEraseLine : "", text.c_str());
    shown_ = false;
    draw();
}

void SearchProgressBar::setFraction(double fraction)
{
    fraction_ = std::clamp(fraction, 0.0, 1.0);
    if (std::chrono::steady_clock::now() - drawn_ >= kRedrawInterval)
        draw();
}

void SearchProgressBar::setSearched(std::size_t searched, std::size_t meshes, const std::string& best)
{
    if (searched == searched_ && meshes == meshes_ && best == best_)
        return;
    searched_ = searched;
    meshes_ = meshes;
    best_ = best;
    draw();
}

void SearchProgressBar::clear()
{
    if (shown_)
        std::fputs(kEraseLine, stream_);
    std::fflush(stream_);
    shown_ = false;
}

void SearchProgressBar::draw()
{
    const auto filled = static_cast<std::size_t>(std::lround(fraction_ * kBarWidth));
    std::string text(1, '[');
    text.append(filled, '#');
    text.append(kBarWidth - filled, '.');
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "] %3.0f %%", fraction_ * 100);
    text += numbers;
    if (meshes_ > 1) {
        std::snprintf(numbers, sizeof numbers, "  %zu of %zu meshes left", meshes_ - std::min(searched_, meshes_),
                      meshes_);
        text += numbers;
    }
    if (!best_.empty()) {
        text += meshes_ > 1 ? "; best " : "  best ";
        text += best_;
    }
    // One line only: a wrapped line would not be redrawn in place.
    text.resize(std::min(text.size(), terminalColumns(stream_) - 1));
    std::fprintf(stream_, "%s%s", kEraseLine, text.c_str());
    std::fflush(stream_);
    shown_ = true;
    drawn_ = std::chrono::steady_clock::now();
}

}  // namespace tapestry::cli
