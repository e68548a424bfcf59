<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ErrorText</name>
    <message>
        <source>The file does not exist.</source>
        <translation>Die Datei existiert nicht.</translation>
    </message>
    <message>
        <source>This is not a regular file; it may be a folder.</source>
        <translation>Dies ist keine normale Datei; vielleicht ist es ein Ordner.</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>Die Datei ist leer.</translation>
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation>Die Datei konnte nicht gelesen werden.</translation>
    </message>
    <message>
        <source>The file could not be written.</source>
        <translation>Die Datei konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>The file is not an ONNX model.</source>
        <translation>Die Datei ist kein ONNX-Modell.</translation>
    </message>
    <message>
        <source>The file ends too early; it may be incomplete or still downloading.</source>
        <translation>Die Datei endet zu früh; sie ist vielleicht unvollständig oder wird noch heruntergeladen.</translation>
    </message>
    <message>
        <source>The model uses an ONNX IR version that Tapestry does not support.</source>
        <translation>Das Modell verwendet eine ONNX-IR-Version, die Tapestry nicht unterstützt.</translation>
    </message>
    <message>
        <source>The model is not a valid ONNX graph.</source>
        <translation>Das Modell ist kein gültiger ONNX-Graph.</translation>
    </message>
    <message>
        <source>The tensor shapes of the model could not be inferred.</source>
        <translation>Die Tensorformen des Modells konnten nicht abgeleitet werden.</translation>
    </message>
    <message>
        <source>Some tensors that Tapestry needs have no known shape.</source>
        <translation>Einige Tensoren, die Tapestry braucht, haben keine bekannte Form.</translation>
    </message>
    <message>
        <source>An argument is not valid.</source>
        <translation>Ein Argument ist ungültig.</translation>
    </message>
    <message>
        <source>An unknown error occurred.</source>
        <translation>Ein unbekannter Fehler ist aufgetreten.</translation>
    </message>
    <message>
        <source>The file is not valid JSON.</source>
        <translation>Die Datei ist kein gültiges JSON.</translation>
    </message>
    <message>
        <source>The cluster description is not valid.</source>
        <translation>Die Clusterbeschreibung ist ungültig.</translation>
    </message>
    <message>
        <source>The device mesh is not valid.</source>
        <translation>Das Gerätegitter ist ungültig.</translation>
    </message>
    <message>
        <source>The file is not an nccl-tests log that Tapestry can read.</source>
        <translation>Die Datei ist kein nccl-tests-Protokoll, das Tapestry lesen kann.</translation>
    </message>
    <message>
        <source>The plan does not fit this model or mesh.</source>
        <translation>Der Plan passt nicht zu diesem Modell oder Gitter.</translation>
    </message>
    <message>
        <source>The file is not a valid sharding problem.</source>
        <translation>Die Datei ist kein gültiges Sharding-Problem.</translation>
    </message>
    <message>
        <source>No choice of strategies fits the memory limit; the problem has no solution.</source>
        <translation>Keine Strategiewahl hält die Speichergrenze ein; das Problem hat keine Lösung.</translation>
    </message>
    <message>
        <source>The file is not a Tapestry history database, or it is damaged. It was left unchanged.</source>
        <translation>Die Datei ist keine Tapestry-Verlaufsdatenbank oder sie ist beschädigt. Sie wurde nicht verändert.</translation>
    </message>
    <message>
        <source>The history database is busy: another Tapestry window or command is writing to it.</source>
        <translation>Die Verlaufsdatenbank ist belegt: Ein anderes Tapestry-Fenster oder ein anderer Befehl schreibt gerade hinein.</translation>
    </message>
    <message>
        <source>The history database is read-only.</source>
        <translation>Die Verlaufsdatenbank ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>The history database was written by a newer Tapestry. It was left unchanged.</source>
        <translation>Die Verlaufsdatenbank wurde von einer neueren Tapestry-Version geschrieben. Sie wurde nicht verändert.</translation>
    </message>
    <message>
        <source>The history has no such run or plan.</source>
        <translation>Der Verlauf enthält keinen solchen Lauf und keinen solchen Plan.</translation>
    </message>
    <message>
        <source>Other plans were derived from this plan.</source>
        <translation>Andere Pläne wurden von diesem Plan abgeleitet.</translation>
    </message>
