<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ErrorText</name>
    <message>
        <source>The file does not exist.</source>
        <translation>文件不存在。</translation>
    </message>
    <message>
        <source>This is not a regular file; it may be a folder.</source>
        <translation>这不是普通文件，可能是一个文件夹。</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>文件为空。</translation>
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation>无法读取文件。</translation>
    </message>
    <message>
        <source>The file could not be written.</source>
        <translation>无法写入文件。</translation>
    </message>
    <message>
        <source>The file is not an ONNX model.</source>
        <translation>该文件不是 ONNX 模型。</translation>
    </message>
    <message>
        <source>The file ends too early; it may be incomplete or still downloading.</source>
        <translation>文件提前结束，可能不完整或仍在下载中。</translation>
    </message>
    <message>
        <source>The model uses an ONNX IR version that Tapestry does not support.</source>
        <translation>该模型使用了 Tapestry 不支持的 ONNX IR 版本。</translation>
    </message>
    <message>
        <source>The model is not a valid ONNX graph.</source>
        <translation>该模型不是有效的 ONNX 计算图。</translation>
    </message>
    <message>
        <source>The tensor shapes of the model could not be inferred.</source>
        <translation>无法推断模型的张量形状。</translation>
    </message>
    <message>
        <source>Some tensors that Tapestry needs have no known shape.</source>
        <translation>Tapestry 需要的部分张量没有已知形状。</translation>
    </message>
    <message>
        <source>An argument is not valid.</source>
        <translation>参数无效。</translation>
    </message>
    <message>
        <source>An unknown error occurred.</source>
        <translation>发生未知错误。</translation>
    </message>
    <message>
        <source>The file is not valid JSON.</source>
        <translation>该文件不是有效的 JSON。</translation>
    </message>
    <message>
        <source>The cluster description is not valid.</source>
        <translation>集群描述无效。</translation>
    </message>
    <message>
        <source>The device mesh is not valid.</source>
        <translation>设备网格无效。</translation>
    </message>
    <message>
        <source>The file is not an nccl-tests log that Tapestry can read.</source>
        <translation>该文件不是 Tapestry 能读取的 nccl-tests 日志。</translation>
    </message>
    <message>
        <source>The plan does not fit this model or mesh.</source>
        <translation>该方案与此模型或设备网格不匹配。</translation>
    </message>
    <message>
        <source>The file is not a valid sharding problem.</source>
        <translation>该文件不是有效的切分问题。</translation>
    </message>
    <message>
        <source>No choice of strategies fits the memory limit; the problem has no solution.</source>
        <translation>没有任何策略组合能满足内存限制；该问题无解。</translation>
    </message>
    <message>
        <source>The file is not a Tapestry history database, or it is damaged. It was left unchanged.</source>
        <translation>该文件不是 Tapestry 历史数据库，或已损坏。文件未被修改。</translation>
    </message>
    <message>
        <source>The history database is busy: another Tapestry window or command is writing to it.</source>
        <translation>历史数据库正忙：另一个 Tapestry 窗口或命令正在写入。</translation>
    </message>
    <message>
        <source>The history database is read-only.</source>
        <translation>历史数据库是只读的。</translation>
    </message>
    <message>
        <source>The history database was written by a newer Tapestry. It was left unchanged.</source>
        <translation>历史数据库由更新版本的 Tapestry 写入。文件未被修改。</translation>
    </message>
    <message>
        <source>The history has no such run or plan.</source>
        <translation>历史中没有这个运行或方案。</translation>
    </message>
    <message>
        <source>Other plans were derived from this plan.</source>
        <translation>有其他方案是从这个方案派生的。</translation>
    </message>
</context>
<context>
    <name>GraphNodeDetails</name>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>weight %1</source>
        <translation>权重 %1</translation>
    </message>
    <message>
        <source>Anchor</source>
        <translation>锚点</translation>
    </message>
    <message>
        <source>… and %L1 more ops</source>
        <translation>… 以及另外 %L1 个算子</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>First</source>
        <translation>第一个</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最后一个</translation>
    </message>
    <message>
        <source>Coarse nodes each</source>
        <translation>每个实例的粗粒度节点</translation>
    </message>
    <message>
        <source>Anchors</source>
        <translation>锚点</translation>
    </message>
    <message>
        <source>Near misses</source>
        <translation>近似但不相同的块</translation>
    </message>
    <message>
        <source>Double-click to expand the representative block.</source>
        <translation>双击展开代表块。</translation>
    </message>
    <message>
        <source>Direct ops</source>
        <translation>直接算子</translation>
    </message>
    <message>
        <source>Child scopes</source>
        <translation>子作用域</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Double-click to expand.</source>
        <translation>双击展开。</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
