<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AxisScale</name>
    <message>
        <source>thousands</source>
        <translation>千</translation>
    </message>
    <message>
        <source>millions</source>
        <translation>百万</translation>
    </message>
    <message>
        <source>billions</source>
        <translation>十亿</translation>
    </message>
    <message>
        <source>trillions</source>
        <translation>万亿</translation>
    </message>
    <message>
        <source>quadrillions</source>
        <translation>千万亿</translation>
    </message>
    <message>
        <source>quintillions</source>
        <translation>百亿亿</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>an axis title: quantity (unit)</comment>
        <translation>%1（%2）</translation>
    </message>
</context>
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
        <source>The file is not a valid sharding problem.</source>
        <translation>该文件不是有效的切分问题。</translation>
    </message>
    <message>
        <source>The file is not a valid list of measured training runs.</source>
        <translation>该文件不是有效的实测训练运行列表。</translation>
    </message>
    <message>
        <source>The measured runs cannot calibrate this cluster&apos;s figures without fitting noise.</source>
        <translation>这些实测运行无法在不拟合噪声的情况下校准此集群的数值。</translation>
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
    <message>
        <source>The plan is not valid for this model and cluster.</source>
        <translation>该方案对此模型和集群无效。</translation>
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
    <message>
        <source>not priced</source>
        <translation>未计算成本</translation>
    </message>
    <message>
        <source>Not priced</source>
        <translation>未计算成本</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) whose operand shapes could not be inferred</source>
        <translation>
            <numerusform>%n 个算子的操作数形状无法推断</numerusform>
        </translation>
    </message>
    <message>
        <source>its operand shapes could not be inferred</source>
        <translation>其操作数形状无法推断</translation>
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
    <name>PlanExport</name>
    <message>
        <source>Tapestry plan (JSON)</source>
        <translation>Tapestry 方案（JSON）</translation>
    </message>
    <message>
        <source>Megatron-LM arguments (shell)</source>
        <translation>Megatron-LM 参数（Shell）</translation>
    </message>
    <message>
        <source>torchtitan config (Python)</source>
        <translation>torchtitan 配置（Python）</translation>
    </message>
    <message>
        <source>torchtitan v0.2 job config (TOML)</source>
        <translation>torchtitan v0.2 作业配置（TOML）</translation>
    </message>
    <message>
        <source>PyTorch DTensor plan (Python)</source>
        <translation>PyTorch DTensor 方案（Python）</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan (JSON)</source>
        <translation>Hugging Face tp_plan（JSON）</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan (Python)</source>
        <translation>Hugging Face tp_plan（Python）</translation>
    </message>
    <message>
        <source>ONNX model with sharding annotations</source>
        <translation>带切分注解的 ONNX 模型</translation>
    </message>
    <message>
        <source>Graph view as Graphviz DOT</source>
        <translation>图视图（Graphviz DOT）</translation>
    </message>
    <message>
        <source>Graph view as SVG</source>
        <translation>图视图（SVG）</translation>
    </message>
    <message>
        <source>Graph view as PNG</source>
        <translation>图视图（PNG）</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1（*.%2）</translation>
    </message>
    <message>
        <source>Not the plan Tapestry priced: %1 does not run it as is. The file runs the nearest plan it expresses, priced %L2 ms and %L3 GB per GPU against the plan&apos;s %L4 ms and %L5 GB.</source>
        <translation>这不是 Tapestry 估价的方案：%1 无法原样运行它。文件运行的是它能表达的最接近的方案，估价为每 GPU %L2 ms 和 %L3 GB，而原方案为 %L4 ms 和 %L5 GB。</translation>
    </message>
    <message>
        <source>It does not fit in the GPU&apos;s %L1 GB.</source>
        <translation>它放不进 GPU 的 %L1 GB。</translation>
    </message>
</context>
<context>
    <name>PlanOverlay</name>
    <message>
        <source>Replicated</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列切分</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行切分</translation>
    </message>
    <message>
        <source>2D</source>
        <translation>二维</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Hidden</source>
        <translation>隐藏维</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>AR AG RS A2A: collectives</source>
        <translation>AR AG RS A2A：集合通信</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>全归约</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>全收集</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>归约散射</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>全交换</translation>
    </message>
    <message>
        <source>Plan %1</source>
        <translation>方案 %1</translation>
    </message>
    <message>
        <source>Strategy: %1 (%2)</source>
        <translation>策略：%1（%2）</translation>
    </message>
    <message>
        <source>Per instance (one of the repeated blocks):</source>
        <translation>每个实例（重复块之一）：</translation>
    </message>
    <message>
        <source>Compute: %L1 ms</source>
        <translation>计算：%L1 ms</translation>
    </message>
    <message>
        <source>Communication, %1: %L2 ms</source>
        <translation>通信，%1：%L2 ms</translation>
    </message>
    <message>
        <source>Memory: %L1 GB</source>
        <translation>内存：%L1 GB</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>第 %1 级</translation>
    </message>
    <message>
        <source>Pipeline stage %1</source>
        <translation>流水线第 %1 级</translation>
    </message>
    <message>
        <source>Context parallel attention</source>
        <translation>上下文并行注意力</translation>
    </message>
    <message>
        <source>Ring attention over %1: %2 ms, %L3 ms of it hidden</source>
        <translation>沿 %1 的环形注意力：%2 ms，其中 %L3 ms 被隐藏</translation>
    </message>
    <message>
        <source>Ulysses all-to-alls over %1: %2 ms</source>
        <translation>沿 %1 的 Ulysses all-to-all：%2 ms</translation>
    </message>
    <message>
        <source>Expert all-to-alls over %1: %2 ms</source>
        <translation>沿 %1 的专家 all-to-all：%2 ms</translation>
    </message>
</context>
<context>
    <name>PlanSummary</name>
    <message>
        <source>embedding</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>convolutions</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>other layers</source>
        <translation>其他层</translation>
    </message>
    <message>
        <source>in a node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>across nodes</source>
        <translation>跨节点</translation>
    </message>
    <message>
        <source>over %1 nodes</source>
        <translation>跨 %1 个节点</translation>
    </message>
    <message>
        <source>replicated</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>no recomputation</source>
        <translation>不重算</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>选择性重算</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>完全重算</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1和%2</translation>
    </message>
    <message>
        <source>PP %1 %2 (interleaved, %3 chunks per stage)</source>
        <translation>PP %1 %2（交错，每级 %3 块）</translation>
    </message>
    <message>
        <source>PP %1 %2</source>
        <translation>PP %1 %2</translation>
    </message>
    <message>
        <source>sends overlapped with the other chunks&apos; compute</source>
        <translation>发送与其他块的计算重叠</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>无 ZeRO</translation>
    </message>
    <message>
        <source>any (study)</source>
        <translation>任意（研究）</translation>
    </message>
    <message>
        <source>not runnable as is</source>
        <translation>无法原样运行</translation>
    </message>
    <message>
        <source>runs as is on %1</source>
        <translation>可原样运行于 %1</translation>
    </message>
    <message>
        <source>priced with %1&apos;s implementations, %2</source>
        <translation>按 %1 的实现计价，%2</translation>
    </message>
</context>
<context>
    <name>PlanThroughput</name>
    <message>
        <source>MFU %L1 %, %L2 tokens/s per GPU</source>
        <translation>MFU %L1 %，每 GPU %L2 token/s</translation>
    </message>
    <message>
        <source> — above the GPU&apos;s peak: a pricing defect</source>
        <translation>——超过 GPU 峰值：定价缺陷</translation>
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
    <message>
        <source>%L1 ms</source>
        <translation>%L1 毫秒</translation>
    </message>
    <message>
        <source>%L1 s</source>
        <translation>%L1 秒</translation>
    </message>