</context>
<context>
    <name>GraphNodeDetails</name>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>Ops</translation>
    </message>
    <message>
        <source>weight %1</source>
        <translation>Gewicht %1</translation>
    </message>
    <message>
        <source>Anchor</source>
        <translation>Anker</translation>
    </message>
    <message>
        <source>… and %L1 more ops</source>
        <translation>… und %L1 weitere Ops</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>Instanzen</translation>
    </message>
    <message>
        <source>First</source>
        <translation>Erste</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>Letzte</translation>
    </message>
    <message>
        <source>Coarse nodes each</source>
        <translation>Grobknoten je Instanz</translation>
    </message>
    <message>
        <source>Anchors</source>
        <translation>Anker</translation>
    </message>
    <message>
        <source>Near misses</source>
        <translation>Beinahe gleiche Blöcke</translation>
    </message>
    <message>
        <source>Double-click to expand the representative block.</source>
        <translation>Doppelklick klappt den repräsentativen Block auf.</translation>
    </message>
    <message>
        <source>Direct ops</source>
        <translation>Direkte Ops</translation>
    </message>
    <message>
        <source>Child scopes</source>
        <translation>Untergeordnete Bereiche</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>Op-Typen</translation>
    </message>
    <message>
        <source>Double-click to expand.</source>
        <translation>Doppelklick klappt auf.</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Eingaben</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Ausgaben</translation>
    </message>
</context>
<context>
    <name>GraphViewContent</name>
    <message>
        <source>→ %1 more consumers</source>
        <translation>→ %1 weitere Verbraucher</translation>
    </message>
    <message>
        <source>%1
1 op</source>
        <translation>%1
1 Op</translation>
    </message>
    <message>
        <source>%1
%L2 ops</source>
        <translation>%1
%L2 Ops</translation>
    </message>
    <message>
        <source>%1
%2 anchors, %3 ops each</source>
        <translation>%1
%2 Anker, je %3 Ops</translation>
    </message>
</context>
<context>
    <name>QuantityFormat</name>
    <message>
        <source>%1 K</source>
        <comment>thousand, as in a parameter count</comment>
        <translation>%1 Tsd.</translation>
    </message>
    <message>
        <source>%1 M</source>
        <comment>million, as in a parameter count</comment>
        <translation>%1 Mio.</translation>
    </message>
    <message>
        <source>%1 B</source>
        <comment>billion, as in a parameter count (8.03 B parameters)</comment>
        <translation>%1 Mrd.</translation>
    </message>
    <message>
        <source>%1 T</source>
        <comment>trillion, as in a parameter count</comment>
        <translation>%1 Bio.</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Byte</translation>
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
        <translation>Plant Tensor- und Datenparallelität für große neuronale Netze.</translation>
    </message>
    <message>
        <source>ONNX model file to open.</source>
        <translation>Zu öffnende ONNX-Modelldatei.</translation>
    </message>
    <message>
        <source>[model.onnx]</source>
        <translation>[modell.onnx]</translation>
    </message>
    <message>
        <source>Save a PNG image of the main window to &lt;file&gt; once the model has loaded, then quit.</source>
        <translation>Ein PNG-Bild des Hauptfensters in &lt;datei&gt; speichern, sobald das Modell geladen ist, und dann beenden.</translation>
    </message>
    <message>
        <source>file</source>
        <translation>datei</translation>
    </message>
    <message>
        <source>Graph view to show first: scope, coarse or folded (the default).</source>
        <translation>Zuerst gezeigte Graphansicht: scope, coarse oder folded (Standard).</translation>
    </message>
    <message>
        <source>view</source>
        <translation>ansicht</translation>
    </message>
    <message>
        <source>Unknown view &apos;%1&apos;: use scope, coarse or folded.</source>
        <translation>Unbekannte Ansicht „%1“: scope, coarse oder folded verwenden.</translation>
    </message>
</context>
<context>
    <name>Translations</name>
    <message>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