</context>
<context>
    <name>GraphViewContent</name>
    <message>
        <source>→ %1 more consumers</source>
        <translation>→ 另有 %1 个使用者</translation>
    </message>
    <message>
        <source>%1
1 op</source>
        <translation>%1
1 个算子</translation>
    </message>
    <message>
        <source>%1
%L2 ops</source>
        <translation>%1
%L2 个算子</translation>
    </message>
    <message>
        <source>%1
%2 anchors, %3 ops each</source>
        <translation>%1
%2 个锚点，每个 %3 个算子</translation>
    </message>
</context>
<context>
    <name>QuantityFormat</name>
    <message>
        <source>%1 K</source>
        <comment>thousand, as in a parameter count</comment>
        <translation>%1 千</translation>
    </message>
    <message>
        <source>%1 M</source>
        <comment>million, as in a parameter count</comment>
        <translation>%1 百万</translation>
    </message>
    <message>
        <source>%1 B</source>
        <comment>billion, as in a parameter count (8.03 B parameters)</comment>
        <translation>%1 十亿</translation>
    </message>
    <message>
        <source>%1 T</source>
        <comment>trillion, as in a parameter count</comment>
        <translation>%1 万亿</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 kB</source>
        <translation>%1 kB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 TB</source>
        <translation>%1 TB</translation>
    </message>
</context>
<context>
    <name>StartupOptions</name>
    <message>
        <source>Plans tensor and data parallelism for large neural networks.</source>
        <translation>为大型神经网络规划张量并行与数据并行。</translation>
    </message>
    <message>
        <source>ONNX model file to open.</source>
        <translation>要打开的 ONNX 模型文件。</translation>
    </message>
    <message>
        <source>[model.onnx]</source>
        <translation>[模型.onnx]</translation>
    </message>
    <message>
        <source>Save a PNG image of the main window to &lt;file&gt; once the model has loaded, then quit.</source>
        <translation>模型加载完成后，将主窗口保存为 PNG 图像 &lt;文件&gt;，然后退出。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Graph view to show first: scope, coarse or folded (the default).</source>
        <translation>首先显示的图视图：scope、coarse 或 folded（默认）。</translation>
    </message>
    <message>
        <source>view</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Unknown view &apos;%1&apos;: use scope, coarse or folded.</source>
        <translation>未知视图“%1”：请使用 scope、coarse 或 folded。</translation>
    </message>
</context>
<context>
    <name>Translations</name>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>tapestry::GraphViewPane</name>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性层</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>Batched MatMul</source>
        <translation>批量矩阵乘</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>Search by name…</source>
        <translation>按名称搜索…</translation>
    </message>
    <message>
        <source>Highlights matching boxes; Enter shows the next one.</source>
        <translation>高亮匹配的框；按回车显示下一个。</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+-)</source>
        <translation>缩小 (Ctrl+-)</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+=)</source>
        <translation>放大 (Ctrl+=)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Fit the graph to the view (F)</source>
        <translation>使图适应视图 (F)</translation>
    </message>
    <message>
        <source>Select a box to see its details. Double-click to expand or collapse it.</source>
        <translation>选择一个框以查看详情。双击可展开或折叠。</translation>
    </message>
    <message>
        <source>Show Folded View</source>
        <translation>显示折叠视图</translation>
    </message>
    <message>
        <source>Repeated block (×N instances)</source>
        <translation>重复块（×N 个实例）</translation>
    </message>
    <message>
        <source>The coarse graph has %L1 nodes: too many to lay out as a readable drawing. The folded view shows the same graph with each repeated block drawn once.</source>
        <translation>粗粒度图有 %L1 个节点，太多，无法布局成可读的图。折叠视图显示同一个图，每个重复块只画一次。</translation>
    </message>
    <message>
        <source>%L1 coarse nodes</source>
        <translation>%L1 个粗粒度节点</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Collapse Block</source>
        <translation>折叠块</translation>
    </message>
    <message>
        <source>Collapse Scope</source>
        <translation>折叠作用域</translation>
    </message>
    <message>
        <source>Laying out %L1 nodes…</source>
        <translation>正在布局 %L1 个节点…</translation>
    </message>
    <message>
        <source>The graph could not be laid out: %1
%2</source>
        <translation>无法对该图进行布局：%1
%2</translation>
    </message>
    <message>
        <source>%L1 boxes, laid out in %L2 ms</source>
        <translation>%L1 个框，布局用时 %L2 毫秒</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%L1 matches</source>
        <translation>%L1 个匹配</translation>
    </message>