</context>
<context>
    <name>StartupOptions</name>
    <message>
        <source>Plans tensor and data parallelism for large neural networks.</source>
        <translation>为大型神经网络规划张量并行与数据并行。</translation>
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
    <message>
        <source>Search plans once the model is folded; with --screenshot, wait for the search and open its best plan.</source>
        <translation>模型折叠后搜索方案；与 --screenshot 一起使用时，等待搜索结束并打开最佳方案。</translation>
    </message>
    <message>
        <source>Cluster preset for the search.</source>
        <translation>搜索所用的集群预设。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Global batch in sequences.</source>
        <translation>全局批大小（序列数）。</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Sequence length in tokens.</source>
        <translation>序列长度（词元数）。</translation>
    </message>
    <message>
        <source>panel</source>
        <translation>面板</translation>
    </message>
    <message>
        <source>Open the first repeated block in the folded view.</source>
        <translation>在折叠视图中展开第一个重复块。</translation>
    </message>
    <message>
        <source>Select the first box of the graph view whose name contains &lt;text&gt;.</source>
        <translation>选中图视图中名称包含 &lt;text&gt; 的第一个方框。</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Window size, e.g. 1600x1000.</source>
        <translation>窗口大小，例如 1600x1000。</translation>
    </message>
    <message>
        <source>size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>--%1 needs a positive whole number.</source>
        <translation>--%1 需要一个正整数。</translation>
    </message>
    <message>
        <source>Bad window size &apos;%1&apos;: write it as 1600x1000.</source>
        <translation>窗口大小“%1”无效：请写成 1600x1000。</translation>
    </message>
    <message>
        <source>After the search, change the strategy of the first node or block position whose name contains &lt;text&gt; in the plan editor.</source>
        <translation>搜索结束后，在方案编辑器中修改名称包含 &lt;text&gt; 的第一个节点或块位置的策略。</translation>
    </message>
    <message>
        <source>ONNX model or IOPDDL sharding problem (.json, .json.gz) to open.</source>
        <translation>要打开的 ONNX 模型或 IOPDDL 分片问题（.json、.json.gz）。</translation>
    </message>
    <message>
        <source>[model.onnx | problem.json]</source>
        <translation>[model.onnx | problem.json]</translation>
    </message>
    <message>
        <source>Solve the sharding problem for &lt;seconds&gt; once it is open; with --screenshot, grab its window after.</source>
        <translation>打开分片问题后求解 &lt;seconds&gt; 秒；与 --screenshot 一起使用时，随后截取其窗口。</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <source>mesh</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Open a plan file for the model once it is folded.</source>
        <translation>模型折叠完成后打开一个计划文件。</translation>
    </message>
    <message>
        <source>Bad mesh &apos;%1&apos;: %2</source>
        <translation>无效的网格“%1”：%2</translation>
    </message>
    <message>
        <source>With --show timeline, zoom the schedule&apos;s time axis &lt;factor&gt; times from its start.</source>
        <translation>配合 --show timeline，将调度的时间轴从起点放大 &lt;factor&gt; 倍。</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>倍数</translation>
    </message>
    <message>
        <source>--zoom needs a factor of at least 1.</source>
        <translation>--zoom 需要不小于 1 的倍数。</translation>
    </message>
    <message>
        <source>Nodes of the cluster preset for the search.</source>
        <translation>搜索所用集群预设的节点数。</translation>
    </message>
    <message>
        <source>Sequences per data-parallel rank and micro-step for the search.</source>
        <translation>搜索时每个数据并行 rank 每个微步的序列数。</translation>
    </message>
    <message>
        <source>Training stack the search is for: megatron, torchtitan, pytorch or any.</source>
        <translation>搜索所针对的训练框架：megatron、torchtitan、pytorch 或 any。</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Unknown --target &apos;%1&apos;.</source>
        <translation>未知的 --target &apos;%1&apos;。</translation>
    </message>
    <message>
        <source>Device mesh for the search, e.g. 2x8, pp=8,dp=2,tp=8 or auto (every shape).</source>
        <translation>搜索所用的设备网格，例如 2x8、pp=8,dp=2,tp=8 或 auto（尝试每种形状）。</translation>
    </message>
    <message>
        <source>Panel to raise after a search: results (the default), inspector, timeline (the inspector&apos;s pipeline schedule), traffic (the inspector&apos;s ring attention and expert all-to-alls), edit, compare, history (the runs and plans kept) or export (the export dialog of the best plan, over the window).</source>
        <translation>搜索后显示的面板：results（默认）、inspector、timeline（检查器中的流水线调度）、traffic（检查器中的环形注意力和专家 all-to-all）、edit、compare、history（保存的运行和方案）或 export（最佳方案的导出对话框，位于窗口之上）。</translation>
    </message>
    <message>
        <source>Unknown panel &apos;%1&apos;: use results, inspector, timeline, traffic, edit, compare, history or export.</source>
        <translation>未知面板“%1”：请使用 results、inspector、timeline、traffic、edit、compare、history 或 export。</translation>
    </message>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: no presets are installed.</source>
        <translation>未知的集群预设“%1”：未安装任何预设。</translation>
    </message>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: use %2.</source>
        <translation>未知的集群预设“%1”：请使用 %2。</translation>
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
    <name>WhyThisPlan</name>
    <message>
        <source>compute %1</source>
        <translation>计算 %1</translation>
    </message>
    <message>
        <source>exposed communication %1</source>
        <translation>暴露的通信 %1</translation>
    </message>
    <message>
        <source>pipeline bubble %1</source>
        <translation>流水线气泡 %1</translation>
    </message>
    <message>
        <source>%L1 GB less memory per device</source>
        <translation>每设备少用 %L1 GB 内存</translation>
    </message>
    <message>
        <source>%L1 GB more memory per device</source>
        <translation>每设备多用 %L1 GB 内存</translation>
    </message>
    <message>
        <source>%L1 % faster</source>
        <translation>快 %L1 %</translation>
    </message>
    <message>
        <source>%L1 % slower</source>
        <translation>慢 %L1 %</translation>
    </message>
    <message>
        <source>Why this plan: %L1 ms against %L2 ms for %3 on %4: %5 (%6), %7.</source>
        <translation>为何选此计划：%L1 ms，对比 %3 在 %4 上的 %L2 ms：%5（%6），%7。</translation>
    </message>
    <message>
        <source>The difference is within the cost model&apos;s validated error (median %L1 %): the model does not tell these two plans apart; measure both before choosing.</source>
        <translation>差异在成本模型的验证误差之内（中位数 %L1 %）：模型无法区分这两个计划；选择前请实测两者。</translation>
    </message>
    <message>
        <source>Why this plan: it prices exactly as %1 on %2 (%L3 ms, %L4 GB per device): the search found no faster plan than this expert layout.</source>
        <translation>为什么是这个方案：它的代价与 %2 上的 %1 完全相同（%L3 ms，每设备 %L4 GB）：搜索没有找到比这个专家布局更快的方案。</translation>
    </message>
