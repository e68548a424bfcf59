#include "model/LoadedModel.h"
#include "model/ScopeTreeModel.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QTest>

using namespace tapestry;

// ScopeTreeModel over the scope tree of real imports: it passes Qt's model consistency
// checks, and its rows and op counts are those of the module hierarchy of the export.
class ScopeTreeModelTest : public QObject {
    Q_OBJECT

private:
    static std::shared_ptr<const LoadedModel> load(const char* file)
    {
        return LoadedModel::load(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/") + QLatin1String(file));
    }

    static QStringList childNames(const QAbstractItemModel& model, const QModelIndex& parent)
    {
        QStringList names;
        for (int row = 0; row < model.rowCount(parent); ++row)
            names << model.index(row, ScopeTreeModel::NameColumn, parent).data().toString();
        return names;
    }

    // The row under `parent` whose scope name is `name`; invalid when there is none.
    static QModelIndex child(const QAbstractItemModel& model, const QModelIndex& parent, const QString& name)
    {
        for (int row = 0; row < model.rowCount(parent); ++row) {
            const QModelIndex index = model.index(row, ScopeTreeModel::NameColumn, parent);
            if (index.data().toString() == name)
                return index;
        }
        return {};
    }

    static QString cell(const QModelIndex& nameIndex, ScopeTreeModel::Column column)
    {
        return nameIndex.siblingAtColumn(column).data().toString();
    }

private slots:
    void initTestCase()
    {
        // Counts are displayed with the locale's digit grouping.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void emptyModelHasNoRows()
    {
        ScopeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 3);
    }

    // llama.ts.stripped.onnx: a 4-layer TorchScript Llama, 549 ops. The exporter puts
    // 10 ops (constants and shape arithmetic) outside any module.
    void torchScriptLlamaHierarchy()
    {
        ScopeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setModel(load("llama.ts.stripped.onnx"));

        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, ScopeTreeModel::NameColumn);
        QCOMPARE(cell(root, ScopeTreeModel::TotalOpsColumn), QStringLiteral("549"));
        QCOMPARE(cell(root, ScopeTreeModel::DirectOpsColumn), QStringLiteral("10"));
        QCOMPARE(childNames(model, root), (QStringList{QStringLiteral("model"), QStringLiteral("lm_head")}));

        const QModelIndex llama = child(model, root, QStringLiteral("model"));
        QCOMPARE(childNames(model, llama),
                 (QStringList{QStringLiteral("embed_tokens"), QStringLiteral("rotary_emb"), QStringLiteral("layers.0"),
                              QStringLiteral("layers.1"), QStringLiteral("layers.2"), QStringLiteral("layers.3"),
                              QStringLiteral("norm")}));
        QCOMPARE(cell(llama, ScopeTreeModel::TotalOpsColumn), QStringLiteral("538"));
        QCOMPARE(llama.data(ScopeTreeModel::PathRole).toString(), QStringLiteral("model"));

        // Layers 1..3 have the same op counts; layer 0's self_attn has 4 ops more (89, not 85).
        const QModelIndex layer0 = child(model, llama, QStringLiteral("layers.0"));
        const QModelIndex layer3 = child(model, llama, QStringLiteral("layers.3"));
        QCOMPARE(cell(layer0, ScopeTreeModel::TotalOpsColumn), QStringLiteral("121"));
        QCOMPARE(cell(layer3, ScopeTreeModel::TotalOpsColumn), QStringLiteral("117"));
        QCOMPARE(layer3.data(ScopeTreeModel::PathRole).toString(), QStringLiteral("model/layers.3"));
        QCOMPARE(childNames(model, layer3),
                 (QStringList{QStringLiteral("input_layernorm"), QStringLiteral("self_attn"),
                              QStringLiteral("post_attention_layernorm"), QStringLiteral("mlp")}));
        QCOMPARE(cell(child(model, layer0, QStringLiteral("self_attn")), ScopeTreeModel::TotalOpsColumn),
                 QStringLiteral("89"));
        QCOMPARE(cell(child(model, layer3, QStringLiteral("self_attn")), ScopeTreeModel::TotalOpsColumn),
                 QStringLiteral("85"));
        QCOMPARE(model.parent(layer3), llama);

        // Totals add up: model's children 1 + 21 + 121 + 3 * 117 + 12 = 506, plus its own 32.
        const QModelIndex norm = child(model, llama, QStringLiteral("norm"));
        QCOMPARE(cell(norm, ScopeTreeModel::TotalOpsColumn), QStringLiteral("12"));
        QCOMPARE(cell(llama, ScopeTreeModel::DirectOpsColumn), QStringLiteral("32"));
    }

    // llama3_8b_shape (the bundled default): 32 decoder layers under "model", 2,191 ops.
    void dynamoLlama3Hierarchy()
    {
        ScopeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setModel(load("llama3_8b_shape.dynamo.stripped.onnx"));

        const QModelIndex root = model.index(0, ScopeTreeModel::NameColumn);
        QCOMPARE(cell(root, ScopeTreeModel::TotalOpsColumn), QStringLiteral("2,191"));
        const QModelIndex llama = child(model, root, QStringLiteral("model"));
        QCOMPARE(model.rowCount(llama), 1 + 32 + 1);  // embed_tokens, layers.0..31, norm
        QVERIFY(child(model, llama, QStringLiteral("layers.31")).isValid());
        QCOMPARE(cell(child(model, llama, QStringLiteral("layers.17")), ScopeTreeModel::TotalOpsColumn),
                 QStringLiteral("68"));
    }

    void replacingTheModelResets()
    {
        ScopeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setModel(load("llama.ts.stripped.onnx"));
        model.setModel(load("gpt2.ts.stripped.onnx"));
        QCOMPARE(model.rowCount(), 1);
        model.setModel(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(ScopeTreeModelTest)
#include "ScopeTreeModelTest.moc"
