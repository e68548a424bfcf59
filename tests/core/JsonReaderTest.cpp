// The JSON reader (nlohmann-json's SAX parser under JsonValue): exact 64-bit integers,
// duplicate keys found in linear time, errors that name the line and column.
#include "base/Error.h"
#include "base/JsonReader.h"
#include "iopddl/IopddlReader.h"
#include "solver/SolutionEvaluator.h"

#include <QTest>

using namespace tapestry;

namespace {

std::string errorText(const std::string& json)
{
    try {
        (void)parseJson(json, "t.json");
    } catch (const Error& error) {
        return error.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// {"k0": 0, "k1": 1, ...}: a tp_plan's size; `last` is the final key.
std::string manyKeys(std::size_t count, const std::string& last)
{
    std::string json = "{";
    for (std::size_t i = 0; i + 1 < count; ++i)
        json += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    return json + "\"" + last + "\": -1}";
}

}  // namespace

class JsonReaderTest : public QObject {
    Q_OBJECT

private slots:
    void integersAbove2To53StayExact()
    {
        const JsonValue v = parseJson(
            "[9007199254740993, -9223372036854775808, 9223372036854775807, 18446744073709551615, 1e3, 2.5, 1e19]",
            "t.json");
        const JsonValue::Array& a = v.asArray();
        // 2^53 + 1 is not a double: read as one it would be 2^53.
        QCOMPARE(a[0].asInteger(), std::optional<std::int64_t>(9007199254740993));
        QCOMPARE(a[1].asInteger(), std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::min()));
        QCOMPARE(a[2].asInteger(), std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::max()));
        QCOMPARE(a[3].asInteger(), std::nullopt);  // beyond int64
        QCOMPARE(a[3].asNumber(), 18446744073709551615.0);
        QCOMPARE(a[4].asInteger(), std::optional<std::int64_t>(1000));
        QCOMPARE(a[5].asInteger(), std::nullopt);
        QCOMPARE(a[5].asNumber(), 2.5);
        QCOMPARE(a[6].asInteger(), std::nullopt);
    }

    // The campaign's case: a cost of 2^53 + 1 on one of two nodes was rounded, and the
    // problem's total was off by one.
    void iopddlCostAbove2To53SumsExactly()
    {
        const ShardingProblem problem = parseIopddl(R"({"problem": {
            "nodes": {"intervals": [[0, 1], [0, 1]], "costs": [[9007199254740993], [1, 2]], "usages": [[0], [0, 0]]},
            "edges": {"nodes": [[0, 1]], "costs": [[0, 5]]}}})",
                                                    "two.json");
        QCOMPARE(problem.nodes[0].costs[0], std::int64_t{9007199254740993});
        const SolutionEvaluation evaluation = evaluateSolution(problem, {0, 0});
        QCOMPARE(costToString(evaluation.cost), std::string("9007199254740994"));
    }

    void manyKeysLoadAndDuplicatesAreFound()
    {
        // 200k keys took over a minute with a check against every earlier key.
        const JsonValue v = parseJson(manyKeys(200'000, "last"), "plan.json");
        QCOMPARE(v.asObject().size(), std::size_t{200'000});
        QCOMPARE(v.asObject()[123'456].first, std::string("k123456"));
        QCOMPARE(v.asObject()[123'456].second.asInteger(), std::optional<std::int64_t>(123'456));
        QCOMPARE(v.find("last")->asInteger(), std::optional<std::int64_t>(-1));

        const std::string duplicate = errorText(manyKeys(200'000, "k199998"));
        QVERIFY2(contains(duplicate, "duplicate member \"k199998\""), duplicate.c_str());
        // Small objects check with each member: still found.
        QVERIFY(contains(errorText(R"({"a": 1, "b": 2, "a": 3})"), "line 1, column 18: duplicate member \"a\""));
    }

    void syntaxErrorsNameTheFileLineAndColumn()
    {
        const std::string trailing = errorText("{}\n x");
        QVERIFY2(contains(trailing, "t.json") && contains(trailing, "line 2, column 2"), trailing.c_str());
        QVERIFY(contains(errorText("[01]"), "line 1, column 3"));
        QVERIFY(contains(errorText(""), "line 1, column 1"));
        QVERIFY(contains(errorText("[1e400]"), "line 1, column 6: number overflow"));
        QVERIFY(contains(errorText(std::string(1000, '[')), "nesting is deeper than 256 levels"));
        QVERIFY(contains(errorText(std::string(256, '[') + std::string(256, ']')), "no error"));
        // Ill-formed UTF-8 (a lone continuation byte) in a name.
        QVERIFY(contains(errorText("{\"a\x80\": 1}"), "line 1, column"));
        QVERIFY(contains(errorText("{\"a\": 1,, }"), "line 1, column 9"));
    }

    void escapesAreDecoded()
    {
        const JsonValue v = parseJson(R"({"a": [1, -2.5e3, true, null], "s": "x\u00e9\ud83d\ude00\n"})", "t.json");
        QCOMPARE(v.find("a")->asArray().at(1).asNumber(), -2500.0);
        QVERIFY(v.find("a")->asArray().at(3).isNull());
        QCOMPARE(v.find("s")->asString(), std::string("x\xc3\xa9\xf0\x9f\x98\x80\n"));
        QVERIFY(contains(errorText(R"(["\ud800"])"), "line 1"));  // unpaired surrogate
    }
};

QTEST_GUILESS_MAIN(JsonReaderTest)
#include "JsonReaderTest.moc"