</context>
<context>
    <name>tapestry::GraphViewPane</name>
    <message>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Linear</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>Faltung</translation>
    </message>
    <message>
        <source>Batched MatMul</source>
        <translation>Batch-MatMul</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>Normalisierung</translation>
    </message>
    <message>
        <source>Elementwise</source>
        <translation>Elementweise</translation>
    </message>
    <message>
        <source>Search by name…</source>
        <translation>Nach Namen suchen…</translation>
    </message>
    <message>
        <source>Highlights matching boxes; Enter shows the next one.</source>
        <translation>Hebt passende Kästen hervor; Enter zeigt den nächsten.</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+-)</source>
        <translation>Verkleinern (Strg+-)</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+=)</source>
        <translation>Vergrößern (Strg+=)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Fit the graph to the view (F)</source>
        <translation>Graph in die Ansicht einpassen (F)</translation>
    </message>
    <message>
        <source>Select a box to see its details. Double-click to expand or collapse it.</source>
        <translation>Einen Kasten auswählen, um Details zu sehen. Doppelklick klappt ihn auf oder zu.</translation>
    </message>
    <message>
        <source>Show Folded View</source>
        <translation>Gefaltete Ansicht zeigen</translation>
    </message>
    <message>
        <source>Repeated block (×N instances)</source>
        <translation>Wiederholter Block (×N Instanzen)</translation>
    </message>
    <message>
        <source>The coarse graph has %L1 nodes: too many to lay out as a readable drawing. The folded view shows the same graph with each repeated block drawn once.</source>
        <translation>Der Grobgraph hat %L1 Knoten: zu viele für eine lesbare Zeichnung. Die gefaltete Ansicht zeigt denselben Graphen, jeden wiederholten Block nur einmal.</translation>
    </message>
    <message>
        <source>%L1 coarse nodes</source>
        <translation>%L1 Grobknoten</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>Aufklappen</translation>
    </message>
    <message>
        <source>Collapse Block</source>
        <translation>Block zuklappen</translation>
    </message>
    <message>
        <source>Collapse Scope</source>
        <translation>Bereich zuklappen</translation>
    </message>
    <message>
        <source>Laying out %L1 nodes…</source>
        <translation>%L1 Knoten werden angeordnet…</translation>
    </message>
    <message>
        <source>The graph could not be laid out: %1
%2</source>
        <translation>Der Graph konnte nicht angeordnet werden: %1
%2</translation>
    </message>
    <message>
        <source>%L1 boxes, laid out in %L2 ms</source>
        <translation>%L1 Kästen, angeordnet in %L2 ms</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 Treffer</translation>
    </message>
    <message>
        <source>%L1 matches</source>
        <translation>%L1 Treffer</translation>
    </message>
</context>
<context>
    <name>tapestry::GraphViewsPanel</name>
    <message>
        <source>Original (by scope)</source>
        <translation>Original (nach Bereich)</translation>
    </message>
    <message>
        <source>Coarse</source>
        <translation>Grob</translation>
    </message>
    <message>
        <source>Folded</source>
        <translation>Gefaltet</translation>
    </message>
    <message>
        <source>Every op, grouped by module scope</source>
        <translation>Jede Operation, nach Modulbereich gruppiert</translation>
    </message>
    <message>
        <source>Ops grouped into layer-like nodes</source>
        <translation>Ops zu schichtartigen Knoten gruppiert</translation>
    </message>
    <message>
        <source>Repeated blocks drawn once, with their count</source>
        <translation>Wiederholte Blöcke einmal gezeichnet, mit ihrer Anzahl</translation>
    </message>
    <message>
        <source>Folding the model…</source>
        <translation>Modell wird gefaltet…</translation>
    </message>
    <message>
        <source>The model could not be folded: %1</source>
        <translation>Das Modell konnte nicht gefaltet werden: %1</translation>
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
        <translation>Öffnen Sie ein ONNX-Modell über Datei &gt; Öffnen, oder ziehen Sie eine .onnx-Datei hierher.</translation>
    </message>
    <message>
        <source>Module scopes</source>
        <translation>Modulbereiche</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Tapestry</source>
        <translation>Ü&amp;ber Tapestry</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>Takes effect when Tapestry starts again</source>
        <translation>Wirkt beim nächsten Start von Tapestry</translation>
    </message>
    <message>
        <source>The new language takes effect when Tapestry starts again.</source>
        <translation>Die neue Sprache wird beim nächsten Start von Tapestry wirksam.</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX-Modelle (*.onnx);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>Keine zuletzt geöffneten Dateien</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>Menü &amp;leeren</translation>
    </message>
    <message>
        <source>About Tapestry</source>
        <translation>Über Tapestry</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>%1 — Tapestry</source>
        <translation>%1 — Tapestry</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>%1 geöffnet.</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>%1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Could Not Open Model</source>
        <translation>Modell konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation>%1 konnte nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tapestry %1&lt;/h3&gt;&lt;p&gt;A plan explorer for tensor- and data-parallel training of large neural networks.&lt;/p&gt;&lt;p&gt;Open an ONNX model to see its size, its inputs and outputs, the op types it is made of and its module hierarchy.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tapestry %1&lt;/h3&gt;&lt;p&gt;Ein Planungswerkzeug für tensor- und datenparalleles Training großer neuronaler Netze.&lt;/p&gt;&lt;p&gt;Öffnen Sie ein ONNX-Modell, um seine Größe, seine Ein- und Ausgaben, die Op-Typen, aus denen es besteht, und seine Modulhierarchie zu sehen.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>tapestry::ModelLoader</name>
    <message>
        <source>The import stopped with an unexpected error.</source>
        <translation>Der Import wurde durch einen unerwarteten Fehler abgebrochen.</translation>
    </message>