</context>
<context>
    <name>tapestry::BreakdownCharts</name>
    <message>
        <source>Whole step</source>
        <translation>整个步骤</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>Outside blocks</source>
        <translation>块之外</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Time per device and step (ms)</source>
        <translation>每设备每步时间（ms）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Largest transient buffer</source>
        <translation>最大临时缓冲区</translation>
    </message>
    <message>
        <source>Per device</source>
        <translation>每设备</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>内存（GB）</translation>
    </message>
    <message>
        <source>HBM %L1 GB</source>
        <translation>HBM %L1 GB</translation>
    </message>
    <message>
        <source>Peak memory %L1 GB of %L2 GB per device</source>
        <translation>每设备峰值内存 %L1 GB / %L2 GB</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Other communication</source>
        <translation>其他通信</translation>
    </message>
    <message>
        <source>DP exposed</source>
        <translation>DP 暴露</translation>
    </message>
    <message>
        <source>DP hidden</source>
        <translation>DP 隐藏</translation>
    </message>
    <message>
        <source>Step time %L1 ms per device</source>
        <translation>每设备步时 %L1 ms</translation>
    </message>
    <message>
        <source>Compute %L1 ms (recomputation %L2 ms, optimizer %L3 ms) and exposed communication %L4 ms make the step; %L5 ms of data-parallel (DP) communication run hidden under compute.</source>
        <translation>计算 %L1 ms（重计算 %L2 ms，优化器 %L3 ms）与暴露的通信 %L4 ms 构成一步；另有 %L5 ms 数据并行（DP）通信隐藏在计算之下。</translation>
    </message>
    <message>
        <source>Compute beside hidden communication runs %L1 % slower (the communication&apos;s kernels hold SMs and memory bandwidth): the exposed parts include that slowdown.</source>
        <translation>与隐藏通信同时进行的计算慢 %L1 %（通信内核占用 SM 和显存带宽）：可见部分已包含这一减速。</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>第 %1 级</translation>
    </message>
    <message>
        <source>Pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message numerus="yes">
        <source>The slowest of the %n pipeline stage(s) sets the step: it also sends %L1 ms between stages and waits %L2 ms in the bubble.</source>
        <translation>
            <numerusform>%n 个流水线级中最慢的一级决定步长：它还在级间发送 %L1 ms，并在气泡中等待 %L2 ms。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::ClusterPanel</name>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <source>Dense peak of one GPU in the training dtype</source>
        <translation>单个 GPU 在训练数据类型下的稠密峰值算力</translation>
    </message>
    <message>
        <source>Achievable bus bandwidth per GPU and direction inside a node</source>
        <translation>节点内每个 GPU 每个方向可达到的总线带宽</translation>
    </message>
    <message>
        <source>Achievable bandwidth per GPU and direction between nodes (one NIC per GPU)</source>
        <translation>节点间每个 GPU 每个方向可达到的带宽（每个 GPU 一块网卡）</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <source>GPUs per node:</source>
        <translation>每节点 GPU 数：</translation>
    </message>
    <message>
        <source>Peak:</source>
        <translation>峰值：</translation>
    </message>
    <message>
        <source>HBM:</source>
        <translation>HBM：</translation>
    </message>
    <message>
        <source>Intra-node:</source>
        <translation>节点内：</translation>
    </message>
    <message>
        <source>Inter-node:</source>
        <translation>节点间：</translation>
    </message>
    <message>
        <source>Devices are numbered row-major over the mesh; the last axis is the fastest and stays inside a node first.</source>
        <translation>设备在网格上按行优先编号；最后一个轴变化最快，并优先留在同一节点内。</translation>
    </message>
    <message>
        <source>from the model</source>
        <translation>取自模型</translation>
    </message>
    <message>
        <source> sequences</source>
        <translation> 个序列</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>bf16 (mixed precision)</source>
        <translation>bf16（混合精度）</translation>
    </message>
    <message>
        <source>Adam (fp32 master, m, v)</source>
        <translation>Adam（fp32 主权重、m、v）</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Time limit of each integer program the search solves</source>
        <translation>搜索中每个整数规划的求解时间上限</translation>
    </message>
    <message>
        <source>Mesh and workload</source>
        <translation>网格与负载</translation>
    </message>
    <message>
        <source>Mesh:</source>
        <translation>网格：</translation>
    </message>
    <message>
        <source>Global batch:</source>
        <translation>全局批大小：</translation>
    </message>
    <message>
        <source>Sequence:</source>
        <translation>序列长度：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Memory limit:</source>
        <translation>内存上限：</translation>
    </message>
    <message>
        <source>Solver time limit:</source>
        <translation>求解时间上限：</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>节点间</translation>
    </message>
    <message>
        <source>The links the measured run used</source>
        <translation>测量时所用的链路</translation>
    </message>
    <message>
        <source>Import nccl-tests Log…</source>
        <translation>导入 nccl-tests 日志…</translation>
    </message>
    <message>
        <source>Open Cluster File…</source>
        <translation>打开集群文件…</translation>
    </message>
    <message>
        <source>A cluster described in a JSON file, as resources/clusters and calibration write them</source>
        <translation>以 JSON 文件描述的集群，格式与 resources/clusters 和校准所写的相同</translation>
    </message>
    <message>
        <source>Calibrate to Measured Runs…</source>
        <translation>按实测运行校准…</translation>
    </message>
    <message>
        <source>Fit the GEMM and attention efficiencies and the link bandwidths to training runs you measured on this cluster (tapestry-cli validate&apos;s format); figures the runs cannot pin down are kept as they are.</source>
        <translation>将 GEMM 与注意力效率以及链路带宽拟合到您在此集群上实测的训练运行（tapestry-cli validate 的格式）；运行无法确定的数值保持不变。</translation>
    </message>
    <message>
        <source>Save Cluster File…</source>
        <translation>保存集群文件…</translation>
    </message>
    <message>
        <source>Write this cluster with its edits as a JSON file that tapestry-cli --cluster and this panel read</source>
        <translation>将此集群连同修改写为 JSON 文件，供 tapestry-cli --cluster 和本面板读取</translation>
    </message>
    <message>
        <source>Open Cluster File</source>
        <translation>打开集群文件</translation>
    </message>
    <message>
        <source>Cluster files (*.json);;All files (*)</source>
        <translation>集群文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not open %1: %2 %3</source>
        <translation>无法打开 %1：%2 %3</translation>
    </message>
    <message>
        <source>%1 (file %2)</source>
        <translation>%1（文件 %2）</translation>
    </message>
    <message>
        <source>Save Cluster File</source>
        <translation>保存集群文件</translation>
    </message>
    <message>
        <source>Cluster files (*.json)</source>
        <translation>集群文件 (*.json)</translation>
    </message>
    <message>
        <source>Could not save %1: %2 %3</source>
        <translation>无法保存 %1：%2 %3</translation>
    </message>
    <message>
        <source>Calibrate to Measured Runs</source>
        <translation>按实测运行校准</translation>
    </message>
    <message>
        <source>Measured runs (*.json);;All files (*)</source>
        <translation>实测运行 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Fitting the figures to the runs of %1…</source>
        <translation>正在将数值拟合到 %1 中的运行…</translation>
    </message>
    <message>
        <source>Could not calibrate to %1: %2 %3</source>
        <translation>无法按 %1 校准：%2 %3</translation>
    </message>
    <message>
        <source>Could not calibrate to %1: %2</source>
        <translation>无法按 %1 校准：%2</translation>
    </message>
    <message>
        <source>GEMM efficiency</source>
        <translation>GEMM 效率</translation>
    </message>
    <message>
        <source>attention efficiency</source>
        <translation>注意力效率</translation>
    </message>
    <message>
        <source>FP8 GEMM efficiency</source>
        <translation>FP8 GEMM 效率</translation>
    </message>
    <message>
        <source>intra-node bandwidth</source>
        <translation>节点内带宽</translation>
    </message>
    <message>
        <source>inter-node bandwidth</source>
        <translation>节点间带宽</translation>
    </message>
    <message>
        <source>%L1 GB/s</source>
        <translation>%L1 GB/s</translation>
    </message>
    <message>
        <source>%L1 %</source>
        <translation>%L1%</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>Fitted to %1 runs of %2: %3. Step-time error of each run priced on the figures fitted to the others: median %4 → %5, max %6 → %7.</source>
        <translation>已拟合到 %2 中的 %1 次运行：%3。每次运行以拟合到其余运行的数值计价时的步时误差：中位数 %4 → %5，最大 %6 → %7。</translation>
    </message>
    <message>
        <source>%1 kept: %2</source>
        <translation>%1 保持不变：%2</translation>
    </message>
    <message>
        <source>Runs that say “flash” are read as FlashAttention 1.x; runs of FlashAttention-2 should say “flash2”.</source>
        <translation>标注为“flash”的运行按 FlashAttention 1.x 读取；使用 FlashAttention-2 的运行应标注为“flash2”。</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>auto (try every shape)</source>
        <translation>自动（尝试所有形状）</translation>
    </message>
    <message>
        <source>Import nccl-tests Log</source>
        <translation>导入 nccl-tests 日志</translation>
    </message>
    <message>
        <source>nccl-tests logs (*.log *.txt);;All files (*)</source>
        <translation>nccl-tests 日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 does not name its collective: expected all_reduce_perf, all_gather_perf, reduce_scatter_perf or alltoall_perf in the file name.</source>
        <translation>%1 的文件名未说明集合通信类型：文件名中应包含 all_reduce_perf、all_gather_perf、reduce_scatter_perf 或 alltoall_perf。</translation>
    </message>
    <message>
        <source>Could not import %1: %2 %3</source>
        <translation>无法导入 %1：%2 %3</translation>
    </message>
    <message>
        <source>preset</source>
        <translation>预设</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2: %Ln point(s) up to %L3 GB/s (%4)</source>
        <translation>
            <numerusform>%1，%2：%Ln 个点，最高 %L3 GB/s（%4）</numerusform>
        </translation>
    </message>
    <message>
        <source>No measured curves: collectives use the alpha-beta formulas.</source>
        <translation>没有实测曲线：集合通信使用 alpha-beta 公式。</translation>
    </message>
    <message>
        <source>Sequences per data-parallel rank and micro-step: gradients accumulate over the micro-steps and are synchronized once per step. Auto: the search chooses (the whole batch where a plan fits with it, else the largest micro-batch that fits; 1 to 8 sequences on a pipeline); a plan priced outside a search takes the whole batch.</source>
        <translation>每个数据并行 rank 每个微步的序列数：梯度在各微步间累积，每步同步一次。自动：由搜索选择（能放下时用整个批次，否则用能放下的最大微批次；流水线上为 1 到 8 个序列）；搜索之外估价的计划使用整个批次。</translation>
    </message>
    <message>
        <source>fp16 (mixed precision)</source>
        <translation>fp16（混合精度）</translation>
    </message>
    <message>
        <source>The type of activations, weights and gradients; the optimizer keeps fp32 master weights either way.</source>
        <translation>激活、权重和梯度的类型；优化器始终保留 fp32 主权重。</translation>
    </message>
    <message>
        <source>FP8 weights without a 16-bit copy</source>
        <translation>仅 FP8 权重（无 16 位副本）</translation>
    </message>
    <message>
        <source>With fp8 or mxfp8: the FP8 layers keep their weights in FP8 only, as Transformer Engine&apos;s fp8_model_init does (Megatron-LM&apos;s --fp8-param-gather, NeMo&apos;s fp8_params), instead of beside their 16-bit weights; ZeRO 3 gathers them in FP8.</source>
        <translation>使用 fp8 或 mxfp8 时：FP8 层只以 FP8 保存权重，如 Transformer Engine 的 fp8_model_init（Megatron-LM 的 --fp8-param-gather、NeMo 的 fp8_params），而不是与其 16 位权重并存；ZeRO 3 以 FP8 收集它们。</translation>
    </message>
    <message>
        <source>Auto (the search chooses)</source>
        <translation>自动（由搜索选择）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Selective (attention core)</source>
        <translation>选择性（注意力核心）</translation>
    </message>
    <message>
        <source>Selective (every other matmul, torchtitan&apos;s)</source>
        <translation>选择性（每隔一个矩阵乘法，torchtitan 的方式）</translation>
    </message>
    <message>
        <source>Full (each block)</source>
        <translation>完全（每个块）</translation>
    </message>
    <message>
        <source>Activations recomputed in the backward pass instead of kept: less memory for more compute. Selective as the target runs it: Megatron-LM recomputes attention&apos;s core (nothing to recompute with fused attention), torchtitan keeps every other matmul&apos;s output and recomputes the rest.</source>
        <translation>在反向传播中重新计算激活而不保存：以更多计算换取更少内存。选择性重计算按目标框架的方式进行：Megatron-LM 重新计算注意力核心（使用融合注意力时无需重新计算），torchtitan 保留每隔一个矩阵乘法的输出并重新计算其余部分。</translation>
    </message>
    <message>
        <source>0 (nothing sharded)</source>
        <translation>0（不分片）</translation>
    </message>
    <message>
        <source>1 (optimizer states)</source>
        <translation>1（优化器状态）</translation>
    </message>
    <message>
        <source>2 (and gradients)</source>
        <translation>2（以及梯度）</translation>
    </message>
    <message>
        <source>3 (and parameters, FSDP)</source>
        <translation>3（以及参数，FSDP）</translation>
    </message>
    <message>
        <source>What ZeRO shards over the data-parallel axes: optimizer states, then gradients, then parameters.</source>
        <translation>ZeRO 在数据并行轴上分片的内容：先是优化器状态，再是梯度，然后是参数。</translation>
    </message>
    <message>
        <source>Overlap data-parallel communication</source>
        <translation>重叠数据并行通信</translation>
    </message>
    <message>
        <source>Gradient reduction runs under the backward pass and FSDP gathers under the previous block, as far as that compute can hide them.</source>
        <translation>梯度归约与反向传播重叠，FSDP 收集与前一个块重叠，以该计算能隐藏的部分为限。</translation>
    </message>
    <message>
        <source>Fused (FlashAttention-2)</source>
        <translation>融合（FlashAttention-2）</translation>
    </message>
    <message>
        <source>Fused (cuDNN)</source>
        <translation>融合（cuDNN）</translation>
    </message>
    <message>
        <source>Fused (Triton, llm-foundry)</source>
        <translation>融合（Triton，llm-foundry）</translation>
    </message>
    <message>
        <source>Fused (FlashAttention 1.x)</source>
        <translation>融合（FlashAttention 1.x）</translation>
    </message>
    <message>
        <source>Unfused</source>
        <translation>未融合</translation>
    </message>
    <message>
        <source>A fused kernel never writes the sequence × sequence scores to memory; unfused kernels keep them for the backward pass. cuDNN&apos;s kernels (Transformer Engine&apos;s, what Megatron-LM runs) are faster than FlashAttention-2&apos;s on Hopper and later GPUs.</source>
        <translation>融合内核从不将序列 × 序列的分数写入内存；未融合的内核会为反向传播保留它们。cuDNN 的内核（Transformer Engine 的，即 Megatron-LM 所运行的）在 Hopper 及更新的 GPU 上比 FlashAttention-2 的更快。</translation>
    </message>
    <message>
        <source>Micro-batch:</source>
        <translation>微批次：</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Recomputation:</source>
        <translation>重计算：</translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation>ZeRO 阶段：</translation>
    </message>
    <message>
        <source>Capacity factor:</source>
        <translation>容量因子：</translation>
    </message>
    <message>
        <source>Mixture-of-experts routing: each expert computes up to this many times its even share (top-k / experts) of the tokens. No effect on models without experts.</source>
        <translation>混合专家路由：每个专家最多计算其平均份额（top-k / 专家数）的这一倍数的 token。对没有专家的模型无影响。</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>A cluster from resources/clusters: GPU, node count and links; edits below apply to a copy.</source>
        <translation>来自 resources/clusters 的集群：GPU、节点数和互连；下方的修改只作用于副本。</translation>
    </message>
    <message>
        <source>Machines in the cluster; GPUs in one node talk over the fast intra-node links.</source>
        <translation>集群中的机器；同一节点内的 GPU 通过快速的节点内互连通信。</translation>
    </message>
    <message>
        <source>GPUs in each node, joined by NVLink or PCIe.</source>
        <translation>每个节点中的 GPU，通过 NVLink 或 PCIe 相连。</translation>
    </message>
    <message>
        <source>Memory of one GPU; a plan fits when its peak per device stays below the limit.</source>
        <translation>单个 GPU 的显存；方案的每设备峰值低于限制时即可容纳。</translation>
    </message>
    <message>
        <source>Sequences per optimizer step over all data-parallel ranks; 0 takes the model&apos;s own.</source>
        <translation>所有数据并行副本每个优化步的序列数；0 表示采用模型自身的值。</translation>
    </message>
    <message>
        <source>Tokens per sequence; 0 takes the model&apos;s own.</source>
        <translation>每个序列的 token 数；0 表示采用模型自身的值。</translation>
    </message>
    <message>
        <source>The optimizer whose states the plan keeps per parameter: Adam keeps two, SGD one.</source>
        <translation>方案为每个参数保存其状态的优化器：Adam 保存两个，SGD 保存一个。</translation>
    </message>
    <message>
        <source> % of peak</source>
        <translation> % 峰值</translation>
    </message>
    <message>
        <source>Share of the peak that large matrix multiplications (cuBLAS GEMMs) reach: every compute time rests on it. Measure it with a GEMM benchmark at your shapes.</source>
        <translation>大型矩阵乘法（cuBLAS GEMM）达到的峰值比例：所有计算时间都基于它。请用您的形状运行 GEMM 基准测试来测量。</translation>
    </message>
    <message>
        <source> % of peak at 16k tokens</source>
        <translation> % 峰值（16k 词元）</translation>
    </message>
    <message>
        <source>Share of the peak that FlashAttention-2&apos;s forward pass reaches at 16k tokens, head dim 128, without a causal mask. Each attention call runs at the share the kernel&apos;s published curve gives it: shorter sequences, a causal mask and the backward pass reach less, cuDNN&apos;s kernel more.</source>
        <translation>FlashAttention-2 前向传播在 16k 词元、头维度 128、无因果掩码时达到的峰值比例。每次注意力调用按该内核公布的曲线所给的比例运行：更短的序列、因果掩码和反向传播达到的比例更低，cuDNN 的内核更高。</translation>
    </message>
    <message>
        <source>GEMM efficiency:</source>
        <translation>GEMM 效率：</translation>
    </message>
    <message>
        <source>Attention efficiency:</source>
        <translation>注意力效率：</translation>
    </message>
    <message>
        <source> % of HBM</source>
        <translation> % HBM</translation>
    </message>
    <message>
        <source>Per device: the HBM less the headroom; a plan fits when its peak stays below it.</source>
        <translation>每设备：HBM 减去余量；计划峰值低于此值即可容纳。</translation>
    </message>
    <message>
        <source>Memory headroom:</source>
        <translation>内存余量：</translation>
    </message>
    <message>
        <source>fp8 (bf16, per-tensor FP8 GEMMs)</source>
        <translation>fp8（bf16，按张量缩放的 FP8 GEMM）</translation>
    </message>
    <message>
        <source>mxfp8 (bf16, MXFP8 block-scaled GEMMs)</source>
        <translation>mxfp8（bf16，分块缩放的 MXFP8 GEMM）</translation>
    </message>
    <message>
        <source>The training stack the plans are searched for: its plans run on it as is and export to it exactly. Any: every strategy the cost model prices, for study; not runnable as is.</source>
        <translation>搜索计划所针对的训练栈：其计划可原样在其上运行并精确导出。任意：成本模型定价的所有策略，仅供研究；无法原样运行。</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>one node</source>
        <translation>一个节点</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>GPUs joined by one NVLink fabric, a whole number of nodes: one node on DGX and HGX machines, a rack of 72 GPUs (18 nodes of 4) on GB200 NVL72. Mesh axes inside a domain use the fast link.</source>
        <translation>由同一 NVLink 互连连接的 GPU，为整数个节点：DGX 和 HGX 机器上为一个节点，GB200 NVL72 上为一个 72 GPU 的机架（18 个节点，每个 4 个）。域内的网格轴使用快速链路。</translation>
    </message>
    <message>
        <source>NVLink domain:</source>
        <translation>NVLink 域：</translation>
    </message>
    <message>
        <source>Kept free of each GPU&apos;s memory for what the cost model does not count: the caching allocator&apos;s fragmentation, the CUDA context and NCCL&apos;s buffers; 5 to 10 % is a common allowance. 0, the default as in the CLI, lets plans fill the HBM.</source>
        <translation>为成本模型未计入的部分在每个 GPU 的内存中预留：缓存分配器的碎片、CUDA 上下文和 NCCL 的缓冲区；常见的预留为 5% 到 10%。0 为默认值（与 CLI 相同），允许方案占满 HBM。</translation>
    </message>
    <message>
        <source>In a domain:</source>
        <translation>域内：</translation>
    </message>
    <message>
        <source>Between domains:</source>
        <translation>域间：</translation>
    </message>
    <message>
        <source>Achievable bus bandwidth per GPU and direction inside an NVLink domain</source>
        <translation>NVLink 域内每个 GPU 每个方向可达到的总线带宽</translation>
    </message>
    <message>
        <source>Achievable bandwidth per GPU and direction between NVLink domains</source>
        <translation>NVLink 域之间每个 GPU 每个方向可达到的带宽</translation>
    </message>
    <message>
        <source>%1 does not train this model: %2</source>
        <translation>%1 不训练此模型：%2</translation>
    </message>
    <message>
        <source>Target %1: %2 does not train this model (%3).</source>
        <translation>目标 %1：%2 不训练此模型（%3）。</translation>
    </message>
