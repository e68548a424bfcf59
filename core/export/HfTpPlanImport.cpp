#include "export/HfTpPlanImport.h"

#include "base/Error.h"
#include "base/TextPosition.h"
#include "base/JsonReader.h"
#include "graph/Graph.h"
#include "plan/ExpertPlans.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace tapestry {

namespace {

// A Python dict literal of string keys and string values.
class PythonDictReader {
public:
    PythonDictReader(std::string_view text, const std::string& fileName) : text_(text), fileName_(fileName) {}

    std::vector<HfTpPlanEntry> read()
    {
        skipToBrace();
        expect('{');
        std::vector<HfTpPlanEntry> entries;
        while (true) {
            skipSpace();
            if (peek() == '}')
                break;
            HfTpPlanEntry entry;
            entry.pattern = readString("a module pattern in quotes");
            skipSpace();
            expect(':');
            skipSpace();
            entry.style = readString("a style name in quotes, such as 'colwise'");
            entries.push_back(std::move(entry));
            skipSpace();
            if (peek() != ',')
                break;
            ++at_;
        }
        skipSpace();
        expect('}');
        return entries;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, lineAndColumn(text_, at_) + ": " + what);
    }

    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

    void skipComment()
    {
        while (at_ < text_.size() && text_[at_] != '\n')
            ++at_;
    }

    void skipSpace()
    {
        while (at_ < text_.size()) {
            if (text_[at_] == '#')
                skipComment();
            else if (std::isspace(static_cast<unsigned char>(text_[at_])))
                ++at_;
            else
                return;
        }
    }

    void skipToBrace()
    {
        while (at_ < text_.size() && text_[at_] != '{') {
            if (text_[at_] == '#')
                skipComment();
            else
                ++at_;
        }
        if (at_ == text_.size())  // the file as a whole is of no kind import-plan reads
            throw Error(ErrorCode::InvalidPlan, fileName_,
                        "has no dict: it is neither a Hugging Face tp_plan ({'model.layers.*.mlp.up_proj': "
                        "'colwise', ...}) nor a torchtitan config (PARALLELISM = {...}) nor a PyTorch export "
                        "(export --format pytorch)");
    }

    void expect(char c)
    {
        if (peek() != c)
            fail(std::string("expected '") + c + "'");
        ++at_;
    }

    std::string readString(const char* what)
    {
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            fail(std::string("expected ") + what);
        ++at_;
        std::string value;
        while (at_ < text_.size() && text_[at_] != quote && text_[at_] != '\n') {
            if (text_[at_] == '\\' && at_ + 1 < text_.size())
                ++at_;
            value += text_[at_++];
        }
        if (peek() != quote)
            fail("unterminated string");
        ++at_;
        return value;
    }

    std::string_view text_;
    const std::string& fileName_;
    std::size_t at_ = 0;
};

bool isJsonObjectOfStrings(const JsonValue& value)
{
    return value.isObject() && std::all_of(value.asObject().begin(), value.asObject().end(),
                                           [](const auto& member) { return member.second.isString(); });
}

std::vector<std::string> splitPath(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

bool matchesFrom(const std::vector<std::string>& pattern, const std::vector<std::string>& path, std::size_t offset)
{
    if (path.size() != pattern.size() + offset)
        return false;
    for (std::size_t i = 0; i < pattern.size(); ++i)
        if (pattern[i] != "*" && pattern[i] != path[i + offset])
            return false;
    return true;
}

// Whole-model path, or relative to the base model (the first component dropped).
bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path)
{
    return matchesFrom(pattern, path, 0) || matchesFrom(pattern, path, 1);
}

enum class StyleKind : std::uint8_t { Colwise, Rowwise, EmbeddingRowwise, EmbeddingColwise, SequenceParallel };

std::optional<StyleKind> styleKind(const std::string& style)
{
    static const std::map<std::string, StyleKind, std::less<>> styles = {
        {"colwise", StyleKind::Colwise},
        {"colwise_rep", StyleKind::Colwise},
        {"colwise_gather_output", StyleKind::Colwise},
        {"local_colwise", StyleKind::Colwise},
        {"packed_colwise", StyleKind::Colwise},
        {"rowwise", StyleKind::Rowwise},
        {"rowwise_rep", StyleKind::Rowwise},
        {"rowwise_split_input", StyleKind::Rowwise},
        {"local_rowwise", StyleKind::Rowwise},
        {"packed_rowwise", StyleKind::Rowwise},
        {"local_packed_rowwise", StyleKind::Rowwise},
        {"embedding_rowwise", StyleKind::EmbeddingRowwise},
        {"embedding_colwise", StyleKind::EmbeddingColwise},
        {"sequence_parallel", StyleKind::SequenceParallel},
    };
    const auto found = styles.find(style);
    return found == styles.end() ? std::nullopt : std::optional(found->second);
}