</context>
<context>
    <name>tapestry::ModelSummaryView</name>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Producer:</source>
        <translation>Erzeuger:</translation>
    </message>
    <message>
        <source>Graph:</source>
        <translation>Graph:</translation>
    </message>
    <message>
        <source>ONNX IR version:</source>
        <translation>ONNX-IR-Version:</translation>
    </message>
    <message>
        <source>Opsets:</source>
        <translation>Opsets:</translation>
    </message>
    <message>
        <source>Shapes:</source>
        <translation>Formen:</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <source>Weight memory:</source>
        <translation>Gewichtsspeicher:</translation>
    </message>
    <message>
        <source>Weight tensors:</source>
        <translation>Gewichtstensoren:</translation>
    </message>
    <message>
        <source>Ops:</source>
        <translation>Ops:</translation>
    </message>
    <message>
        <source>Tensors:</source>
        <translation>Tensoren:</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>Op-Typen</translation>
    </message>
    <message>
        <source>Graph inputs and outputs</source>
        <translation>Ein- und Ausgaben des Graphen</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <source>inferred by ONNX shape inference</source>
        <translation>durch ONNX-Forminferenz abgeleitet</translation>
    </message>
    <message>
        <source>recorded in the file</source>
        <translation>in der Datei angegeben</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 Parameter</translation>
    </message>
    <message>
        <source>%1 bytes at the stored data types</source>
        <translation>%1 Byte in den gespeicherten Datentypen</translation>
    </message>
    <message>
        <source>Inputs (%1)</source>
        <translation>Eingaben (%1)</translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>Ausgaben (%1)</translation>
    </message>
</context>
<context>
    <name>tapestry::OpHistogramModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>Op-Typ</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
</context>
<context>
    <name>tapestry::ScopeTreeModel</name>
    <message>
        <source>(whole graph)</source>
        <translation>(gesamter Graph)</translation>
    </message>
    <message>
        <source>All ops of the model. Its direct ops are the ops that belong to no module scope.</source>
        <translation>Alle Ops des Modells. Seine direkten Ops sind die Ops, die zu keinem Modulbereich gehören.</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>Ops</translation>
    </message>
    <message>
        <source>Direct ops</source>
        <translation>Direkte Ops</translation>
    </message>
    <message>
        <source>Module scope, as the exporter named it</source>
        <translation>Modulbereich, wie der Exporter ihn benannt hat</translation>
    </message>
    <message>
        <source>Ops in this scope and everything below it</source>
        <translation>Ops in diesem Bereich und allem darunter</translation>
    </message>
    <message>
        <source>Ops in this scope itself, not in a child scope</source>
        <translation>Ops direkt in diesem Bereich, nicht in einem Unterbereich</translation>
    </message>
</context>
</TS>