</context>
<context>
    <name>tapestry::GraphViewsPanel</name>
    <message>
        <source>Original (by scope)</source>
        <translation>原始（按作用域）</translation>
    </message>
    <message>
        <source>Coarse</source>
        <translation>粗粒度</translation>
    </message>
    <message>
        <source>Folded</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Every op, grouped by module scope</source>
        <translation>所有算子，按模块作用域分组</translation>
    </message>
    <message>
        <source>Ops grouped into layer-like nodes</source>
        <translation>算子按层分组为节点</translation>
    </message>
    <message>
        <source>Repeated blocks drawn once, with their count</source>
        <translation>重复块只画一次，并标出数量</translation>
    </message>
    <message>
        <source>Folding the model…</source>
        <translation>正在折叠模型…</translation>
    </message>
    <message>
        <source>The model could not be folded: %1</source>
        <translation>无法折叠该模型：%1</translation>
    </message>
</context>
<context>
    <name>tapestry::MainWindow</name>
    <message>
        <source>Tapestry</source>
        <translation>Tapestry</translation>
    </message>
    <message>
        <source>Open an ONNX model with File &gt; Open, or drop an .onnx file here.</source>
        <translation>请通过“文件 &gt; 打开”打开 ONNX 模型，或将 .onnx 文件拖放到此处。</translation>
    </message>
    <message>
        <source>Module scopes</source>
        <translation>模块作用域</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Tapestry</source>
        <translation>关于 Tapestry(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Takes effect when Tapestry starts again</source>
        <translation>重新启动 Tapestry 后生效</translation>
    </message>
    <message>
        <source>The new language takes effect when Tapestry starts again.</source>
        <translation>新语言将在重新启动 Tapestry 后生效。</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX 模型 (*.onnx);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清除菜单(&amp;C)</translation>
    </message>
    <message>
        <source>About Tapestry</source>
        <translation>关于 Tapestry</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>%1 — Tapestry</source>
        <translation>%1 — Tapestry</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Could Not Open Model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tapestry %1&lt;/h3&gt;&lt;p&gt;A plan explorer for tensor- and data-parallel training of large neural networks.&lt;/p&gt;&lt;p&gt;Open an ONNX model to see its size, its inputs and outputs, the op types it is made of and its module hierarchy.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tapestry %1&lt;/h3&gt;&lt;p&gt;用于大型神经网络张量并行与数据并行训练的方案浏览器。&lt;/p&gt;&lt;p&gt;打开一个 ONNX 模型，即可查看其规模、输入与输出、组成它的算子类型以及模块层次结构。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>tapestry::ModelLoader</name>
    <message>
        <source>The import stopped with an unexpected error.</source>
        <translation>导入因意外错误而中止。</translation>
    </message>
</context>
<context>
    <name>tapestry::ModelSummaryView</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Producer:</source>
        <translation>生成工具：</translation>
    </message>
    <message>
        <source>Graph:</source>
        <translation>计算图：</translation>
    </message>
    <message>
        <source>ONNX IR version:</source>
        <translation>ONNX IR 版本：</translation>
    </message>
    <message>
        <source>Opsets:</source>
        <translation>算子集：</translation>
    </message>
    <message>
        <source>Shapes:</source>
        <translation>形状：</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数量：</translation>
    </message>
    <message>
        <source>Weight memory:</source>
        <translation>权重内存：</translation>
    </message>
    <message>
        <source>Weight tensors:</source>
        <translation>权重张量：</translation>
    </message>
    <message>
        <source>Ops:</source>
        <translation>算子数：</translation>
    </message>
    <message>
        <source>Tensors:</source>
        <translation>张量数：</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Graph inputs and outputs</source>
        <translation>计算图的输入与输出</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>inferred by ONNX shape inference</source>
        <translation>由 ONNX 形状推断得出</translation>
    </message>
    <message>
        <source>recorded in the file</source>
        <translation>记录在文件中</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>%1 bytes at the stored data types</source>
        <translation>按存储的数据类型计 %1 字节</translation>
    </message>
    <message>
        <source>Inputs (%1)</source>
        <translation>输入（%1）</translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>输出（%1）</translation>
    </message>
</context>
<context>
    <name>tapestry::OpHistogramModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
</context>
<context>
    <name>tapestry::ScopeTreeModel</name>
    <message>
        <source>(whole graph)</source>
        <translation>（整个计算图）</translation>
    </message>
    <message>
        <source>All ops of the model. Its direct ops are the ops that belong to no module scope.</source>
        <translation>模型的全部算子。其直接算子是不属于任何模块作用域的算子。</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Direct ops</source>
        <translation>直接算子</translation>
    </message>
    <message>
        <source>Module scope, as the exporter named it</source>
        <translation>模块作用域，名称取自导出工具</translation>
    </message>
    <message>
        <source>Ops in this scope and everything below it</source>
        <translation>此作用域及其所有子作用域中的算子</translation>
    </message>
    <message>
        <source>Ops in this scope itself, not in a child scope</source>
        <translation>直接位于此作用域、不在子作用域中的算子</translation>
    </message>
</context>
</TS>