</context>
<context>
    <name>tapestry::CostSplitChart</name>
    <message>
        <source>Node costs %1 %</source>
        <translation>节点成本 %1%</translation>
    </message>
    <message>
        <source>Edge costs %1 %</source>
        <translation>边成本 %1%</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
</context>
<context>
    <name>tapestry::ExportDialog</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Plan:</source>
        <translation>方案：</translation>
    </message>
    <message>
        <source>none open: only the graph can be exported</source>
        <translation>未打开方案：只能导出图</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Export To</source>
        <translation>导出到</translation>
    </message>
    <message>
        <source>Choose a file to export to.</source>
        <translation>请选择导出的目标文件。</translation>
    </message>
    <message>
        <source>Could not export to %1: %2 %3</source>
        <translation>无法导出到 %1：%2 %3</translation>
    </message>
    <message>
        <source>Could not export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Replace File?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 已存在。要替换吗？</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Wrote %1 to %2.</source>
        <translation>已将%1写入 %2。</translation>
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
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save the drawing as SVG or PNG</source>
        <translation>将图保存为 SVG 或 PNG</translation>
    </message>
    <message>
        <source>Save View</source>
        <translation>保存视图</translation>
    </message>
    <message>
        <source>SVG pictures (*.svg);;PNG pictures (*.png)</source>
        <translation>SVG 图片 (*.svg);;PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Could Not Save View</source>
        <translation>无法保存视图</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Repeated block (×N)</source>
        <translation>重复块（×N）</translation>
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
    <name>tapestry::HistoryPanel</name>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>比较(&amp;M)</translation>
    </message>
    <message>
        <source>Compare the two selected plans</source>
        <translation>比较选中的两个方案</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Tag…</source>
        <translation>标签(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Re-cost</source>
        <translation>重新计算成本(&amp;R)</translation>
    </message>
    <message>
        <source>Price a stale plan again for the model and cluster on screen (a new plan)</source>
        <translation>针对当前模型和集群重新计算过期方案的成本（生成新方案）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Could not read the history: %1</source>
        <translation>无法读取历史记录：%1</translation>
    </message>
    <message>
        <source>History: %1</source>
        <translation>历史记录：%1</translation>
    </message>
    <message>
        <source>Tag Plan</source>
        <translation>为方案添加标签</translation>
    </message>
    <message>
        <source>Tag for the selected plan(s):</source>
        <translation>所选方案的标签：</translation>
    </message>
    <message>
        <source>Delete Plan</source>
        <translation>删除方案</translation>
    </message>
    <message>
        <source>Other plans were derived from plan #%1 (%2). Delete it anyway? They keep their strategies but lose their parent.</source>
        <translation>其他方案派生自方案 #%1（%2）。仍要删除吗？它们会保留各自的策略，但失去父方案。</translation>
    </message>
</context>
<context>
    <name>tapestry::HistoryRecorder</name>
    <message>
        <source>No history file: set HOME or TAPESTRY_HISTORY.</source>
        <translation>没有历史记录文件：请设置 HOME 或 TAPESTRY_HISTORY。</translation>
    </message>
    <message>
        <source>Not recorded in the history (%1): %2</source>
        <translation>未记录到历史记录（%1）：%2</translation>
    </message>
</context>
<context>
    <name>tapestry::HistoryTreeModel</name>
    <message>
        <source>Made for an earlier version of the model or cluster: re-cost it for the current one.</source>
        <translation>为模型或集群的早期版本制定：请针对当前版本重新计算成本。</translation>
    </message>
    <message>
        <source>Plans outside runs</source>
        <translation>不属于任何运行的方案</translation>
    </message>
    <message>
        <source>Run %1: %2 %3 of %4</source>
        <translation>运行 %1：%4 的 %2 %3</translation>
    </message>
    <message>
        <source>Run %1: %2 %3 for %4 of %5</source>
        <translation>运行 %1：%5 的 %2 %3（面向 %4）</translation>
    </message>
    <message>
        <source>%1, stale</source>
        <translation>%1，已过期</translation>
    </message>
    <message>
        <source>Run or plan</source>
        <translation>运行或方案</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Mesh or cluster</source>
        <translation>网格或集群</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>searched</source>
        <translation>搜索所得</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>Memory limit %L1 GB per device.</source>
        <translation>内存上限：每设备 %L1 GB。</translation>
    </message>
    <message>
        <source>took %L1 s</source>
        <translation>耗时 %L1 s</translation>
    </message>
    <message>
        <source>#%1 %2 %3, %4: %5</source>
        <translation>#%1 %2 %3，%4：%5</translation>
    </message>
    <message>
        <source>(no model)</source>
        <translation>（无模型）</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
</context>
<context>
    <name>tapestry::MainWindow</name>
    <message>
        <source>Tapestry</source>
        <translation>Tapestry</translation>
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
    <message>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Start Search</source>
        <translation>开始搜索(&amp;S)</translation>
    </message>
    <message>
        <source>Search plans for the model on the cluster, mesh and workload of the panel (F5)</source>
        <translation>按面板中的集群、网格和负载为模型搜索方案（F5）</translation>
    </message>
    <message>
        <source>&amp;Cancel Search</source>
        <translation>取消搜索(&amp;C)</translation>
    </message>
    <message>
        <source>Cluster and Workload</source>
        <translation>集群与负载</translation>
    </message>
    <message>
        <source>Search Results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <source>Plan Inspector</source>
        <translation>方案检查器</translation>
    </message>
    <message>
        <source>The model is still being folded; start the search in a moment.</source>
        <translation>模型仍在折叠中，请稍后再开始搜索。</translation>
    </message>
    <message>
        <source>Open a model first.</source>
        <translation>请先打开一个模型。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在开始</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Search: %1</source>
        <translation>搜索：%1</translation>
    </message>
    <message>
        <source>The search failed: %1 %2</source>
        <translation>搜索失败：%1 %2</translation>
    </message>
    <message>
        <source>The search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>方案(&amp;P)</translation>
    </message>
    <message>
        <source>New from &amp;Preset…</source>
        <translation>从预设新建(&amp;P)…</translation>
    </message>
    <message>
        <source>Could Not Open Sharding Problem</source>
        <translation>无法打开分片问题</translation>
    </message>
    <message>
        <source>Open an ONNX model or an IOPDDL sharding problem with File &gt; Open, or drop the file here.</source>
        <translation>通过“文件 &gt; 打开”打开 ONNX 模型或 IOPDDL 分片问题，或将文件拖放到此处。</translation>
    </message>
    <message>
        <source>Open Model or Sharding Problem</source>
        <translation>打开模型或分片问题</translation>
    </message>
    <message>
        <source>Models and sharding problems (*.onnx *.json *.json.gz);;ONNX models (*.onnx);;IOPDDL sharding problems (*.json *.json.gz);;All files (*)</source>
        <translation>模型和分片问题 (*.onnx *.json *.json.gz);;ONNX 模型 (*.onnx);;IOPDDL 分片问题 (*.json *.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Search Running</source>
        <translation>搜索进行中</translation>
    </message>
    <message>
        <source>A search is still running. Cancel it and quit? The plans it found so far are kept in the history.</source>
        <translation>搜索仍在进行。要取消并退出吗？已找到的方案会保留在历史记录中。</translation>
    </message>
    <message>
        <source>Cancel Search and Quit</source>
        <translation>取消搜索并退出</translation>
    </message>
    <message>
        <source>Keep Searching</source>
        <translation>继续搜索</translation>
    </message>
    <message>
        <source>&amp;Workflow (README)</source>
        <translation>工作流程（README）(&amp;W)</translation>
    </message>
    <message>
        <source>The README was not found beside the application.</source>
        <translation>在应用程序旁未找到 README。</translation>
    </message>
    <message>
        <source>Opens the README: open a model, search, inspect, edit, compare and export</source>
        <translation>打开 README：打开模型、搜索、检查、编辑、比较和导出</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
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
        <source>Inputs (%1)</source>
        <translation>输入（%1）</translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>输出（%1）</translation>
    </message>
    <message>
        <source>and %L1 more</source>
        <translation>另有 %L1 个</translation>
    </message>
    <message>
        <source>Not priced:</source>
        <translation>未计算成本：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) whose operand shapes could not be inferred: %1</source>
        <translation>
            <numerusform>%n 个算子的操作数形状无法推断：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 parameters in %2; %3 as stored in the file</source>
        <translation>%1 个参数，按 %2 计；文件中存储为 %3</translation>
    </message>
</context>
<context>
    <name>tapestry::NodeCostModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Split (%1)</source>
        <translation>切分（%1）</translation>
    </message>
    <message>
        <source>Compute (ms)</source>
        <translation>计算（ms）</translation>
    </message>
    <message>
        <source>Comm. (ms)</source>
        <translation>通信（ms）</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>内存（GB）</translation>
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
    <name>tapestry::ParallelTrafficModel</name>
    <message>
        <source>Ring attention: keys and values, forward</source>
        <translation>环形注意力：键和值，前向</translation>
    </message>
    <message>
        <source>Ring attention: keys and values, backward</source>
        <translation>环形注意力：键和值，反向</translation>
    </message>
    <message>
        <source>Ring attention: their gradients, backward</source>
        <translation>环形注意力：其梯度，反向</translation>
    </message>
    <message>
        <source>Expert dispatch: tokens to their experts</source>
        <translation>专家分发：token 发往其专家</translation>
    </message>
    <message>
        <source>Expert combine: expert outputs back</source>
        <translation>专家合并：专家输出返回</translation>
    </message>
    <message>
        <source>Expert weights: each copy&apos;s routing weight</source>
        <translation>专家权重：每个副本的路由权重</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>节点间</translation>
    </message>
    <message>
        <source>%1 GPUs, %2</source>
        <translation>%1 个 GPU，%2</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Axis</source>
        <translation>轴</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Per call (MB)</source>
        <translation>每次调用 (MB)</translation>
    </message>
    <message>
        <source>Calls per step</source>
        <translation>每步调用次数</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Hidden (ms)</source>
        <translation>隐藏 (ms)</translation>
    </message>
    <message>
        <source>Exposed (ms)</source>
        <translation>暴露 (ms)</translation>
    </message>
    <message>
        <source>Ulysses: sequence and heads swapped, forward</source>
        <translation>Ulysses：序列与注意力头互换，前向</translation>
    </message>
    <message>
        <source>Ulysses: their gradients swapped back, backward</source>
        <translation>Ulysses：其梯度换回，反向</translation>
    </message>
</context>
<context>
    <name>tapestry::ParetoChartView</name>
    <message>
        <source>Peak memory per device (GB)</source>
        <translation>每设备峰值内存（GB）</translation>
    </message>
    <message>
        <source>Step time (ms)</source>
        <translation>步骤时间（ms）</translation>
    </message>
    <message>
        <source>Memory limit (%L1 GB)</source>
        <translation>内存上限（%L1 GB）</translation>
    </message>
    <message>
        <source>HBM (%L1 GB)</source>
        <translation>HBM（%L1 GB）</translation>
    </message>
    <message>
        <source>Searched: dominated</source>
        <translation>搜索所得：被支配</translation>
    </message>
    <message>
        <source>%1 (%2) on %3: %L4 ms, %L5 GB</source>
        <translation>%1（%2）在 %3 上：%L4 ms，%L5 GB</translation>
    </message>
    <message numerus="yes">
        <source>Step time (ms; %n slower plan(s) on the top edge)</source>
        <translation>
            <numerusform>步时间（ms；%n 个更慢的计划位于上边缘）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PipelineTimeline</name>
    <message>
        <source>blocks %1</source>
        <translation>块 %1</translation>
    </message>
    <message>
        <source>Zoom out (wheel down)</source>
        <translation>缩小（滚轮向下）</translation>
    </message>
    <message>
        <source>Zoom in (wheel up)</source>
        <translation>放大（滚轮向上）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Fit the whole step to the view&apos;s width</source>
        <translation>使整个步骤适应视图宽度</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save the timeline as SVG or PNG</source>
        <translation>将时间线保存为 SVG 或 PNG</translation>
    </message>
    <message>
        <source>This plan has no pipeline: open a plan on a mesh with a pp axis to see its schedule.</source>
        <translation>此计划没有流水线：请打开一个网格带有 pp 轴的计划以查看其调度。</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>Interleaved 1F1B</source>
        <translation>交错 1F1B</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 stages × %3 chunks, %Ln micro-batch(es) per step</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：%2 级 × %3 个分块，每步 %Ln 个微批次</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 stages, %Ln micro-batch(es) per step</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：%2 级，每步 %Ln 个微批次</numerusform>
        </translation>
    </message>
    <message>
        <source> — the schedule could not be laid out completely</source>
        <translation> —— 无法完整排布该调度</translation>
    </message>
    <message>
        <source>Laid out: step %L1 ms; the cost model&apos;s step (dashed line): %L2 ms. Stage 1 idles %L3 ms (%L4 % of its step) in the bubble. Forward ≈ 1/3 and backward ≈ 2/3 of a micro-batch&apos;s work (the cost model keeps no per-stage forward/backward split; recomputation counts to the backward); a chunk takes its share by block count.</source>
        <translation>排布结果：步长 %L1 ms；成本模型的步长（虚线）：%L2 ms。第 1 级在气泡中空闲 %L3 ms（占其步长的 %L4 %）。前向约占一个微批次工作量的 1/3，反向约占 2/3（成本模型没有按级区分前向与反向；重计算计入反向）；每个分块按块数分摊。</translation>
    </message>
    <message>
        <source> (chunk %1)</source>
        <translation>（分块 %1）</translation>
    </message>
    <message>
        <source>Forward%1</source>
        <translation>前向%1</translation>
    </message>
    <message>
        <source>Backward%1</source>
        <translation>反向%1</translation>
    </message>
    <message>
        <source>Send to a neighbouring stage</source>
        <translation>发送到相邻级</translation>
    </message>
    <message>
        <source>Gradient reduction (exposed)</source>
        <translation>梯度归约（暴露部分）</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Bubble (idle)</source>
        <translation>气泡（空闲）</translation>
    </message>
    <message>
        <source>Cost model&apos;s step</source>
        <translation>成本模型的步长</translation>
    </message>
    <message>
        <source>%L1 s</source>
        <translation>%L1 秒</translation>
    </message>
    <message>
        <source>%L1 ms</source>
        <translation>%L1 毫秒</translation>
    </message>
    <message>
        <source>Stage %1 idles %L2 ms per step (its bubble, as the cost model counts it)</source>
        <translation>第 %1 级每步空闲 %L2 ms（按成本模型计算的气泡）</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>第 %1 级</translation>
    </message>
    <message>
        <source>Stage %1: forward of micro-batch %2, chunk %3</source>
        <translation>第 %1 级：微批次 %2 的前向，分块 %3</translation>
    </message>
    <message>
        <source>Stage %1: backward of micro-batch %2, chunk %3</source>
        <translation>第 %1 级：微批次 %2 的反向，分块 %3</translation>
    </message>
    <message>
        <source>Stage %1 sends micro-batch %2 on</source>
        <translation>第 %1 级发送微批次 %2</translation>
    </message>
    <message>
        <source>Stage %1: gradient reduction (exposed part)</source>
        <translation>第 %1 级：梯度归约（暴露部分）</translation>
    </message>
    <message>
        <source>Stage %1: optimizer update</source>
        <translation>第 %1 级：优化器更新</translation>
    </message>
    <message>
        <source>, %L1 – %L2 ms</source>
        <translation>，%L1 – %L2 ms</translation>
    </message>
    <message>
        <source>The steady state in between repeats the same pattern; %L1 ms of it are not drawn.</source>
        <translation>中间的稳态重复相同的模式；其中 %L1 ms 未绘制。</translation>
    </message>
    <message>
        <source>⋯ steady state, %L1 ms not drawn ⋯</source>
        <translation>⋯ 稳态，%L1 ms 未绘制 ⋯</translation>
    </message>
    <message>
        <source>cost model: %L1 ms</source>
        <translation>成本模型：%L1 ms</translation>
    </message>
    <message>
        <source>Save Timeline</source>
        <translation>保存时间线</translation>
    </message>
    <message>
        <source>SVG pictures (*.svg);;PNG pictures (*.png)</source>
        <translation>SVG 图片 (*.svg);;PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Could Not Save Timeline</source>
        <translation>无法保存时间线</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanCompareView</name>
    <message>
        <source>Plan A:</source>
        <translation>方案 A：</translation>
    </message>
    <message>
        <source>Plan B:</source>
        <translation>方案 B：</translation>
    </message>
    <message>
        <source>Choose two plans of the model to compare.</source>
        <translation>请选择该模型的两个方案进行比较。</translation>
    </message>
    <message>
        <source>These plans cannot be compared: %1 %2</source>
        <translation>无法比较这些方案：%1 %2</translation>
    </message>
    <message numerus="yes">
        <source>B − A: step %1 ms (compute %2 ms, communication %3 ms), memory %4 GB per device; %n node(s) differ%5.</source>
        <translation>
            <numerusform>B − A：步长 %1 ms（计算 %2 ms，通信 %3 ms），每设备内存 %4 GB；%n 个节点不同%5。</numerusform>
        </translation>
    </message>
    <message>
        <source> (the meshes differ)</source>
        <translation>（网格不同）</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanDiffModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Strategy in A</source>
        <translation>A 中的策略</translation>
    </message>
    <message>
        <source>Strategy in B</source>
        <translation>B 中的策略</translation>
    </message>
    <message>
        <source>Δ step (ms)</source>
        <translation>Δ 步长 (ms)</translation>
    </message>
    <message>
        <source>Δ memory (GB)</source>
        <translation>Δ 内存 (GB)</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <comment>a repeated block&apos;s position and how many of its instances changed</comment>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>%1: the same change in %2 instances of the repeated block; the deltas are their sum</source>
        <translation>%1：重复块的 %2 个实例中的相同更改；差值为它们的总和</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanEditPanel</name>
    <message>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <source>Megatron-LM with sequence parallelism</source>
        <translation>Megatron-LM（序列并行）</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan file…</source>
        <translation>Hugging Face tp_plan 文件…</translation>
    </message>
    <message>
        <source>Start Over From</source>
        <translation>重新开始自</translation>
    </message>
    <message>
        <source>Replace the plan by an expert annotation, then override parts of it</source>
        <translation>用专家注解替换方案，然后覆盖其中部分选择</translation>
    </message>
    <message>
        <source>A position in a repeated block (# stands for every instance) or a node outside blocks</source>
        <translation>重复块中的某个位置（# 代表每个实例）或块外的节点</translation>
    </message>
    <message>
        <source>&amp;Apply Strategy</source>
        <translation>应用策略(&amp;A)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Pin and &amp;Complete the Rest</source>
        <translation>固定并补全其余部分(&amp;C)</translation>
    </message>
    <message>
        <source>Search the other nodes again with the edited ones fixed</source>
        <translation>在固定已编辑节点的情况下重新搜索其余节点</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Node:</source>
        <translation>节点：</translation>
    </message>
    <message>
        <source>Completing the plan around the pinned choices…</source>
        <translation>正在围绕固定的选择补全方案…</translation>
    </message>
    <message>
        <source>Open a plan from the search results or the history, or start from an expert plan.</source>
        <translation>请从搜索结果或历史记录中打开一个方案，或从专家方案开始。</translation>
    </message>
    <message>
        <source> (does not fit)</source>
        <translation>（放不下）</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n node(s)</source>
        <translation>
            <numerusform>%1，%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Pricing the strategies of %1…</source>
        <translation>正在计算 %1 各策略的成本…</translation>
    </message>
    <message numerus="yes">
        <source>%n strategy(ies) priced.</source>
        <translation>
            <numerusform>已计算 %n 个策略的成本。</numerusform>
        </translation>
    </message>
    <message>
        <source>Set %1 to %2.</source>
        <translation>已将 %1 设为 %2。</translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation>撤销 %1</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>重做 %1</translation>
    </message>
    <message>
        <source>The strategies of %1 could not be priced: %2</source>
        <translation>无法为 %1 的策略计算成本：%2</translation>
    </message>
    <message>
        <source>Each strategy splits the node&apos;s tensors over the mesh axes (dp, tp, ...); the row says the step time and memory the plan would have with it.</source>
        <translation>每种策略把该节点的张量沿网格轴（dp、tp……）切分；每行给出采用它时方案的步时间和内存。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2: step %L3 ms (%4), memory %L5 GB per device%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 于 %2：步 %L3 ms（%4），每设备内存 %L5 GB%6</translation>
    </message>
    <message>
        <source>%1; %2.</source>
        <translation>%1；%2。</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanEditor</name>
    <message>
        <source>Set %1</source>
        <translation>设置 %1</translation>
    </message>
    <message>
        <source>The completion failed: %1</source>
        <translation>补全失败：%1</translation>
    </message>
    <message>
        <source>No plan completes the pinned choices: %1</source>
        <translation>没有方案能在固定选择下补全：%1</translation>
    </message>
    <message>
        <source>Complete the rest</source>
        <translation>补全其余部分</translation>
    </message>
    <message>
        <source>Completion cancelled; the best plan found so far is shown.</source>
        <translation>补全已取消；显示目前找到的最佳方案。</translation>
    </message>
    <message numerus="yes">
        <source>Completed the plan around %n pinned choice(s).</source>
        <translation>
            <numerusform>已围绕 %n 个固定选择补全方案。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PlanInspector</name>
    <message>
        <source>Open a plan from the search results to inspect it.</source>
        <translation>从搜索结果中打开一个方案以查看详情。</translation>
    </message>
    <message>
        <source>Show the nodes of one repeated block (all its instances)</source>
        <translation>显示某个重复块的节点（包括其所有实例）</translation>
    </message>
    <message>
        <source>Filter nodes by name…</source>
        <translation>按名称筛选节点…</translation>
    </message>
    <message>
        <source>Block:</source>
        <translation>块：</translation>
    </message>
    <message>
        <source>All nodes</source>
        <translation>所有节点</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>Outside repeated blocks</source>
        <translation>重复块之外</translation>
    </message>
    <message numerus="yes">
        <source>%Ln node(s) shown: compute %L1 ms, communication %L2 ms, memory %L3 GB</source>
        <translation>
            <numerusform>显示 %Ln 个节点：计算 %L1 ms，通信 %L2 ms，内存 %L3 GB</numerusform>
        </translation>
    </message>
    <message>
        <source>batch %L1</source>
        <translation>批次 %L1</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>%L1 tokens</source>
        <translation>%L1 个 token</translation>
    </message>
    <message>
        <source>micro-batch %L1</source>
        <translation>微批次 %L1</translation>
    </message>
    <message>
        <source>no micro-batches</source>
        <translation>无微批次</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>no recomputation</source>
        <translation>无重计算</translation>
    </message>
    <message>
        <source>Priced for %1 × %2, %3, %4, ZeRO stage %5</source>
        <translation>按 %1 × %2、%3、%4、ZeRO 阶段 %5 计价</translation>
    </message>
    <message>
        <source> (HSDP: %1 replicas of a shard group)</source>
        <translation>（HSDP：分片组的 %1 个副本）</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Pipeline Schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <source>Ring Attention and All-to-Alls</source>
        <translation>环形注意力与 all-to-all</translation>
    </message>
    <message>
        <source>Per device and step, as the cost model counts them: ring attention %1 ms (%2 ms of it hidden under the attention of the chunk in hand), Ulysses all-to-alls %3 ms, expert all-to-alls %4 ms (these two never hidden). In %5: ring attention %6 ms, Ulysses %7 ms, experts %8 ms.</source>
        <translation>每设备每步，按成本模型的计数：环形注意力 %1 ms（其中 %2 ms 隐藏在当前分块的注意力计算之下），Ulysses all-to-all %3 ms，专家 all-to-all %4 ms（后两者从不隐藏）。在 %5 中：环形注意力 %6 ms，Ulysses %7 ms，专家 %8 ms。</translation>
    </message>
    <message>
        <source>, %1</source>
        <translation>，%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) on %3: step %L4 ms%5, peak memory %L6 GB per device</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）于 %3：步 %L4 ms%5，每设备峰值内存 %L6 GB</translation>
    </message>
    <message numerus="yes">
        <source>%Ln node(s) shown: compute %L1 ms and communication %L2 ms summed over the %4 stages; peak memory %L3 GB per device (the busiest stage)</source>
        <translation>
            <numerusform>显示 %Ln 个节点：计算 %L1 ms、通信 %L2 ms（%4 级之和）；每设备峰值内存 %L3 GB（最满的一级）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PlanSearchJob</name>
    <message>
        <source>Grouping decisions</source>
        <translation>正在分组决策</translation>
    </message>
    <message>
        <source>Searching</source>
        <translation>正在搜索</translation>
    </message>
    <message>
        <source>Looking for the smallest peak memory</source>
        <translation>正在寻找最小峰值内存</translation>
    </message>
    <message>
        <source>Finding alternatives that use less memory</source>
        <translation>正在寻找内存更少的备选方案</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Searching the whole graph for comparison</source>
        <translation>正在搜索整个图以作比较</translation>
    </message>
    <message>
        <source>Searching without context or expert parallelism, to compare</source>
        <translation>正在不使用上下文或专家并行进行搜索以作比较</translation>
    </message>
    <message>
        <source>Pricing the expert plans</source>
        <translation>正在评估专家方案</translation>
    </message>
    <message>
        <source>Search cancelled after %1; the best plans found so far are kept.</source>
        <translation>搜索在 %1 后取消；保留目前找到的最佳方案。</translation>
    </message>
    <message>
        <source>No searched plan fits in the memory limit (%1).</source>
        <translation>没有搜索到的方案能放入内存上限（%1）。</translation>
    </message>
    <message>
        <source>Search finished in %1.</source>
        <translation>搜索完成，用时 %1。</translation>
    </message>
    <message>
        <source>The search stopped with an unexpected error.</source>
        <translation>搜索因意外错误而停止。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 of %2 meshes searched · %3: %4</source>
        <translation>已搜索 %1/%2 个网格 · %3：%4</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanWorkbench</name>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>alternative</source>
        <translation>备选</translation>
    </message>
    <message>
        <source>best so far</source>
        <translation>目前最佳</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>%1 %2 %3, %L4 ms</source>
        <translation>%1 %2 %3，%L4 ms</translation>
    </message>
    <message>
        <source>Plan Editor</source>
        <translation>方案编辑器</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Compare Plans</source>
        <translation>比较方案</translation>
    </message>
    <message>
        <source>Start From a Hugging Face tp_plan</source>
        <translation>从 Hugging Face tp_plan 开始</translation>
    </message>
    <message>
        <source>tp_plan files (*.json *.py);;All files (*)</source>
        <translation>tp_plan 文件 (*.json *.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could Not Compare</source>
        <translation>无法比较</translation>
    </message>
    <message>
        <source>&amp;Undo Edit</source>
        <translation>撤销编辑(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo Edit</source>
        <translation>重做编辑(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Compare With Origin</source>
        <translation>与原方案比较(&amp;C)</translation>
    </message>
    <message>
        <source>Compare the plan being edited with the plan it started from</source>
        <translation>将正在编辑的方案与其起始方案进行比较</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Open Plan File…</source>
        <translation>打开方案文件(&amp;O)…</translation>
    </message>
    <message>
        <source>Open Plan</source>
        <translation>打开方案</translation>
    </message>
    <message>
        <source>&amp;Save View as SVG/PNG…</source>
        <translation>将视图另存为 SVG/PNG(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Fit Graph</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>started from</source>
        <translation>起始</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <source>Open a model and wait until it is folded first.</source>
        <translation>请先打开模型并等待折叠完成。</translation>
    </message>
    <message>
        <source>Could Not Start From the Expert Plan</source>
        <translation>无法从专家方案开始</translation>
    </message>
    <message>
        <source>Started from %1.</source>
        <translation>已从 %1 开始。</translation>
    </message>
    <message numerus="yes">
        <source>Started from %1 (%n warning(s): %2).</source>
        <translation>
            <numerusform>已从 %1 开始（%n 条警告：%2）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Could Not Open Plan</source>
        <translation>无法打开方案</translation>
    </message>
    <message>
        <source>Could not open %1: %2 %3</source>
        <translation>无法打开 %1：%2 %3</translation>
    </message>
    <message>
        <source>Could not open %1: open its model first and wait until it is folded.</source>
        <translation>无法打开 %1：请先打开其模型并等待折叠完成。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Opened plan %1.</source>
        <translation>已打开方案 %1。</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Could not open plan #%1: %2 %3</source>
        <translation>无法打开方案 #%1：%2 %3</translation>
    </message>
    <message>
        <source>Edit a plan first: it is compared with the plan it started from.</source>
        <translation>请先编辑一个方案：它会与其起始方案进行比较。</translation>
    </message>
    <message>
        <source>Open a model first.</source>
        <translation>请先打开一个模型。</translation>
    </message>
    <message>
        <source>Could Not Export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Re-costed plan #%1 as plan #%2.</source>
        <translation>已将方案 #%1 重新计算为方案 #%2。</translation>
    </message>
    <message>
        <source>Could Not Re-cost</source>
        <translation>无法重新计算成本</translation>
    </message>
    <message>
        <source>Could not re-cost plan #%1: %2 %3</source>
        <translation>无法重新计算方案 #%1 的成本：%2 %3</translation>
    </message>
    <message>
        <source>opened</source>
        <translation>已打开</translation>
    </message>
    <message>
        <source>Plan #%1 was made for %2, which is not there any more.</source>
        <translation>计划 #%1 是为 %2 创建的，该文件已不存在。</translation>
    </message>
    <message>
        <source>Opening %1 for plan #%2…</source>
        <translation>正在为计划 #%2 打开 %1…</translation>
    </message>
    <message>
        <source>Plans, tp_plans, Megatron-LM arguments, torchtitan configs and ONNX exports (*.json *.py *.sh *.toml *.onnx);;All files (*)</source>
        <translation>方案、tp_plan、Megatron-LM 参数、torchtitan 配置与 ONNX 导出 (*.json *.py *.sh *.toml *.onnx);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>tapestry::PresetDialog</name>
    <message>
        <source>New Model from Preset</source>
        <translation>从预设新建模型</translation>
    </message>
    <message>
        <source>as published</source>
        <translation>按公开配置</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>The model is written with its shapes only (no weights) and opened like a file.</source>
        <translation>模型只写入形状（不含权重），并像文件一样打开。</translation>
    </message>
    <message>
        <source>%1: %2 layers, width %3.</source>
        <translation>%1：%2 层，宽度 %3。</translation>
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
<context>
    <name>tapestry::SearchResultsModel</name>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <source>Megatron-LM + sequence parallel</source>
        <translation>Megatron-LM + 序列并行</translation>
    </message>
    <message>
        <source>Context parallel (ring attention)</source>
        <translation>上下文并行（环形注意力）</translation>
    </message>
    <message>
        <source>Context parallel (Ulysses)</source>
        <translation>上下文并行（Ulysses）</translation>
    </message>
    <message>
        <source>Searched: fastest</source>
        <translation>搜索所得：最快</translation>
    </message>
    <message>
        <source>Expert reference</source>
        <translation>专家参考</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 GB of %2 GB per device</source>
        <translation>每设备 %1 GB / %2 GB</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Mesh</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Step (ms)</source>
        <translation>步骤（ms）</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>内存（GB）</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>可容纳</translation>
    </message>
    <message>
        <source>Expert plan</source>
        <translation>专家方案</translation>
    </message>
    <message>
        <source>Searched</source>
        <translation>搜索所得</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>Searched: least memory (none fits)</source>
        <translation>搜索所得：内存最少（均不满足限制）</translation>
    </message>
    <message>
        <source>Searched: dominated by %1</source>
        <translation>搜索所得：劣于 %1</translation>
    </message>
    <message>
        <source>Searched: Pareto alternative</source>
        <translation>搜索所得：帕累托备选</translation>
    </message>
    <message>
        <source>Best so far (provisional)</source>
        <translation>目前最佳（暂定）</translation>
    </message>
    <message>
        <source>%1
Model FLOPs (3 × forward, recomputation not counted) over the step time and the peak of every GPU of the mesh.</source>
        <translation>%1
模型 FLOPs（3 × 前向，不计重算）除以步时间与网格中所有 GPU 的峰值。</translation>
    </message>
    <message>
        <source>Compute %1 ms, communication %2 ms (%3 ms of it hidden under compute)</source>
        <translation>计算 %1 ms，通信 %2 ms（其中 %3 ms 被计算掩盖）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Model FLOPs utilization: the model&apos;s FLOPs per step over the step time and the GPUs&apos; peak</source>
        <translation>模型 FLOPs 利用率：每步模型 FLOPs 除以步时间与 GPU 峰值</translation>
    </message>
    <message>
        <source>Tokens per second per GPU</source>
        <translation>每 GPU 每秒 token 数</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <source>Searched: best of its mesh</source>
        <translation>搜索：其网格上的最优</translation>
    </message>
    <message>
        <source>%1 +%2</source>
        <comment>a mesh and how many more meshes gave the same plan</comment>
        <translation>%1 +%2</translation>
    </message>
    <message>
        <source>One plan on the devices, at the same price, found on %1 meshes (by the search or as the mesh&apos;s expert layout): %2</source>
        <translation>在设备上是同一个方案，代价相同，在 %1 个网格上找到（由搜索找到，或作为该网格的专家布局）：%2</translation>
    </message>
</context>
<context>
    <name>tapestry::SearchResultsPanel</name>
    <message>
        <source>Press Start Search (F5) to search plans for the model on screen.</source>
        <translation>按“开始搜索”（F5）为当前模型搜索方案。</translation>
    </message>
    <message>
        <source>Click a plan to inspect it.</source>
        <translation>点击方案以查看详情。</translation>
    </message>
    <message>
        <source>Click a point to inspect its plan.</source>
        <translation>点击数据点以查看其方案。</translation>
    </message>
    <message>
        <source>Searching for a plan that fits in %L1 GB per device… none found yet.</source>
        <translation>正在搜索每设备不超过 %L1 GB 的方案……尚未找到。</translation>
    </message>
    <message>
        <source>context parallelism</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>expert parallelism</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it the search finds no plan on %3.</source>
        <translation>为何使用%1（度 %2）：不使用它，搜索在 %3 上找不到计划。</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it no plan on %3 fits; the closest (%6) needs %L4 GB of the %L5 GB.</source>
        <translation>为何使用%1（度 %2）：不使用它，%3 上没有计划能放下；最接近的（%6）需要 %L4 GB（上限 %L5 GB）。</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it the best plan on %3 (%6) takes %L4 ms, %L5 % longer.</source>
        <translation>为何使用%1（度 %2）：不使用它，%3 上的最佳计划（%6）需要 %L4 ms，慢 %L5 %。</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n plan(s) price above the GPU&apos;s peak (MFU over 100 %): a defect of the cost model, not a result; do not trust their step times.</source>
        <translation>
            <numerusform>⚠ %n 个计划的定价超过 GPU 峰值（MFU 超过 100 %）：这是成本模型的缺陷而非结果；请勿相信其步时间。</numerusform>
        </translation>
    </message>
    <message>
        <source>Searching… the fastest plan so far that fits: %L1 ms on %2 (provisional: the search prices its final plans again and the best one can differ).</source>
        <translation>搜索中…目前可容纳的最快计划：%2 上 %L1 ms（暂定：搜索会重新为最终计划定价，最佳结果可能不同）。</translation>
    </message>
    <message>
        <source>Why this plan</source>
        <translation>为何选择此方案</translation>
    </message>
    <message>
        <source>Step vs. memory</source>
        <translation>步时间与内存</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingProblemLoader</name>
    <message>
        <source>Reading the problem stopped with an unexpected error.</source>
        <translation>读取问题时发生意外错误而中止。</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingProblemWindow</name>
    <message>
        <source>%1 — Sharding Problem — Tapestry</source>
        <translation>%1 — 分片问题 — Tapestry</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>节点：</translation>
    </message>
    <message>
        <source>Edges:</source>
        <translation>边：</translation>
    </message>
    <message>
        <source>Time points:</source>
        <translation>时间点：</translation>
    </message>
    <message>
        <source>Usage limit:</source>
        <translation>用量上限：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Solution</source>
        <translation>解</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Total cost:</source>
        <translation>总成本：</translation>
    </message>
    <message>
        <source>Node costs:</source>
        <translation>节点成本：</translation>
    </message>
    <message>
        <source>Edge costs:</source>
        <translation>边成本：</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>内存：</translation>
    </message>
    <message>
        <source>Peak usage:</source>
        <translation>峰值用量：</translation>
    </message>
    <message>
        <source>&amp;Solve</source>
        <translation>求解(&amp;S)</translation>
    </message>
    <message>
        <source>Solve the problem in the background within the time limit (F5)</source>
        <translation>在时间限制内于后台求解问题 (F5)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the solver and keep the best solution found so far (Esc)</source>
        <translation>停止求解器并保留目前找到的最佳解 (Esc)</translation>
    </message>
    <message>
        <source>&amp;Load Solution…</source>
        <translation>加载解(&amp;L)…</translation>
    </message>
    <message>
        <source>Save Solution &amp;As…</source>
        <translation>解另存为(&amp;A)…</translation>
    </message>
    <message>
        <source> s</source>
        <comment>seconds after a number</comment>
        <translation> 秒</translation>
    </message>
    <message>
        <source>How long the solver may search</source>
        <translation>求解器可搜索的时长</translation>
    </message>
    <message>
        <source>&amp;Solution</source>
        <translation>解(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation>关闭窗口(&amp;C)</translation>
    </message>
    <message>
        <source>Solve</source>
        <translation>求解</translation>
    </message>
    <message>
        <source>Time limit:</source>
        <translation>时间限制：</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Solving: %L1 s, best cost %L2</source>
        <translation>求解中：%L1 秒，最佳成本 %L2</translation>
    </message>
    <message>
        <source>Solver, cancelled after %L1 s</source>
        <translation>求解器，%L1 秒后取消</translation>
    </message>
    <message>
        <source>Solver, %L1 s</source>
        <translation>求解器，%L1 秒</translation>
    </message>
    <message>
        <source>%1, proven optimal</source>
        <translation>%1，已证明最优</translation>
    </message>
    <message>
        <source>%1, within %L2 % of the optimum</source>
        <translation>%1，与最优解相差不超过 %L2 %</translation>
    </message>
    <message>
        <source>Solved: cost %1.</source>
        <translation>已求解：成本 %1。</translation>
    </message>
    <message>
        <source>The solver failed: %1</source>
        <translation>求解器失败：%1</translation>
    </message>
    <message>
        <source>Could Not Solve</source>
        <translation>无法求解</translation>
    </message>
    <message>
        <source>Could not solve %1.</source>
        <translation>无法求解 %1。</translation>
    </message>
    <message>
        <source>None yet: solve, or load a solution file.</source>
        <translation>暂无：请求解，或加载解文件。</translation>
    </message>
    <message>
        <source>Fits the limit</source>
        <translation>符合上限</translation>
    </message>
    <message>
        <source>No limit to fit</source>
        <translation>无需满足上限</translation>
    </message>
    <message>
        <source>Over the limit: first at time point %L1 (usage %2)</source>
        <translation>超出上限：首次在时间点 %L1（用量 %2）</translation>
    </message>
    <message>
        <source>Load Solution</source>
        <translation>加载解</translation>
    </message>
    <message>
        <source>Solutions (*.txt *.out *.sol);;All files (*)</source>
        <translation>解 (*.txt *.out *.sol);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Solution</source>
        <translation>保存解</translation>
    </message>
    <message>
        <source>Solutions (*.txt);;All files (*)</source>
        <translation>解 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>文件 %1</translation>
    </message>
    <message>
        <source>Loaded the solution in %1.</source>
        <translation>已从 %1 加载解。</translation>
    </message>
    <message>
        <source>The last line of the file is not a solution of this problem: it must list one strategy per node, like [0, 2, 1].</source>
        <translation>文件的最后一行不是此问题的解：它必须为每个节点列出一个策略，例如 [0, 2, 1]。</translation>
    </message>
    <message>
        <source>Could Not Load Solution</source>
        <translation>无法加载解</translation>
    </message>
    <message>
        <source>Could not load a solution from %1.</source>
        <translation>无法从 %1 加载解。</translation>
    </message>
    <message>
        <source>Saved the solution to %1.</source>
        <translation>已将解保存到 %1。</translation>
    </message>
    <message>
        <source>Could Not Save Solution</source>
        <translation>无法保存解</translation>
    </message>
    <message>
        <source>Could not save the solution to %1.</source>
        <translation>无法将解保存到 %1。</translation>
    </message>
    <message>
        <source>Solving: %L1 s, searching for a plan within the limit…</source>
        <translation>求解中：%L1 秒，正在搜索满足限制的方案……</translation>
    </message>
    <message>
        <source>Solve Running</source>
        <translation>求解进行中</translation>
    </message>
    <message>
        <source>The solver is still running. Cancel it and close the window?</source>
        <translation>求解器仍在运行。要取消并关闭窗口吗？</translation>
    </message>
    <message>
        <source>Cancel Solve and Close</source>
        <translation>取消求解并关闭</translation>
    </message>
    <message>
        <source>Keep Solving</source>
        <translation>继续求解</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingSolveJob</name>
    <message>
        <source>The solver stopped with an unexpected error.</source>
        <translation>求解器因意外错误而停止。</translation>
    </message>
</context>
<context>
    <name>tapestry::SolveProgressChart</name>
    <message>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Best cost so far</source>
        <translation>目前最佳成本</translation>
    </message>
    <message>
        <source>Best cost so far; lower bound, gap %L1 %</source>
        <translation>目前最佳成本；下界，差距 %L1 %</translation>
    </message>
    <message>
        <source>Searching for a plan within the limit…</source>
        <translation>正在搜索满足限制的方案……</translation>
    </message>
</context>
<context>
    <name>tapestry::StageBoundaryEditor</name>
    <message>
        <source>A boundary between two consecutive chunks of the pipeline</source>
        <translation>流水线中两个相邻分块之间的边界</translation>
    </message>
    <message>
        <source>The model&apos;s repeated blocks count from 0; the embedding runs with the first chunk, the head with the last. The plan is re-costed at once.</source>
        <translation>模型的重复块从 0 开始编号；嵌入层随第一个分块运行，输出头随最后一个。计划会立即重新计算成本。</translation>
    </message>
    <message>
        <source>Stage boundary:</source>
        <translation>级边界：</translation>
    </message>
    <message>
        <source>starts at block</source>
        <translation>起始块</translation>
    </message>
    <message>
        <source>Chunk %1 | %2 (stage %3 → %4)</source>
        <translation>分块 %1 | %2（第 %3 级 → 第 %4 级）</translation>
    </message>
    <message>
        <source>Stage %1 | %2</source>
        <translation>第 %1 级 | 第 %2 级</translation>
    </message>
    <message>
        <source>(%1 | %2 blocks)</source>
        <translation>（%1 | %2 个块）</translation>
    </message>
    <message>
        <source>Move %1 to block %2</source>
        <translation>将 %1 移到块 %2</translation>
    </message>
</context>
<context>
    <name>tapestry::StartupScript</name>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: no search was started.</source>
        <translation>未知的集群预设“%1”：未开始搜索。</translation>
    </message>
    <message>
        <source>The mesh %1 does not fit the cluster&apos;s GPUs: no search was started.</source>
        <translation>网格 %1 与集群的 GPU 不符：未开始搜索。</translation>
    </message>
</context>
<context>
    <name>tapestry::StrategyChoicesModel</name>
    <message>
        <source>Strategy (%1)</source>
        <translation>策略（%1）</translation>
    </message>
    <message>
        <source>Δ step (ms)</source>
        <translation>Δ 步长 (ms)</translation>
    </message>
    <message>
        <source>Δ memory (GB)</source>
        <translation>Δ 内存 (GB)</translation>
    </message>
    <message>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>The split of the node&apos;s tensors on each mesh axis</source>
        <translation>节点张量在每个网格轴上的切分</translation>
    </message>
    <message>
        <source>The plan&apos;s step time with this strategy (ms)</source>
        <translation>采用此策略时计划的步时间（ms）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>The plan&apos;s peak memory per device with this strategy (GB)</source>
        <translation>采用此策略时计划的每设备峰值内存（GB）</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>Does not fit in the GPU&apos;s %L1 GB.</source>
        <translation>放不进 GPU 的 %L1 GB。</translation>
    </message>
</context>
<context>
    <name>tapestry::StrategyText</name>
    <message>
        <source>%1: ring attention, keys and values passed around the axis</source>
        <translation>%1：环形注意力，键和值沿该轴环形传递</translation>
    </message>
    <message>
        <source>%1: the experts spread over the axis, tokens sent by all-to-alls</source>
        <translation>%1：专家分布在该轴上，token 通过 all-to-all 发送</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>隐藏维</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>conv</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>batched-matmul</source>
        <translation>批量矩阵乘</translation>
    </message>
    <message>
        <source>normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>elementwise</source>
        <translation>逐元素</translation>
    </message>
</context>
<context>
    <name>tapestry::UsageProfileChart</name>
    <message>
        <source>Time point</source>
        <translation>时间点</translation>
    </message>
    <message>
        <source>Memory usage</source>
        <translation>内存用量</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Range within %L1 time points</source>
        <translation>%L1 个时间点内的范围</translation>
    </message>
    <message>
        <source>Usage limit %1</source>
        <translation>用量上限 %1</translation>
    </message>
    <message>
        <source>Peak %1 at time point %L2</source>
        <translation>峰值 %1，位于时间点 %L2</translation>
    </message>
    <message>
        <source>First overload at time point %L1</source>
        <translation>首次超限于时间点 %L1</translation>
    </message>
    <message>
        <source>Memory over time: peak %1 of %2</source>
        <translation>内存随时间变化：峰值 %1 / %2</translation>
    </message>
    <message>
        <source>Memory over time: peak %1 (no limit)</source>
        <translation>内存随时间变化：峰值 %1（无上限）</translation>
    </message>
</context>
</TS>