// The split a style gives a node of `kind`, or nothing when the style does not apply.
std::optional<AxisSplit> splitFor(StyleKind style, CoarseNodeKind kind)
{
    if (kind == CoarseNodeKind::Linear && style == StyleKind::Colwise)
        return AxisSplit::Column;
    if (kind == CoarseNodeKind::Linear && style == StyleKind::Rowwise)
        return AxisSplit::Row;
    if (kind == CoarseNodeKind::Embedding && (style == StyleKind::EmbeddingRowwise || style == StyleKind::Rowwise))
        return AxisSplit::Row;
    if (kind == CoarseNodeKind::Embedding && (style == StyleKind::EmbeddingColwise || style == StyleKind::Colwise))
        return AxisSplit::Column;
    return std::nullopt;
}

// "model.layers.*.mlp.fc": indices become "*" so that warnings name a module once.
std::string indexFree(const std::vector<std::string>& path)
{
    std::string text;
    for (const std::string& part : path) {
        const bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
        text += (text.empty() ? "" : ".") + (index ? std::string("*") : part);
    }
    return text;
}

}  // namespace

bool isHfTpPlan(std::string_view text)
{
    try {
        return isJsonObjectOfStrings(parseJson(text, {}));
    } catch (const Error&) {
        // Not JSON: a Python dict literal is the other form a tp_plan takes; a broken
        // Tapestry plan (it names its schema) is not one, and gets the plan's errors.
        return text.find('{') != std::string_view::npos && text.find("\"schema_version\"") == std::string_view::npos;
    }
}

std::vector<HfTpPlanEntry> parseHfTpPlan(std::string_view text, const std::string& fileName)
{
    JsonValue json;
    try {
        json = parseJson(text, fileName);
    } catch (const Error&) {
        return PythonDictReader(text, fileName).read();
    }
    if (!isJsonObjectOfStrings(json))
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "is not a tp_plan: expected a JSON object of module patterns to style names");
    std::vector<HfTpPlanEntry> entries;
    for (const auto& [pattern, style] : json.asObject())
        entries.push_back({pattern, style.asString()});
    return entries;
}

ImportedPlan planFromHfTpPlan(const std::vector<HfTpPlanEntry>& entries, const Graph& graph,
                              const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh)
{
    if (mesh.empty())
        throw Error(ErrorCode::InvalidMesh, {}, "a tp_plan needs a mesh with a tensor-parallel axis");
    ImportedPlan result;
    std::vector<std::optional<StyleKind>> styles;
    std::vector<std::vector<std::string>> patterns;
    for (const HfTpPlanEntry& entry : entries) {
        styles.push_back(styleKind(entry.style));
        patterns.push_back(splitPath(entry.pattern));
        if (!styles.back())
            result.warnings.push_back("style '" + entry.style + "' of '" + entry.pattern +
                                      "' is not a split Tapestry plans; ignored");
    }

    std::vector<std::optional<AxisSplit>> anchorSplits(coarse.nodes.size());
    std::vector<bool> used(entries.size(), false);
    bool sequenceParallel = false;
    std::map<std::string, std::size_t> linearsLeftOut;  // index-free path -> count
    for (const CoarseNode& node : coarse.nodes) {
        const bool candidate = node.kind == CoarseNodeKind::Linear || node.kind == CoarseNodeKind::Embedding ||
                               node.kind == CoarseNodeKind::Normalization;
        if (!candidate)
            continue;
        const ScopePath& scope = node.anchor.isValid() ? graph.op(node.anchor).scope : node.scope;
        const std::vector<std::string> path = splitPath(scope.toModulePath());
        std::optional<std::size_t> decided;
        for (std::size_t i = 0; i < entries.size() && !decided; ++i)
            if (styles[i] && matches(patterns[i], path))
                decided = i;
        if (!decided) {
            if (node.kind == CoarseNodeKind::Linear)
                ++linearsLeftOut[indexFree(path)];
            continue;
        }
        used[*decided] = true;
        const StyleKind style = *styles[*decided];
        if (node.kind == CoarseNodeKind::Normalization && style == StyleKind::SequenceParallel) {
            sequenceParallel = true;
        } else if (const std::optional<AxisSplit> split = splitFor(style, node.kind)) {
            anchorSplits[node.id.index()] = split;
        } else {
            result.warnings.push_back("'" + entries[*decided].pattern + "' gives " + coarseNodeKindName(node.kind) +
                                      " module '" + scope.toModulePath() + "' the style '" + entries[*decided].style +
                                      "', which does not apply to it; replicated");
        }
    }
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (styles[i] && !used[i])
            result.warnings.push_back("pattern '" + entries[i].pattern + "' matches no module of the model");
    for (const auto& [path, count] : linearsLeftOut)
        result.warnings.push_back("Linear module '" + path + "'" +
                                  (count > 1 ? " (" + std::to_string(count) + " modules)" : std::string()) +
                                  " is not in the tp_plan: replicated on '" + mesh.back().name + "'");

    result.plan = makeTensorParallelPlan(coarse, mesh, anchorSplits, sequenceParallel);
    result.plan.name = "hf-tp-plan";
    result.plan.origin = PlanOrigin::Import;
    return result;
}

}  // namespace tapestry
