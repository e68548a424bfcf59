<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>AxisScale</name>
    <message>
        <source>thousands</source>
        <translation>Tausend</translation>
    </message>
    <message>
        <source>millions</source>
        <translation>Millionen</translation>
    </message>
    <message>
        <source>billions</source>
        <translation>Milliarden</translation>
    </message>
    <message>
        <source>trillions</source>
        <translation>Billionen</translation>
    </message>
    <message>
        <source>quadrillions</source>
        <translation>Billiarden</translation>
    </message>
    <message>
        <source>quintillions</source>
        <translation>Trillionen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>an axis title: quantity (unit)</comment>
        <translation>%1 (%2)</translation>
    </message>
</context>
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
        <source>The file is not a valid sharding problem.</source>
        <translation>Die Datei ist kein gültiges Sharding-Problem.</translation>
    </message>
    <message>
        <source>The file is not a valid list of measured training runs.</source>
        <translation>Die Datei ist keine gültige Liste gemessener Trainingsläufe.</translation>
    </message>
    <message>
        <source>The measured runs cannot calibrate this cluster&apos;s figures without fitting noise.</source>
        <translation>Die gemessenen Läufe können die Werte dieses Clusters nicht kalibrieren, ohne Rauschen anzupassen.</translation>
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
    <message>
        <source>The plan is not valid for this model and cluster.</source>
        <translation>Der Plan ist für dieses Modell und diesen Cluster nicht gültig.</translation>
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
    <message>
        <source>not priced</source>
        <translation>nicht bewertet</translation>
    </message>
    <message>
        <source>Not priced</source>
        <translation>Nicht bewertet</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) whose operand shapes could not be inferred</source>
        <translation>
            <numerusform>%n Op, dessen Operandenformen nicht ermittelt werden konnten</numerusform>
            <numerusform>%n Ops, deren Operandenformen nicht ermittelt werden konnten</numerusform>
        </translation>
    </message>
    <message>
        <source>its operand shapes could not be inferred</source>
        <translation>seine Operandenformen konnten nicht ermittelt werden</translation>
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
    <name>PlanExport</name>
    <message>
        <source>Tapestry plan (JSON)</source>
        <translation>Tapestry-Plan (JSON)</translation>
    </message>
    <message>
        <source>Megatron-LM arguments (shell)</source>
        <translation>Megatron-LM-Argumente (Shell)</translation>
    </message>
    <message>
        <source>torchtitan config (Python)</source>
        <translation>torchtitan-Konfiguration (Python)</translation>
    </message>
    <message>
        <source>torchtitan v0.2 job config (TOML)</source>
        <translation>torchtitan-v0.2-Jobkonfiguration (TOML)</translation>
    </message>
    <message>
        <source>PyTorch DTensor plan (Python)</source>
        <translation>PyTorch-DTensor-Plan (Python)</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan (JSON)</source>
        <translation>Hugging-Face-tp_plan (JSON)</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan (Python)</source>
        <translation>Hugging-Face-tp_plan (Python)</translation>
    </message>
    <message>
        <source>ONNX model with sharding annotations</source>
        <translation>ONNX-Modell mit Sharding-Annotationen</translation>
    </message>
    <message>
        <source>Graph view as Graphviz DOT</source>
        <translation>Graphansicht als Graphviz-DOT</translation>
    </message>
    <message>
        <source>Graph view as SVG</source>
        <translation>Graphansicht als SVG</translation>
    </message>
    <message>
        <source>Graph view as PNG</source>
        <translation>Graphansicht als PNG</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1 (*.%2)</translation>
    </message>
    <message>
        <source>Not the plan Tapestry priced: %1 does not run it as is. The file runs the nearest plan it expresses, priced %L2 ms and %L3 GB per GPU against the plan&apos;s %L4 ms and %L5 GB.</source>
        <translation>Nicht der Plan, den Tapestry bewertet hat: %1 führt ihn nicht unverändert aus. Die Datei führt den nächsten Plan aus, den es ausdrücken kann, bewertet mit %L2 ms und %L3 GB pro GPU gegenüber %L4 ms und %L5 GB des Plans.</translation>
    </message>
    <message>
        <source>It does not fit in the GPU&apos;s %L1 GB.</source>
        <translation>Er passt nicht in die %L1 GB der GPU.</translation>
    </message>
</context>
<context>
    <name>PlanOverlay</name>
    <message>
        <source>Replicated</source>
        <translation>Repliziert</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>Datenparallel</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>2D</source>
        <translation>2D</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>Hidden</source>
        <translation>Hidden-Dimension</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>Expertenparallel</translation>
    </message>
    <message>
        <source>AR AG RS A2A: collectives</source>
        <translation>AR AG RS A2A: Kollektive</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>All-Reduce</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>All-Gather</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>Reduce-Scatter</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>All-to-All</translation>
    </message>
    <message>
        <source>Plan %1</source>
        <translation>Plan %1</translation>
    </message>
    <message>
        <source>Strategy: %1 (%2)</source>
        <translation>Strategie: %1 (%2)</translation>
    </message>
    <message>
        <source>Per instance (one of the repeated blocks):</source>
        <translation>Pro Instanz (einer der wiederholten Blöcke):</translation>
    </message>
    <message>
        <source>Compute: %L1 ms</source>
        <translation>Rechnen: %L1 ms</translation>
    </message>
    <message>
        <source>Communication, %1: %L2 ms</source>
        <translation>Kommunikation, %1: %L2 ms</translation>
    </message>
    <message>
        <source>Memory: %L1 GB</source>
        <translation>Speicher: %L1 GB</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>Pipeline stage %1</source>
        <translation>Pipeline-Stufe %1</translation>
    </message>
    <message>
        <source>Context parallel attention</source>
        <translation>Kontextparallele Attention</translation>
    </message>
    <message>
        <source>Ring attention over %1: %2 ms, %L3 ms of it hidden</source>
        <translation>Ring-Attention über %1: %2 ms, davon %L3 ms verdeckt</translation>
    </message>
    <message>
        <source>Ulysses all-to-alls over %1: %2 ms</source>
        <translation>Ulysses-All-to-Alls über %1: %2 ms</translation>
    </message>
    <message>
        <source>Expert all-to-alls over %1: %2 ms</source>
        <translation>Experten-All-to-Alls über %1: %2 ms</translation>
    </message>
</context>
<context>
    <name>PlanSummary</name>
    <message>
        <source>embedding</source>
        <translation>Einbettung</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>Experten</translation>
    </message>
    <message>
        <source>convolutions</source>
        <translation>Faltungen</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>other layers</source>
        <translation>andere Schichten</translation>
    </message>
    <message>
        <source>in a node</source>
        <translation>in einem Knoten</translation>
    </message>
    <message>
        <source>across nodes</source>
        <translation>über Knoten hinweg</translation>
    </message>
    <message>
        <source>over %1 nodes</source>
        <translation>über %1 Knoten</translation>
    </message>
    <message>
        <source>replicated</source>
        <translation>repliziert</translation>
    </message>
    <message>
        <source>no recomputation</source>
        <translation>keine Neuberechnung</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>selektive Neuberechnung</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>volle Neuberechnung</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>PP %1 %2 (interleaved, %3 chunks per stage)</source>
        <translation>PP %1 %2 (verschränkt, %3 Abschnitte je Stufe)</translation>
    </message>
    <message>
        <source>PP %1 %2</source>
        <translation>PP %1 %2</translation>
    </message>
    <message>
        <source>sends overlapped with the other chunks&apos; compute</source>
        <translation>Übertragungen überlappen mit der Rechnung der anderen Abschnitte</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>kein ZeRO</translation>
    </message>
    <message>
        <source>any (study)</source>
        <translation>beliebig (Studie)</translation>
    </message>
    <message>
        <source>not runnable as is</source>
        <translation>so nicht lauffähig</translation>
    </message>
    <message>
        <source>runs as is on %1</source>
        <translation>läuft so auf %1</translation>
    </message>
    <message>
        <source>priced with %1&apos;s implementations, %2</source>
        <translation>mit den Implementierungen von %1 bewertet, %2</translation>
    </message>
</context>
<context>
    <name>PlanThroughput</name>
    <message>
        <source>MFU %L1 %, %L2 tokens/s per GPU</source>
        <translation>MFU %L1 %, %L2 Tokens/s pro GPU</translation>
    </message>
    <message>
        <source> — above the GPU&apos;s peak: a pricing defect</source>
        <translation> — über der Spitzenleistung der GPU: ein Fehler der Bepreisung</translation>
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
    <message>
        <source>%L1 ms</source>
        <translation>%L1 ms</translation>
    </message>
    <message>
        <source>%L1 s</source>
        <translation>%L1 s</translation>
    </message>
</context>
<context>
    <name>StartupOptions</name>
    <message>
        <source>Plans tensor and data parallelism for large neural networks.</source>
        <translation>Plant Tensor- und Datenparallelität für große neuronale Netze.</translation>
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
    <message>
        <source>Search plans once the model is folded; with --screenshot, wait for the search and open its best plan.</source>
        <translation>Sucht Pläne, sobald das Modell gefaltet ist; mit --screenshot wird auf die Suche gewartet und ihr bester Plan geöffnet.</translation>
    </message>
    <message>
        <source>Cluster preset for the search.</source>
        <translation>Cluster-Vorlage für die Suche.</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Global batch in sequences.</source>
        <translation>Globaler Batch in Sequenzen.</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Sequence length in tokens.</source>
        <translation>Sequenzlänge in Tokens.</translation>
    </message>
    <message>
        <source>panel</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Open the first repeated block in the folded view.</source>
        <translation>Öffnet den ersten wiederholten Block in der gefalteten Ansicht.</translation>
    </message>
    <message>
        <source>Select the first box of the graph view whose name contains &lt;text&gt;.</source>
        <translation>Wählt das erste Kästchen der Graphansicht, dessen Name &lt;text&gt; enthält.</translation>
    </message>
    <message>
        <source>text</source>
        <translation>text</translation>
    </message>
    <message>
        <source>Window size, e.g. 1600x1000.</source>
        <translation>Fenstergröße, z. B. 1600x1000.</translation>
    </message>
    <message>
        <source>size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>--%1 needs a positive whole number.</source>
        <translation>--%1 braucht eine positive ganze Zahl.</translation>
    </message>
    <message>
        <source>Bad window size &apos;%1&apos;: write it as 1600x1000.</source>
        <translation>Ungültige Fenstergröße „%1“: bitte als 1600x1000 schreiben.</translation>
    </message>
    <message>
        <source>After the search, change the strategy of the first node or block position whose name contains &lt;text&gt; in the plan editor.</source>
        <translation>Nach der Suche im Plan-Editor die Strategie des ersten Knotens oder der ersten Blockposition ändern, deren Name &lt;text&gt; enthält.</translation>
    </message>
    <message>
        <source>ONNX model or IOPDDL sharding problem (.json, .json.gz) to open.</source>
        <translation>Zu öffnendes ONNX-Modell oder IOPDDL-Sharding-Problem (.json, .json.gz).</translation>
    </message>
    <message>
        <source>[model.onnx | problem.json]</source>
        <translation>[modell.onnx | problem.json]</translation>
    </message>
    <message>
        <source>Solve the sharding problem for &lt;seconds&gt; once it is open; with --screenshot, grab its window after.</source>
        <translation>Das Sharding-Problem nach dem Öffnen &lt;seconds&gt; Sekunden lang lösen; mit --screenshot danach sein Fenster aufnehmen.</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>mesh</source>
        <translation>Mesh</translation>
    </message>
    <message>
        <source>Open a plan file for the model once it is folded.</source>
        <translation>Eine Plandatei für das Modell öffnen, sobald es gefaltet ist.</translation>
    </message>
    <message>
        <source>Bad mesh &apos;%1&apos;: %2</source>
        <translation>Ungültiges Mesh „%1“: %2</translation>
    </message>
    <message>
        <source>With --show timeline, zoom the schedule&apos;s time axis &lt;factor&gt; times from its start.</source>
        <translation>Mit --show timeline die Zeitachse des Ablaufs ab seinem Anfang &lt;factor&gt;-fach vergrößern.</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>Faktor</translation>
    </message>
    <message>
        <source>--zoom needs a factor of at least 1.</source>
        <translation>--zoom braucht einen Faktor von mindestens 1.</translation>
    </message>
    <message>
        <source>Nodes of the cluster preset for the search.</source>
        <translation>Knoten der Cluster-Vorlage für die Suche.</translation>
    </message>
    <message>
        <source>Sequences per data-parallel rank and micro-step for the search.</source>
        <translation>Sequenzen je datenparallelem Rang und Mikroschritt für die Suche.</translation>
    </message>
    <message>
        <source>Training stack the search is for: megatron, torchtitan, pytorch or any.</source>
        <translation>Trainings-Stack, für den gesucht wird: megatron, torchtitan, pytorch oder any.</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>Stack</translation>
    </message>
    <message>
        <source>Unknown --target &apos;%1&apos;.</source>
        <translation>Unbekanntes --target &apos;%1&apos;.</translation>
    </message>
    <message>
        <source>Device mesh for the search, e.g. 2x8, pp=8,dp=2,tp=8 or auto (every shape).</source>
        <translation>Geräte-Mesh für die Suche, z. B. 2x8, pp=8,dp=2,tp=8 oder auto (jede Form).</translation>
    </message>
    <message>
        <source>Panel to raise after a search: results (the default), inspector, timeline (the inspector&apos;s pipeline schedule), traffic (the inspector&apos;s ring attention and expert all-to-alls), edit, compare, history (the runs and plans kept) or export (the export dialog of the best plan, over the window).</source>
        <translation>Bereich, der nach einer Suche vorne liegt: results (Standard), inspector, timeline (der Pipeline-Ablauf im Inspektor), traffic (Ring-Attention und Experten-All-to-Alls im Inspektor), edit, compare, history (die gespeicherten Läufe und Pläne) oder export (der Exportdialog des besten Plans über dem Fenster).</translation>
    </message>
    <message>
        <source>Unknown panel &apos;%1&apos;: use results, inspector, timeline, traffic, edit, compare, history or export.</source>
        <translation>Unbekannter Bereich „%1“: results, inspector, timeline, traffic, edit, compare, history oder export verwenden.</translation>
    </message>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: no presets are installed.</source>
        <translation>Unbekannte Cluster-Vorlage „%1“: Es sind keine Vorlagen installiert.</translation>
    </message>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: use %2.</source>
        <translation>Unbekannte Cluster-Vorlage „%1“: Verwenden Sie %2.</translation>
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
    <name>WhyThisPlan</name>
    <message>
        <source>compute %1</source>
        <translation>Rechnen %1</translation>
    </message>
    <message>
        <source>exposed communication %1</source>
        <translation>sichtbare Kommunikation %1</translation>
    </message>
    <message>
        <source>pipeline bubble %1</source>
        <translation>Pipeline-Blase %1</translation>
    </message>
    <message>
        <source>%L1 GB less memory per device</source>
        <translation>%L1 GB weniger Speicher pro Gerät</translation>
    </message>
    <message>
        <source>%L1 GB more memory per device</source>
        <translation>%L1 GB mehr Speicher pro Gerät</translation>
    </message>
    <message>
        <source>%L1 % faster</source>
        <translation>%L1 % schneller</translation>
    </message>
    <message>
        <source>%L1 % slower</source>
        <translation>%L1 % langsamer</translation>
    </message>
    <message>
        <source>Why this plan: %L1 ms against %L2 ms for %3 on %4: %5 (%6), %7.</source>
        <translation>Warum dieser Plan: %L1 ms gegenüber %L2 ms für %3 auf %4: %5 (%6), %7.</translation>
    </message>
    <message>
        <source>The difference is within the cost model&apos;s validated error (median %L1 %): the model does not tell these two plans apart; measure both before choosing.</source>
        <translation>Der Unterschied liegt innerhalb des validierten Fehlers des Kostenmodells (Median %L1 %): Das Modell unterscheidet diese beiden Pläne nicht; messen Sie beide, bevor Sie wählen.</translation>
    </message>
    <message>
        <source>Why this plan: it prices exactly as %1 on %2 (%L3 ms, %L4 GB per device): the search found no faster plan than this expert layout.</source>
        <translation>Warum dieser Plan: Er kostet genau so viel wie %1 auf %2 (%L3 ms, %L4 GB pro Gerät): Die Suche fand keinen schnelleren Plan als dieses Experten-Layout.</translation>
    </message>
</context>
<context>
    <name>tapestry::BreakdownCharts</name>
    <message>
        <source>Whole step</source>
        <translation>Ganzer Schritt</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>Outside blocks</source>
        <translation>Außerhalb der Blöcke</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>Time per device and step (ms)</source>
        <translation>Zeit pro Gerät und Schritt (ms)</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>Optimiererzustände</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Largest transient buffer</source>
        <translation>Größter temporärer Puffer</translation>
    </message>
    <message>
        <source>Per device</source>
        <translation>Pro Gerät</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>Speicher (GB)</translation>
    </message>
    <message>
        <source>HBM %L1 GB</source>
        <translation>HBM %L1 GB</translation>
    </message>
    <message>
        <source>Peak memory %L1 GB of %L2 GB per device</source>
        <translation>Spitzenspeicher %L1 GB von %L2 GB pro Gerät</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>Neuberechnung</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Other communication</source>
        <translation>Übrige Kommunikation</translation>
    </message>
    <message>
        <source>DP exposed</source>
        <translation>DP sichtbar</translation>
    </message>
    <message>
        <source>DP hidden</source>
        <translation>DP verdeckt</translation>
    </message>
    <message>
        <source>Step time %L1 ms per device</source>
        <translation>Schrittzeit %L1 ms pro Gerät</translation>
    </message>
    <message>
        <source>Compute %L1 ms (recomputation %L2 ms, optimizer %L3 ms) and exposed communication %L4 ms make the step; %L5 ms of data-parallel (DP) communication run hidden under compute.</source>
        <translation>Rechnen %L1 ms (Neuberechnung %L2 ms, Optimierer %L3 ms) und sichtbare Kommunikation %L4 ms ergeben den Schritt; %L5 ms datenparallele (DP) Kommunikation laufen verdeckt unter dem Rechnen.</translation>
    </message>
    <message>
        <source>Compute beside hidden communication runs %L1 % slower (the communication&apos;s kernels hold SMs and memory bandwidth): the exposed parts include that slowdown.</source>
        <translation>Rechnen neben verdeckter Kommunikation läuft %L1 % langsamer (deren Kernel belegen SMs und Speicherbandbreite): die sichtbaren Teile enthalten diese Verlangsamung.</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>Pipeline sends</source>
        <translation>Pipeline-Sendungen</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>Blase</translation>
    </message>
    <message numerus="yes">
        <source>The slowest of the %n pipeline stage(s) sets the step: it also sends %L1 ms between stages and waits %L2 ms in the bubble.</source>
        <translation>
            <numerusform>Die langsamste der %n Pipeline-Stufe bestimmt den Schritt: Sie sendet außerdem %L1 ms zwischen Stufen und wartet %L2 ms in der Blase.</numerusform>
            <numerusform>Die langsamste der %n Pipeline-Stufen bestimmt den Schritt: Sie sendet außerdem %L1 ms zwischen Stufen und wartet %L2 ms in der Blase.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::ClusterPanel</name>
    <message>
        <source>Global batch</source>
        <translation>Globaler Batch</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>Mikro-Batch</translation>
    </message>
    <message>
        <source>Capacity factor</source>
        <translation>Kapazitätsfaktor</translation>
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
        <translation>Dichte Spitzenleistung einer GPU im Trainingsdatentyp</translation>
    </message>
    <message>
        <source>Achievable bus bandwidth per GPU and direction inside a node</source>
        <translation>Erreichbare Busbandbreite pro GPU und Richtung innerhalb eines Knotens</translation>
    </message>
    <message>
        <source>Achievable bandwidth per GPU and direction between nodes (one NIC per GPU)</source>
        <translation>Erreichbare Bandbreite pro GPU und Richtung zwischen Knoten (eine NIC pro GPU)</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>Vorlage:</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>Knoten:</translation>
    </message>
    <message>
        <source>GPUs per node:</source>
        <translation>GPUs pro Knoten:</translation>
    </message>
    <message>
        <source>Peak:</source>
        <translation>Spitze:</translation>
    </message>
    <message>
        <source>HBM:</source>
        <translation>HBM:</translation>
    </message>
    <message>
        <source>Intra-node:</source>
        <translation>Im Knoten:</translation>
    </message>
    <message>
        <source>Inter-node:</source>
        <translation>Zwischen Knoten:</translation>
    </message>
    <message>
        <source>Devices are numbered row-major over the mesh; the last axis is the fastest and stays inside a node first.</source>
        <translation>Geräte werden zeilenweise über das Mesh nummeriert; die letzte Achse läuft am schnellsten und bleibt zuerst innerhalb eines Knotens.</translation>
    </message>
    <message>
        <source>from the model</source>
        <translation>aus dem Modell</translation>
    </message>
    <message>
        <source> sequences</source>
        <translation> Sequenzen</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Tokens</translation>
    </message>
    <message>
        <source>bf16 (mixed precision)</source>
        <translation>bf16 (gemischte Genauigkeit)</translation>
    </message>
    <message>
        <source>Adam (fp32 master, m, v)</source>
        <translation>Adam (fp32-Master, m, v)</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>SGD mit Momentum</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Time limit of each integer program the search solves</source>
        <translation>Zeitlimit für jedes ganzzahlige Programm, das die Suche löst</translation>
    </message>
    <message>
        <source>Mesh and workload</source>
        <translation>Mesh und Arbeitslast</translation>
    </message>
    <message>
        <source>Mesh:</source>
        <translation>Mesh:</translation>
    </message>
    <message>
        <source>Global batch:</source>
        <translation>Globaler Batch:</translation>
    </message>
    <message>
        <source>Sequence:</source>
        <translation>Sequenz:</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>Optimierer:</translation>
    </message>
    <message>
        <source>Memory limit:</source>
        <translation>Speicherlimit:</translation>
    </message>
    <message>
        <source>Solver time limit:</source>
        <translation>Zeitlimit des Lösers:</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>im Knoten</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>zwischen Knoten</translation>
    </message>
    <message>
        <source>The links the measured run used</source>
        <translation>Die Verbindungen, über die die Messung lief</translation>
    </message>
    <message>
        <source>Import nccl-tests Log…</source>
        <translation>nccl-tests-Protokoll importieren …</translation>
    </message>
    <message>
        <source>Open Cluster File…</source>
        <translation>Cluster-Datei öffnen …</translation>
    </message>
    <message>
        <source>A cluster described in a JSON file, as resources/clusters and calibration write them</source>
        <translation>Ein Cluster, beschrieben in einer JSON-Datei, wie resources/clusters und die Kalibrierung sie schreiben</translation>
    </message>
    <message>
        <source>Calibrate to Measured Runs…</source>
        <translation>An gemessene Läufe kalibrieren …</translation>
    </message>
    <message>
        <source>Fit the GEMM and attention efficiencies and the link bandwidths to training runs you measured on this cluster (tapestry-cli validate&apos;s format); figures the runs cannot pin down are kept as they are.</source>
        <translation>GEMM- und Attention-Effizienz sowie die Bandbreiten der Verbindungen an Trainingsläufe anpassen, die Sie auf diesem Cluster gemessen haben (Format von tapestry-cli validate); Werte, die die Läufe nicht festlegen können, bleiben, wie sie sind.</translation>
    </message>
    <message>
        <source>Save Cluster File…</source>
        <translation>Cluster-Datei speichern …</translation>
    </message>
    <message>
        <source>Write this cluster with its edits as a JSON file that tapestry-cli --cluster and this panel read</source>
        <translation>Diesen Cluster mit seinen Änderungen als JSON-Datei schreiben, die tapestry-cli --cluster und dieses Feld lesen</translation>
    </message>
    <message>
        <source>Open Cluster File</source>
        <translation>Cluster-Datei öffnen</translation>
    </message>
    <message>
        <source>Cluster files (*.json);;All files (*)</source>
        <translation>Cluster-Dateien (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not open %1: %2 %3</source>
        <translation>%1 konnte nicht geöffnet werden: %2 %3</translation>
    </message>
    <message>
        <source>%1 (file %2)</source>
        <translation>%1 (Datei %2)</translation>
    </message>
    <message>
        <source>Save Cluster File</source>
        <translation>Cluster-Datei speichern</translation>
    </message>
    <message>
        <source>Cluster files (*.json)</source>
        <translation>Cluster-Dateien (*.json)</translation>
    </message>
    <message>
        <source>Could not save %1: %2 %3</source>
        <translation>%1 konnte nicht gespeichert werden: %2 %3</translation>
    </message>
    <message>
        <source>Calibrate to Measured Runs</source>
        <translation>An gemessene Läufe kalibrieren</translation>
    </message>
    <message>
        <source>Measured runs (*.json);;All files (*)</source>
        <translation>Gemessene Läufe (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Fitting the figures to the runs of %1…</source>
        <translation>Werte werden an die Läufe aus %1 angepasst …</translation>
    </message>
    <message>
        <source>Could not calibrate to %1: %2 %3</source>
        <translation>Kalibrierung an %1 nicht möglich: %2 %3</translation>
    </message>
    <message>
        <source>Could not calibrate to %1: %2</source>
        <translation>Kalibrierung an %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>GEMM efficiency</source>
        <translation>GEMM-Effizienz</translation>
    </message>
    <message>
        <source>attention efficiency</source>
        <translation>Attention-Effizienz</translation>
    </message>
    <message>
        <source>FP8 GEMM efficiency</source>
        <translation>FP8-GEMM-Effizienz</translation>
    </message>
    <message>
        <source>intra-node bandwidth</source>
        <translation>Bandbreite im Knoten</translation>
    </message>
    <message>
        <source>inter-node bandwidth</source>
        <translation>Bandbreite zwischen Knoten</translation>
    </message>
    <message>
        <source>%L1 GB/s</source>
        <translation>%L1 GB/s</translation>
    </message>
    <message>
        <source>%L1 %</source>
        <translation>%L1 %</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>Fitted to %1 runs of %2: %3. Step-time error of each run priced on the figures fitted to the others: median %4 → %5, max %6 → %7.</source>
        <translation>An %1 Läufe aus %2 angepasst: %3. Fehler der Schrittzeit jedes Laufs, bewertet mit den an die übrigen Läufe angepassten Werten: Median %4 → %5, Maximum %6 → %7.</translation>
    </message>
    <message>
        <source>%1 kept: %2</source>
        <translation>%1 beibehalten: %2</translation>
    </message>
    <message>
        <source>Runs that say “flash” are read as FlashAttention 1.x; runs of FlashAttention-2 should say “flash2”.</source>
        <translation>Läufe mit „flash“ werden als FlashAttention 1.x gelesen; Läufe mit FlashAttention-2 sollten „flash2“ angeben.</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>Kalibrierung</translation>
    </message>
    <message>
        <source>auto (try every shape)</source>
        <translation>automatisch (jede Form versuchen)</translation>
    </message>
    <message>
        <source>Import nccl-tests Log</source>
        <translation>nccl-tests-Protokoll importieren</translation>
    </message>
    <message>
        <source>nccl-tests logs (*.log *.txt);;All files (*)</source>
        <translation>nccl-tests-Protokolle (*.log *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 does not name its collective: expected all_reduce_perf, all_gather_perf, reduce_scatter_perf or alltoall_perf in the file name.</source>
        <translation>%1 nennt sein Kollektiv nicht: im Dateinamen wird all_reduce_perf, all_gather_perf, reduce_scatter_perf oder alltoall_perf erwartet.</translation>
    </message>
    <message>
        <source>Could not import %1: %2 %3</source>
        <translation>%1 konnte nicht importiert werden: %2 %3</translation>
    </message>
    <message>
        <source>preset</source>
        <translation>Vorlage</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2: %Ln point(s) up to %L3 GB/s (%4)</source>
        <translation>
            <numerusform>%1, %2: %Ln Punkt bis %L3 GB/s (%4)</numerusform>
            <numerusform>%1, %2: %Ln Punkte bis %L3 GB/s (%4)</numerusform>
        </translation>
    </message>
    <message>
        <source>No measured curves: collectives use the alpha-beta formulas.</source>
        <translation>Keine Messkurven: Kollektive verwenden die Alpha-Beta-Formeln.</translation>
    </message>
    <message>
        <source>Sequences per data-parallel rank and micro-step: gradients accumulate over the micro-steps and are synchronized once per step. Auto: the search chooses (the whole batch where a plan fits with it, else the largest micro-batch that fits; 1 to 8 sequences on a pipeline); a plan priced outside a search takes the whole batch.</source>
        <translation>Sequenzen pro datenparallelem Rang und Mikroschritt: Gradienten werden über die Mikroschritte akkumuliert und einmal pro Schritt synchronisiert. Auto: die Suche wählt (der ganze Batch, wo ein Plan damit passt, sonst der größte passende Mikro-Batch; 1 bis 8 Sequenzen in einer Pipeline); ein außerhalb einer Suche bewerteter Plan nimmt den ganzen Batch.</translation>
    </message>
    <message>
        <source>fp16 (mixed precision)</source>
        <translation>fp16 (gemischte Genauigkeit)</translation>
    </message>
    <message>
        <source>The type of activations, weights and gradients; the optimizer keeps fp32 master weights either way.</source>
        <translation>Der Typ von Aktivierungen, Gewichten und Gradienten; der Optimierer hält in jedem Fall fp32-Mastergewichte.</translation>
    </message>
    <message>
        <source>FP8 weights without a 16-bit copy</source>
        <translation>FP8-Gewichte ohne 16-Bit-Kopie</translation>
    </message>
    <message>
        <source>With fp8 or mxfp8: the FP8 layers keep their weights in FP8 only, as Transformer Engine&apos;s fp8_model_init does (Megatron-LM&apos;s --fp8-param-gather, NeMo&apos;s fp8_params), instead of beside their 16-bit weights; ZeRO 3 gathers them in FP8.</source>
        <translation>Mit fp8 oder mxfp8: Die FP8-Schichten halten ihre Gewichte nur in FP8, wie es fp8_model_init von Transformer Engine tut (--fp8-param-gather von Megatron-LM, fp8_params von NeMo), statt neben ihren 16-Bit-Gewichten; ZeRO 3 sammelt sie in FP8.</translation>
    </message>
    <message>
        <source>Auto (the search chooses)</source>
        <translation>Automatisch (die Suche wählt)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Selective (attention core)</source>
        <translation>Selektiv (Attention-Kern)</translation>
    </message>
    <message>
        <source>Selective (every other matmul, torchtitan&apos;s)</source>
        <translation>Selektiv (jede zweite Matrixmultiplikation, wie torchtitan)</translation>
    </message>
    <message>
        <source>Full (each block)</source>
        <translation>Vollständig (jeder Block)</translation>
    </message>
    <message>
        <source>Activations recomputed in the backward pass instead of kept: less memory for more compute. Selective as the target runs it: Megatron-LM recomputes attention&apos;s core (nothing to recompute with fused attention), torchtitan keeps every other matmul&apos;s output and recomputes the rest.</source>
        <translation>Aktivierungen werden im Rückwärtsdurchlauf neu berechnet statt gespeichert: weniger Speicher für mehr Rechenaufwand. Selektiv so, wie das Ziel es ausführt: Megatron-LM berechnet den Kern der Attention neu (bei fusionierter Attention gibt es nichts neu zu berechnen), torchtitan behält die Ausgabe jeder zweiten Matrixmultiplikation und berechnet den Rest neu.</translation>
    </message>
    <message>
        <source>0 (nothing sharded)</source>
        <translation>0 (nichts verteilt)</translation>
    </message>
    <message>
        <source>1 (optimizer states)</source>
        <translation>1 (Optimiererzustände)</translation>
    </message>
    <message>
        <source>2 (and gradients)</source>
        <translation>2 (und Gradienten)</translation>
    </message>
    <message>
        <source>3 (and parameters, FSDP)</source>
        <translation>3 (und Parameter, FSDP)</translation>
    </message>
    <message>
        <source>What ZeRO shards over the data-parallel axes: optimizer states, then gradients, then parameters.</source>
        <translation>Was ZeRO über die datenparallelen Achsen verteilt: Optimiererzustände, dann Gradienten, dann Parameter.</translation>
    </message>
    <message>
        <source>Overlap data-parallel communication</source>
        <translation>Datenparallele Kommunikation überlappen</translation>
    </message>
    <message>
        <source>Gradient reduction runs under the backward pass and FSDP gathers under the previous block, as far as that compute can hide them.</source>
        <translation>Die Gradientenreduktion läuft unter dem Rückwärtsdurchlauf und FSDP-Gathers unter dem vorigen Block, soweit dieses Rechnen sie verdecken kann.</translation>
    </message>
    <message>
        <source>Fused (FlashAttention-2)</source>
        <translation>Fusioniert (FlashAttention-2)</translation>
    </message>
    <message>
        <source>Fused (cuDNN)</source>
        <translation>Fusioniert (cuDNN)</translation>
    </message>
    <message>
        <source>Fused (Triton, llm-foundry)</source>
        <translation>Fusioniert (Triton, llm-foundry)</translation>
    </message>
    <message>
        <source>Fused (FlashAttention 1.x)</source>
        <translation>Fusioniert (FlashAttention 1.x)</translation>
    </message>
    <message>
        <source>Unfused</source>
        <translation>Nicht fusioniert</translation>
    </message>
    <message>
        <source>A fused kernel never writes the sequence × sequence scores to memory; unfused kernels keep them for the backward pass. cuDNN&apos;s kernels (Transformer Engine&apos;s, what Megatron-LM runs) are faster than FlashAttention-2&apos;s on Hopper and later GPUs.</source>
        <translation>Ein fusionierter Kernel schreibt die Sequenz × Sequenz-Scores nie in den Speicher; nicht fusionierte Kernel behalten sie für den Rückwärtsdurchlauf. Die Kernel von cuDNN (die von Transformer Engine, die Megatron-LM ausführt) sind auf Hopper- und neueren GPUs schneller als die von FlashAttention-2.</translation>
    </message>
    <message>
        <source>Micro-batch:</source>
        <translation>Mikro-Batch:</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>Genauigkeit:</translation>
    </message>
    <message>
        <source>Recomputation:</source>
        <translation>Neuberechnung:</translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation>ZeRO-Stufe:</translation>
    </message>
    <message>
        <source>Capacity factor:</source>
        <translation>Kapazitätsfaktor:</translation>
    </message>
    <message>
        <source>Mixture-of-experts routing: each expert computes up to this many times its even share (top-k / experts) of the tokens. No effect on models without experts.</source>
        <translation>Mixture-of-Experts-Routing: Jeder Experte berechnet bis zu diesem Vielfachen seines gleichmäßigen Anteils (Top-k / Experten) an den Tokens. Ohne Wirkung auf Modelle ohne Experten.</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>Attention:</translation>
    </message>
    <message>
        <source>A cluster from resources/clusters: GPU, node count and links; edits below apply to a copy.</source>
        <translation>Ein Cluster aus resources/clusters: GPU, Knotenzahl und Verbindungen; Änderungen unten gelten für eine Kopie.</translation>
    </message>
    <message>
        <source>Machines in the cluster; GPUs in one node talk over the fast intra-node links.</source>
        <translation>Rechner im Cluster; GPUs in einem Knoten sprechen über die schnellen Verbindungen im Knoten.</translation>
    </message>
    <message>
        <source>GPUs in each node, joined by NVLink or PCIe.</source>
        <translation>GPUs in jedem Knoten, verbunden über NVLink oder PCIe.</translation>
    </message>
    <message>
        <source>Memory of one GPU; a plan fits when its peak per device stays below the limit.</source>
        <translation>Speicher einer GPU; ein Plan passt, wenn sein Spitzenbedarf pro Gerät unter dem Limit bleibt.</translation>
    </message>
    <message>
        <source>Sequences per optimizer step over all data-parallel ranks; 0 takes the model&apos;s own.</source>
        <translation>Sequenzen pro Optimiererschritt über alle datenparallelen Ränge; 0 übernimmt den Wert des Modells.</translation>
    </message>
    <message>
        <source>Tokens per sequence; 0 takes the model&apos;s own.</source>
        <translation>Tokens pro Sequenz; 0 übernimmt den Wert des Modells.</translation>
    </message>
    <message>
        <source>The optimizer whose states the plan keeps per parameter: Adam keeps two, SGD one.</source>
        <translation>Der Optimierer, dessen Zustände der Plan pro Parameter hält: Adam hält zwei, SGD einen.</translation>
    </message>
    <message>
        <source> % of peak</source>
        <translation> % der Spitze</translation>
    </message>
    <message>
        <source>Share of the peak that large matrix multiplications (cuBLAS GEMMs) reach: every compute time rests on it. Measure it with a GEMM benchmark at your shapes.</source>
        <translation>Anteil der Spitzenleistung, den große Matrixmultiplikationen (cuBLAS-GEMMs) erreichen: Jede Rechenzeit beruht darauf. Messen Sie ihn mit einem GEMM-Benchmark in Ihren Formen.</translation>
    </message>
    <message>
        <source> % of peak at 16k tokens</source>
        <translation> % der Spitze bei 16k Tokens</translation>
    </message>
    <message>
        <source>Share of the peak that FlashAttention-2&apos;s forward pass reaches at 16k tokens, head dim 128, without a causal mask. Each attention call runs at the share the kernel&apos;s published curve gives it: shorter sequences, a causal mask and the backward pass reach less, cuDNN&apos;s kernel more.</source>
        <translation>Anteil der Spitzenleistung, den der Vorwärtsdurchlauf von FlashAttention-2 bei 16k Tokens, Kopfdimension 128 und ohne kausale Maske erreicht. Jeder Attention-Aufruf läuft mit dem Anteil, den die veröffentlichte Kurve des Kernels ihm gibt: kürzere Sequenzen, eine kausale Maske und der Rückwärtsdurchlauf erreichen weniger, der Kernel von cuDNN mehr.</translation>
    </message>
    <message>
        <source>GEMM efficiency:</source>
        <translation>GEMM-Effizienz:</translation>
    </message>
    <message>
        <source>Attention efficiency:</source>
        <translation>Attention-Effizienz:</translation>
    </message>
    <message>
        <source> % of HBM</source>
        <translation> % des HBM</translation>
    </message>
    <message>
        <source>Per device: the HBM less the headroom; a plan fits when its peak stays below it.</source>
        <translation>Pro Gerät: der HBM abzüglich des Spielraums; ein Plan passt, wenn seine Spitze darunter bleibt.</translation>
    </message>
    <message>
        <source>Memory headroom:</source>
        <translation>Speicherspielraum:</translation>
    </message>
    <message>
        <source>fp8 (bf16, per-tensor FP8 GEMMs)</source>
        <translation>fp8 (bf16, FP8-GEMMs mit Skalierung je Tensor)</translation>
    </message>
    <message>
        <source>mxfp8 (bf16, MXFP8 block-scaled GEMMs)</source>
        <translation>mxfp8 (bf16, MXFP8-GEMMs mit Blockskalierung)</translation>
    </message>
    <message>
        <source>The training stack the plans are searched for: its plans run on it as is and export to it exactly. Any: every strategy the cost model prices, for study; not runnable as is.</source>
        <translation>Der Trainings-Stack, für den die Pläne gesucht werden: Seine Pläne laufen darauf so, wie sie sind, und werden exakt dorthin exportiert. Beliebig: jede Strategie, die das Kostenmodell bepreist, zur Studie; so nicht lauffähig.</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>Ziel:</translation>
    </message>
    <message>
        <source>one node</source>
        <translation>ein Knoten</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> GPUs</translation>
    </message>
    <message>
        <source>GPUs joined by one NVLink fabric, a whole number of nodes: one node on DGX and HGX machines, a rack of 72 GPUs (18 nodes of 4) on GB200 NVL72. Mesh axes inside a domain use the fast link.</source>
        <translation>GPUs, die ein NVLink-Fabric verbindet, eine ganze Zahl von Knoten: ein Knoten bei DGX- und HGX-Maschinen, ein Rack mit 72 GPUs (18 Knoten zu je 4) bei GB200 NVL72. Gitterachsen innerhalb einer Domäne nutzen die schnelle Verbindung.</translation>
    </message>
    <message>
        <source>NVLink domain:</source>
        <translation>NVLink-Domäne:</translation>
    </message>
    <message>
        <source>Kept free of each GPU&apos;s memory for what the cost model does not count: the caching allocator&apos;s fragmentation, the CUDA context and NCCL&apos;s buffers; 5 to 10 % is a common allowance. 0, the default as in the CLI, lets plans fill the HBM.</source>
        <translation>Vom Speicher jeder GPU freigehalten für das, was das Kostenmodell nicht zählt: die Fragmentierung des Caching-Allocators, den CUDA-Kontext und die Puffer von NCCL; 5 bis 10 % sind ein üblicher Spielraum. 0, die Vorgabe wie in der CLI, lässt Pläne den HBM füllen.</translation>
    </message>
    <message>
        <source>In a domain:</source>
        <translation>In einer Domäne:</translation>
    </message>
    <message>
        <source>Between domains:</source>
        <translation>Zwischen Domänen:</translation>
    </message>
    <message>
        <source>Achievable bus bandwidth per GPU and direction inside an NVLink domain</source>
        <translation>Erreichbare Busbandbreite pro GPU und Richtung innerhalb einer NVLink-Domäne</translation>
    </message>
    <message>
        <source>Achievable bandwidth per GPU and direction between NVLink domains</source>
        <translation>Erreichbare Bandbreite pro GPU und Richtung zwischen NVLink-Domänen</translation>
    </message>
    <message>
        <source>%1 does not train this model: %2</source>
        <translation>%1 trainiert dieses Modell nicht: %2</translation>
    </message>
    <message>
        <source>Target %1: %2 does not train this model (%3).</source>
        <translation>Ziel %1: %2 trainiert dieses Modell nicht (%3).</translation>
    </message>
</context>
<context>
    <name>tapestry::CostSplitChart</name>
    <message>
        <source>Node costs %1 %</source>
        <translation>Knotenkosten %1 %</translation>
    </message>
    <message>
        <source>Edge costs %1 %</source>
        <translation>Kantenkosten %1 %</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
</context>
<context>
    <name>tapestry::ExportDialog</name>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Plan:</source>
        <translation>Plan:</translation>
    </message>
    <message>
        <source>none open: only the graph can be exported</source>
        <translation>keiner geöffnet: nur der Graph kann exportiert werden</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>Export To</source>
        <translation>Exportieren nach</translation>
    </message>
    <message>
        <source>Choose a file to export to.</source>
        <translation>Wählen Sie eine Zieldatei für den Export.</translation>
    </message>
    <message>
        <source>Could not export to %1: %2 %3</source>
        <translation>Export nach %1 nicht möglich: %2 %3</translation>
    </message>
    <message>
        <source>Could not export to %1: %2</source>
        <translation>Export nach %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>Wird exportiert …</translation>
    </message>
    <message>
        <source>Replace File?</source>
        <translation>Datei ersetzen?</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 existiert bereits. Ersetzen?</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <source>Wrote %1 to %2.</source>
        <translation>%1 nach %2 geschrieben.</translation>
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
    <message>
        <source>Save…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>Save the drawing as SVG or PNG</source>
        <translation>Die Zeichnung als SVG oder PNG speichern</translation>
    </message>
    <message>
        <source>Save View</source>
        <translation>Ansicht speichern</translation>
    </message>
    <message>
        <source>SVG pictures (*.svg);;PNG pictures (*.png)</source>
        <translation>SVG-Bilder (*.svg);;PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Could Not Save View</source>
        <translation>Ansicht konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>%1 konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Repeated block (×N)</source>
        <translation>Wiederholter Block (×N)</translation>
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
    <name>tapestry::HistoryPanel</name>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>&amp;Vergleichen</translation>
    </message>
    <message>
        <source>Compare the two selected plans</source>
        <translation>Die beiden ausgewählten Pläne vergleichen</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>&amp;Tag…</source>
        <translation>&amp;Markieren…</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>&amp;Re-cost</source>
        <translation>&amp;Neu bewerten</translation>
    </message>
    <message>
        <source>Price a stale plan again for the model and cluster on screen (a new plan)</source>
        <translation>Einen veralteten Plan für das angezeigte Modell und den Cluster neu bewerten (als neuer Plan)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Could not read the history: %1</source>
        <translation>Der Verlauf konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>History: %1</source>
        <translation>Verlauf: %1</translation>
    </message>
    <message>
        <source>Tag Plan</source>
        <translation>Plan markieren</translation>
    </message>
    <message>
        <source>Tag for the selected plan(s):</source>
        <translation>Markierung für die ausgewählten Pläne:</translation>
    </message>
    <message>
        <source>Delete Plan</source>
        <translation>Plan löschen</translation>
    </message>
    <message>
        <source>Other plans were derived from plan #%1 (%2). Delete it anyway? They keep their strategies but lose their parent.</source>
        <translation>Andere Pläne wurden von Plan #%1 (%2) abgeleitet. Trotzdem löschen? Sie behalten ihre Strategien, verlieren aber ihren Ursprung.</translation>
    </message>
</context>
<context>
    <name>tapestry::HistoryRecorder</name>
    <message>
        <source>No history file: set HOME or TAPESTRY_HISTORY.</source>
        <translation>Keine Verlaufsdatei: HOME oder TAPESTRY_HISTORY setzen.</translation>
    </message>
    <message>
        <source>Not recorded in the history (%1): %2</source>
        <translation>Nicht im Verlauf gespeichert (%1): %2</translation>
    </message>
</context>
<context>
    <name>tapestry::HistoryTreeModel</name>
    <message>
        <source>Made for an earlier version of the model or cluster: re-cost it for the current one.</source>
        <translation>Für eine frühere Version des Modells oder Clusters erstellt: für die aktuelle neu bewerten.</translation>
    </message>
    <message>
        <source>Plans outside runs</source>
        <translation>Pläne außerhalb von Läufen</translation>
    </message>
    <message>
        <source>Run %1: %2 %3 of %4</source>
        <translation>Lauf %1: %2 %3 von %4</translation>
    </message>
    <message>
        <source>Run %1: %2 %3 for %4 of %5</source>
        <translation>Lauf %1: %2 %3 für %4 von %5</translation>
    </message>
    <message>
        <source>%1, stale</source>
        <translation>%1, veraltet</translation>
    </message>
    <message>
        <source>Run or plan</source>
        <translation>Lauf oder Plan</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Mesh or cluster</source>
        <translation>Gitter oder Cluster</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Markierungen</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>Experte</translation>
    </message>
    <message>
        <source>searched</source>
        <translation>gesucht</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>importiert</translation>
    </message>
    <message>
        <source>Memory limit %L1 GB per device.</source>
        <translation>Speichergrenze %L1 GB pro Gerät.</translation>
    </message>
    <message>
        <source>took %L1 s</source>
        <translation>dauerte %L1 s</translation>
    </message>
    <message>
        <source>#%1 %2 %3, %4: %5</source>
        <translation>#%1 %2 %3, %4: %5</translation>
    </message>
    <message>
        <source>(no model)</source>
        <translation>(kein Modell)</translation>
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
    <message>
        <source>&amp;Search</source>
        <translation>&amp;Suche</translation>
    </message>
    <message>
        <source>&amp;Start Search</source>
        <translation>Suche &amp;starten</translation>
    </message>
    <message>
        <source>Search plans for the model on the cluster, mesh and workload of the panel (F5)</source>
        <translation>Sucht Pläne für das Modell auf Cluster, Mesh und Arbeitslast des Bereichs (F5)</translation>
    </message>
    <message>
        <source>&amp;Cancel Search</source>
        <translation>Suche &amp;abbrechen</translation>
    </message>
    <message>
        <source>Cluster and Workload</source>
        <translation>Cluster und Arbeitslast</translation>
    </message>
    <message>
        <source>Search Results</source>
        <translation>Suchergebnisse</translation>
    </message>
    <message>
        <source>Plan Inspector</source>
        <translation>Plan-Inspektor</translation>
    </message>
    <message>
        <source>The model is still being folded; start the search in a moment.</source>
        <translation>Das Modell wird noch gefaltet; starten Sie die Suche gleich.</translation>
    </message>
    <message>
        <source>Open a model first.</source>
        <translation>Öffnen Sie zuerst ein Modell.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Suche läuft …</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Search: %1</source>
        <translation>Suche: %1</translation>
    </message>
    <message>
        <source>The search failed: %1 %2</source>
        <translation>Die Suche ist fehlgeschlagen: %1 %2</translation>
    </message>
    <message>
        <source>The search failed: %1</source>
        <translation>Die Suche ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>&amp;Plan</translation>
    </message>
    <message>
        <source>New from &amp;Preset…</source>
        <translation>Neu aus &amp;Vorlage…</translation>
    </message>
    <message>
        <source>Could Not Open Sharding Problem</source>
        <translation>Sharding-Problem konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Open an ONNX model or an IOPDDL sharding problem with File &gt; Open, or drop the file here.</source>
        <translation>Öffnen Sie ein ONNX-Modell oder ein IOPDDL-Sharding-Problem mit Datei &gt; Öffnen, oder ziehen Sie die Datei hierher.</translation>
    </message>
    <message>
        <source>Open Model or Sharding Problem</source>
        <translation>Modell oder Sharding-Problem öffnen</translation>
    </message>
    <message>
        <source>Models and sharding problems (*.onnx *.json *.json.gz);;ONNX models (*.onnx);;IOPDDL sharding problems (*.json *.json.gz);;All files (*)</source>
        <translation>Modelle und Sharding-Probleme (*.onnx *.json *.json.gz);;ONNX-Modelle (*.onnx);;IOPDDL-Sharding-Probleme (*.json *.json.gz);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Search Running</source>
        <translation>Suche läuft</translation>
    </message>
    <message>
        <source>A search is still running. Cancel it and quit? The plans it found so far are kept in the history.</source>
        <translation>Eine Suche läuft noch. Abbrechen und beenden? Die bisher gefundenen Pläne bleiben im Verlauf.</translation>
    </message>
    <message>
        <source>Cancel Search and Quit</source>
        <translation>Suche abbrechen und beenden</translation>
    </message>
    <message>
        <source>Keep Searching</source>
        <translation>Weitersuchen</translation>
    </message>
    <message>
        <source>&amp;Workflow (README)</source>
        <translation>&amp;Arbeitsablauf (README)</translation>
    </message>
    <message>
        <source>The README was not found beside the application.</source>
        <translation>Die README wurde neben der Anwendung nicht gefunden.</translation>
    </message>
    <message>
        <source>Opens the README: open a model, search, inspect, edit, compare and export</source>
        <translation>Öffnet die README: Modell öffnen, suchen, prüfen, bearbeiten, vergleichen und exportieren</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
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
        <source>Inputs (%1)</source>
        <translation>Eingaben (%1)</translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>Ausgaben (%1)</translation>
    </message>
    <message>
        <source>and %L1 more</source>
        <translation>und %L1 weitere</translation>
    </message>
    <message>
        <source>Not priced:</source>
        <translation>Nicht bewertet:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) whose operand shapes could not be inferred: %1</source>
        <translation>
            <numerusform>%n Op, dessen Operandenformen nicht ermittelt werden konnten: %1</numerusform>
            <numerusform>%n Ops, deren Operandenformen nicht ermittelt werden konnten: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 parameters in %2; %3 as stored in the file</source>
        <translation>%1 Parameter in %2; %3 wie in der Datei gespeichert</translation>
    </message>
</context>
<context>
    <name>tapestry::NodeCostModel</name>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Split (%1)</source>
        <translation>Aufteilung (%1)</translation>
    </message>
    <message>
        <source>Compute (ms)</source>
        <translation>Rechnen (ms)</translation>
    </message>
    <message>
        <source>Comm. (ms)</source>
        <translation>Komm. (ms)</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>Kollektive</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>Speicher (GB)</translation>
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
    <name>tapestry::ParallelTrafficModel</name>
    <message>
        <source>Ring attention: keys and values, forward</source>
        <translation>Ring-Attention: Keys und Values, Vorwärtslauf</translation>
    </message>
    <message>
        <source>Ring attention: keys and values, backward</source>
        <translation>Ring-Attention: Keys und Values, Rückwärtslauf</translation>
    </message>
    <message>
        <source>Ring attention: their gradients, backward</source>
        <translation>Ring-Attention: ihre Gradienten, Rückwärtslauf</translation>
    </message>
    <message>
        <source>Expert dispatch: tokens to their experts</source>
        <translation>Experten-Dispatch: Tokens zu ihren Experten</translation>
    </message>
    <message>
        <source>Expert combine: expert outputs back</source>
        <translation>Experten-Combine: Ausgaben der Experten zurück</translation>
    </message>
    <message>
        <source>Expert weights: each copy&apos;s routing weight</source>
        <translation>Experten-Gewichte: das Routing-Gewicht jeder Kopie</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>im Knoten</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>zwischen Knoten</translation>
    </message>
    <message>
        <source>%1 GPUs, %2</source>
        <translation>%1 GPUs, %2</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>Übertragung</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>Kollektiv</translation>
    </message>
    <message>
        <source>Axis</source>
        <translation>Achse</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>Per call (MB)</source>
        <translation>Je Aufruf (MB)</translation>
    </message>
    <message>
        <source>Calls per step</source>
        <translation>Aufrufe je Schritt</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>Zeit (ms)</translation>
    </message>
    <message>
        <source>Hidden (ms)</source>
        <translation>Verdeckt (ms)</translation>
    </message>
    <message>
        <source>Exposed (ms)</source>
        <translation>Sichtbar (ms)</translation>
    </message>
    <message>
        <source>Ulysses: sequence and heads swapped, forward</source>
        <translation>Ulysses: Sequenz und Köpfe getauscht, Vorwärtslauf</translation>
    </message>
    <message>
        <source>Ulysses: their gradients swapped back, backward</source>
        <translation>Ulysses: ihre Gradienten zurückgetauscht, Rückwärtslauf</translation>
    </message>
</context>
<context>
    <name>tapestry::ParetoChartView</name>
    <message>
        <source>Peak memory per device (GB)</source>
        <translation>Spitzenspeicher pro Gerät (GB)</translation>
    </message>
    <message>
        <source>Step time (ms)</source>
        <translation>Schrittzeit (ms)</translation>
    </message>
    <message>
        <source>Memory limit (%L1 GB)</source>
        <translation>Speicherlimit (%L1 GB)</translation>
    </message>
    <message>
        <source>HBM (%L1 GB)</source>
        <translation>HBM (%L1 GB)</translation>
    </message>
    <message>
        <source>Searched: dominated</source>
        <translation>Gesucht: unterlegen</translation>
    </message>
    <message>
        <source>%1 (%2) on %3: %L4 ms, %L5 GB</source>
        <translation>%1 (%2) auf %3: %L4 ms, %L5 GB</translation>
    </message>
    <message numerus="yes">
        <source>Step time (ms; %n slower plan(s) on the top edge)</source>
        <translation>
            <numerusform>Schrittzeit (ms; %n langsamerer Plan am oberen Rand)</numerusform>
            <numerusform>Schrittzeit (ms; %n langsamere Pläne am oberen Rand)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PipelineTimeline</name>
    <message>
        <source>blocks %1</source>
        <translation>Blöcke %1</translation>
    </message>
    <message>
        <source>Zoom out (wheel down)</source>
        <translation>Verkleinern (Mausrad nach unten)</translation>
    </message>
    <message>
        <source>Zoom in (wheel up)</source>
        <translation>Vergrößern (Mausrad nach oben)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Fit the whole step to the view&apos;s width</source>
        <translation>Den ganzen Schritt an die Breite der Ansicht anpassen</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>Save the timeline as SVG or PNG</source>
        <translation>Die Zeitleiste als SVG oder PNG speichern</translation>
    </message>
    <message>
        <source>This plan has no pipeline: open a plan on a mesh with a pp axis to see its schedule.</source>
        <translation>Dieser Plan hat keine Pipeline: Öffnen Sie einen Plan auf einem Mesh mit pp-Achse, um seinen Ablauf zu sehen.</translation>
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
        <translation>Verschränktes 1F1B</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 stages × %3 chunks, %Ln micro-batch(es) per step</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 Stufen × %3 Abschnitte, %Ln Mikro-Batch pro Schritt</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 Stufen × %3 Abschnitte, %Ln Mikro-Batches pro Schritt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 stages, %Ln micro-batch(es) per step</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 Stufen, %Ln Mikro-Batch pro Schritt</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 Stufen, %Ln Mikro-Batches pro Schritt</numerusform>
        </translation>
    </message>
    <message>
        <source> — the schedule could not be laid out completely</source>
        <translation> – der Ablauf ließ sich nicht vollständig anordnen</translation>
    </message>
    <message>
        <source>Laid out: step %L1 ms; the cost model&apos;s step (dashed line): %L2 ms. Stage 1 idles %L3 ms (%L4 % of its step) in the bubble. Forward ≈ 1/3 and backward ≈ 2/3 of a micro-batch&apos;s work (the cost model keeps no per-stage forward/backward split; recomputation counts to the backward); a chunk takes its share by block count.</source>
        <translation>Angeordnet: Schritt %L1 ms; Schritt des Kostenmodells (gestrichelte Linie): %L2 ms. Stufe 1 wartet %L3 ms (%L4 % ihres Schritts) in der Blase. Vorwärts ≈ 1/3 und rückwärts ≈ 2/3 der Arbeit eines Mikro-Batches (das Kostenmodell führt keine Aufteilung nach Vorwärts und Rückwärts pro Stufe; Neuberechnung zählt zum Rückwärtsdurchlauf); ein Abschnitt erhält seinen Anteil nach Blockzahl.</translation>
    </message>
    <message>
        <source> (chunk %1)</source>
        <translation> (Abschnitt %1)</translation>
    </message>
    <message>
        <source>Forward%1</source>
        <translation>Vorwärts%1</translation>
    </message>
    <message>
        <source>Backward%1</source>
        <translation>Rückwärts%1</translation>
    </message>
    <message>
        <source>Send to a neighbouring stage</source>
        <translation>Senden an eine Nachbarstufe</translation>
    </message>
    <message>
        <source>Gradient reduction (exposed)</source>
        <translation>Gradientenreduktion (sichtbar)</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Bubble (idle)</source>
        <translation>Blase (untätig)</translation>
    </message>
    <message>
        <source>Cost model&apos;s step</source>
        <translation>Schritt des Kostenmodells</translation>
    </message>
    <message>
        <source>%L1 s</source>
        <translation>%L1 s</translation>
    </message>
    <message>
        <source>%L1 ms</source>
        <translation>%L1 ms</translation>
    </message>
    <message>
        <source>Stage %1 idles %L2 ms per step (its bubble, as the cost model counts it)</source>
        <translation>Stufe %1 wartet %L2 ms pro Schritt (ihre Blase, wie das Kostenmodell sie zählt)</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>Stage %1: forward of micro-batch %2, chunk %3</source>
        <translation>Stufe %1: Vorwärts von Mikro-Batch %2, Abschnitt %3</translation>
    </message>
    <message>
        <source>Stage %1: backward of micro-batch %2, chunk %3</source>
        <translation>Stufe %1: Rückwärts von Mikro-Batch %2, Abschnitt %3</translation>
    </message>
    <message>
        <source>Stage %1 sends micro-batch %2 on</source>
        <translation>Stufe %1 sendet Mikro-Batch %2 weiter</translation>
    </message>
    <message>
        <source>Stage %1: gradient reduction (exposed part)</source>
        <translation>Stufe %1: Gradientenreduktion (sichtbarer Teil)</translation>
    </message>
    <message>
        <source>Stage %1: optimizer update</source>
        <translation>Stufe %1: Optimierer-Update</translation>
    </message>
    <message>
        <source>, %L1 – %L2 ms</source>
        <translation>, %L1 – %L2 ms</translation>
    </message>
    <message>
        <source>The steady state in between repeats the same pattern; %L1 ms of it are not drawn.</source>
        <translation>Der stationäre Zustand dazwischen wiederholt dasselbe Muster; %L1 ms davon sind nicht gezeichnet.</translation>
    </message>
    <message>
        <source>⋯ steady state, %L1 ms not drawn ⋯</source>
        <translation>⋯ stationärer Zustand, %L1 ms nicht gezeichnet ⋯</translation>
    </message>
    <message>
        <source>cost model: %L1 ms</source>
        <translation>Kostenmodell: %L1 ms</translation>
    </message>
    <message>
        <source>Save Timeline</source>
        <translation>Zeitleiste speichern</translation>
    </message>
    <message>
        <source>SVG pictures (*.svg);;PNG pictures (*.png)</source>
        <translation>SVG-Bilder (*.svg);;PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Could Not Save Timeline</source>
        <translation>Zeitleiste konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>%1 konnte nicht geschrieben werden.</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanCompareView</name>
    <message>
        <source>Plan A:</source>
        <translation>Plan A:</translation>
    </message>
    <message>
        <source>Plan B:</source>
        <translation>Plan B:</translation>
    </message>
    <message>
        <source>Choose two plans of the model to compare.</source>
        <translation>Wählen Sie zwei Pläne des Modells zum Vergleich.</translation>
    </message>
    <message>
        <source>These plans cannot be compared: %1 %2</source>
        <translation>Diese Pläne lassen sich nicht vergleichen: %1 %2</translation>
    </message>
    <message numerus="yes">
        <source>B − A: step %1 ms (compute %2 ms, communication %3 ms), memory %4 GB per device; %n node(s) differ%5.</source>
        <translation>
            <numerusform>B − A: Schritt %1 ms (Rechnen %2 ms, Kommunikation %3 ms), Speicher %4 GB pro Gerät; %n Knoten unterscheidet sich%5.</numerusform>
            <numerusform>B − A: Schritt %1 ms (Rechnen %2 ms, Kommunikation %3 ms), Speicher %4 GB pro Gerät; %n Knoten unterscheiden sich%5.</numerusform>
        </translation>
    </message>
    <message>
        <source> (the meshes differ)</source>
        <translation> (die Gitter unterscheiden sich)</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanDiffModel</name>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Strategy in A</source>
        <translation>Strategie in A</translation>
    </message>
    <message>
        <source>Strategy in B</source>
        <translation>Strategie in B</translation>
    </message>
    <message>
        <source>Δ step (ms)</source>
        <translation>Δ Schritt (ms)</translation>
    </message>
    <message>
        <source>Δ memory (GB)</source>
        <translation>Δ Speicher (GB)</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <comment>a repeated block&apos;s position and how many of its instances changed</comment>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>%1: the same change in %2 instances of the repeated block; the deltas are their sum</source>
        <translation>%1: dieselbe Änderung in %2 Instanzen des wiederholten Blocks; die Deltas sind ihre Summe</translation>
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
        <translation>Megatron-LM mit Sequenzparallelität</translation>
    </message>
    <message>
        <source>Hugging Face tp_plan file…</source>
        <translation>Hugging-Face-tp_plan-Datei…</translation>
    </message>
    <message>
        <source>Start Over From</source>
        <translation>Neu beginnen mit</translation>
    </message>
    <message>
        <source>Replace the plan by an expert annotation, then override parts of it</source>
        <translation>Den Plan durch eine Expertenannotation ersetzen und dann Teile davon überschreiben</translation>
    </message>
    <message>
        <source>A position in a repeated block (# stands for every instance) or a node outside blocks</source>
        <translation>Eine Position in einem wiederholten Block (# steht für jede Instanz) oder ein Knoten außerhalb von Blöcken</translation>
    </message>
    <message>
        <source>&amp;Apply Strategy</source>
        <translation>Strategie &amp;anwenden</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Pin and &amp;Complete the Rest</source>
        <translation>Fixieren und Rest &amp;vervollständigen</translation>
    </message>
    <message>
        <source>Search the other nodes again with the edited ones fixed</source>
        <translation>Die übrigen Knoten neu suchen, die bearbeiteten bleiben fest</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Node:</source>
        <translation>Knoten:</translation>
    </message>
    <message>
        <source>Completing the plan around the pinned choices…</source>
        <translation>Plan wird um die fixierten Entscheidungen herum vervollständigt…</translation>
    </message>
    <message>
        <source>Open a plan from the search results or the history, or start from an expert plan.</source>
        <translation>Öffnen Sie einen Plan aus den Suchergebnissen oder dem Verlauf, oder beginnen Sie mit einem Expertenplan.</translation>
    </message>
    <message>
        <source> (does not fit)</source>
        <translation> (passt nicht)</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n node(s)</source>
        <translation>
            <numerusform>%1, %n Knoten</numerusform>
            <numerusform>%1, %n Knoten</numerusform>
        </translation>
    </message>
    <message>
        <source>Pricing the strategies of %1…</source>
        <translation>Strategien von %1 werden bewertet…</translation>
    </message>
    <message numerus="yes">
        <source>%n strategy(ies) priced.</source>
        <translation>
            <numerusform>%n Strategie bewertet.</numerusform>
            <numerusform>%n Strategien bewertet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Set %1 to %2.</source>
        <translation>%1 auf %2 gesetzt.</translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation>%1 rückgängig machen</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>%1 wiederholen</translation>
    </message>
    <message>
        <source>The strategies of %1 could not be priced: %2</source>
        <translation>Die Strategien von %1 konnten nicht bewertet werden: %2</translation>
    </message>
    <message>
        <source>Each strategy splits the node&apos;s tensors over the mesh axes (dp, tp, ...); the row says the step time and memory the plan would have with it.</source>
        <translation>Jede Strategie teilt die Tensoren des Knotens über die Mesh-Achsen (dp, tp, …) auf; die Zeile nennt Schrittzeit und Speicher des Plans mit ihr.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2: step %L3 ms (%4), memory %L5 GB per device%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2: Schritt %L3 ms (%4), Speicher %L5 GB pro Gerät%6</translation>
    </message>
    <message>
        <source>%1; %2.</source>
        <translation>%1; %2.</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanEditor</name>
    <message>
        <source>Set %1</source>
        <translation>%1 setzen</translation>
    </message>
    <message>
        <source>The completion failed: %1</source>
        <translation>Die Vervollständigung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>No plan completes the pinned choices: %1</source>
        <translation>Kein Plan vervollständigt die fixierten Entscheidungen: %1</translation>
    </message>
    <message>
        <source>Complete the rest</source>
        <translation>Rest vervollständigen</translation>
    </message>
    <message>
        <source>Completion cancelled; the best plan found so far is shown.</source>
        <translation>Vervollständigung abgebrochen; der bisher beste Plan wird gezeigt.</translation>
    </message>
    <message numerus="yes">
        <source>Completed the plan around %n pinned choice(s).</source>
        <translation>
            <numerusform>Plan um %n fixierte Entscheidung vervollständigt.</numerusform>
            <numerusform>Plan um %n fixierte Entscheidungen vervollständigt.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PlanInspector</name>
    <message>
        <source>Open a plan from the search results to inspect it.</source>
        <translation>Öffnen Sie einen Plan aus den Suchergebnissen, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Show the nodes of one repeated block (all its instances)</source>
        <translation>Zeigt die Knoten eines wiederholten Blocks (alle Instanzen)</translation>
    </message>
    <message>
        <source>Filter nodes by name…</source>
        <translation>Knoten nach Namen filtern …</translation>
    </message>
    <message>
        <source>Block:</source>
        <translation>Block:</translation>
    </message>
    <message>
        <source>All nodes</source>
        <translation>Alle Knoten</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>Outside repeated blocks</source>
        <translation>Außerhalb wiederholter Blöcke</translation>
    </message>
    <message numerus="yes">
        <source>%Ln node(s) shown: compute %L1 ms, communication %L2 ms, memory %L3 GB</source>
        <translation>
            <numerusform>%Ln Knoten angezeigt: Rechnen %L1 ms, Kommunikation %L2 ms, Speicher %L3 GB</numerusform>
            <numerusform>%Ln Knoten angezeigt: Rechnen %L1 ms, Kommunikation %L2 ms, Speicher %L3 GB</numerusform>
        </translation>
    </message>
    <message>
        <source>batch %L1</source>
        <translation>Batch %L1</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation> (Standard)</translation>
    </message>
    <message>
        <source>%L1 tokens</source>
        <translation>%L1 Tokens</translation>
    </message>
    <message>
        <source>micro-batch %L1</source>
        <translation>Mikro-Batch %L1</translation>
    </message>
    <message>
        <source>no micro-batches</source>
        <translation>keine Mikro-Batches</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>vollständige Neuberechnung</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>selektive Neuberechnung</translation>
    </message>
    <message>
        <source>no recomputation</source>
        <translation>keine Neuberechnung</translation>
    </message>
    <message>
        <source>Priced for %1 × %2, %3, %4, ZeRO stage %5</source>
        <translation>Bewertet für %1 × %2, %3, %4, ZeRO-Stufe %5</translation>
    </message>
    <message>
        <source> (HSDP: %1 replicas of a shard group)</source>
        <translation> (HSDP: %1 Replikate einer Shard-Gruppe)</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Pipeline Schedule</source>
        <translation>Pipeline-Ablauf</translation>
    </message>
    <message>
        <source>Ring Attention and All-to-Alls</source>
        <translation>Ring-Attention und All-to-Alls</translation>
    </message>
    <message>
        <source>Per device and step, as the cost model counts them: ring attention %1 ms (%2 ms of it hidden under the attention of the chunk in hand), Ulysses all-to-alls %3 ms, expert all-to-alls %4 ms (these two never hidden). In %5: ring attention %6 ms, Ulysses %7 ms, experts %8 ms.</source>
        <translation>Je Gerät und Schritt, wie das Kostenmodell sie zählt: Ring-Attention %1 ms (davon %2 ms unter der Attention des aktuellen Abschnitts verdeckt), Ulysses-All-to-Alls %3 ms, Experten-All-to-Alls %4 ms (diese beiden nie verdeckt). In %5: Ring-Attention %6 ms, Ulysses %7 ms, Experten %8 ms.</translation>
    </message>
    <message>
        <source>, %1</source>
        <translation>, %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) on %3: step %L4 ms%5, peak memory %L6 GB per device</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2) auf %3: Schritt %L4 ms%5, Spitzenspeicher %L6 GB pro Gerät</translation>
    </message>
    <message numerus="yes">
        <source>%Ln node(s) shown: compute %L1 ms and communication %L2 ms summed over the %4 stages; peak memory %L3 GB per device (the busiest stage)</source>
        <translation>
            <numerusform>%Ln Knoten angezeigt: Rechnen %L1 ms und Kommunikation %L2 ms, summiert über die %4 Stufen; Spitzenspeicher %L3 GB pro Gerät (die vollste Stufe)</numerusform>
            <numerusform>%Ln Knoten angezeigt: Rechnen %L1 ms und Kommunikation %L2 ms, summiert über die %4 Stufen; Spitzenspeicher %L3 GB pro Gerät (die vollste Stufe)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tapestry::PlanSearchJob</name>
    <message>
        <source>Grouping decisions</source>
        <translation>Entscheidungen werden gruppiert</translation>
    </message>
    <message>
        <source>Searching</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Looking for the smallest peak memory</source>
        <translation>Suche nach dem kleinsten Spitzenspeicher</translation>
    </message>
    <message>
        <source>Finding alternatives that use less memory</source>
        <translation>Suche nach Alternativen mit weniger Speicher</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Searching the whole graph for comparison</source>
        <translation>Der ganze Graph wird zum Vergleich durchsucht</translation>
    </message>
    <message>
        <source>Searching without context or expert parallelism, to compare</source>
        <translation>Ohne Kontext- oder Expertenparallelität wird zum Vergleich gesucht</translation>
    </message>
    <message>
        <source>Pricing the expert plans</source>
        <translation>Expertenpläne werden bewertet</translation>
    </message>
    <message>
        <source>Search cancelled after %1; the best plans found so far are kept.</source>
        <translation>Suche nach %1 abgebrochen; die bisher besten Pläne bleiben erhalten.</translation>
    </message>
    <message>
        <source>No searched plan fits in the memory limit (%1).</source>
        <translation>Kein gesuchter Plan passt in das Speicherlimit (%1).</translation>
    </message>
    <message>
        <source>Search finished in %1.</source>
        <translation>Suche in %1 abgeschlossen.</translation>
    </message>
    <message>
        <source>The search stopped with an unexpected error.</source>
        <translation>Die Suche wurde durch einen unerwarteten Fehler beendet.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 of %2 meshes searched · %3: %4</source>
        <translation>%1 von %2 Gittern durchsucht · %3: %4</translation>
    </message>
</context>
<context>
    <name>tapestry::PlanWorkbench</name>
    <message>
        <source>best</source>
        <translation>beste</translation>
    </message>
    <message>
        <source>alternative</source>
        <translation>Alternative</translation>
    </message>
    <message>
        <source>best so far</source>
        <translation>bisher beste</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>Experte</translation>
    </message>
    <message>
        <source>%1 %2 %3, %L4 ms</source>
        <translation>%1 %2 %3, %L4 ms</translation>
    </message>
    <message>
        <source>Plan Editor</source>
        <translation>Plan-Editor</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Compare Plans</source>
        <translation>Pläne vergleichen</translation>
    </message>
    <message>
        <source>Start From a Hugging Face tp_plan</source>
        <translation>Mit einem Hugging-Face-tp_plan beginnen</translation>
    </message>
    <message>
        <source>tp_plan files (*.json *.py);;All files (*)</source>
        <translation>tp_plan-Dateien (*.json *.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could Not Compare</source>
        <translation>Vergleich nicht möglich</translation>
    </message>
    <message>
        <source>&amp;Undo Edit</source>
        <translation>Bearbeitung &amp;rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo Edit</source>
        <translation>Bearbeitung &amp;wiederholen</translation>
    </message>
    <message>
        <source>&amp;Compare With Origin</source>
        <translation>Mit &amp;Ausgangsplan vergleichen</translation>
    </message>
    <message>
        <source>Compare the plan being edited with the plan it started from</source>
        <translation>Den bearbeiteten Plan mit seinem Ausgangsplan vergleichen</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
    <message>
        <source>&amp;Open Plan File…</source>
        <translation>Plan-Datei ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open Plan</source>
        <translation>Plan öffnen</translation>
    </message>
    <message>
        <source>&amp;Save View as SVG/PNG…</source>
        <translation>Ansicht als SVG/PNG &amp;speichern…</translation>
    </message>
    <message>
        <source>&amp;Fit Graph</source>
        <translation>Graph ein&amp;passen</translation>
    </message>
    <message>
        <source>started from</source>
        <translation>Ausgang</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <source>Open a model and wait until it is folded first.</source>
        <translation>Öffnen Sie zuerst ein Modell und warten Sie, bis es gefaltet ist.</translation>
    </message>
    <message>
        <source>Could Not Start From the Expert Plan</source>
        <translation>Beginn mit dem Expertenplan nicht möglich</translation>
    </message>
    <message>
        <source>Started from %1.</source>
        <translation>Mit %1 begonnen.</translation>
    </message>
    <message numerus="yes">
        <source>Started from %1 (%n warning(s): %2).</source>
        <translation>
            <numerusform>Mit %1 begonnen (%n Warnung: %2).</numerusform>
            <numerusform>Mit %1 begonnen (%n Warnungen: %2).</numerusform>
        </translation>
    </message>
    <message>
        <source>Could Not Open Plan</source>
        <translation>Plan konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Could not open %1: %2 %3</source>
        <translation>%1 konnte nicht geöffnet werden: %2 %3</translation>
    </message>
    <message>
        <source>Could not open %1: open its model first and wait until it is folded.</source>
        <translation>%1 konnte nicht geöffnet werden: Öffnen Sie zuerst sein Modell und warten Sie, bis es gefaltet ist.</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Opened plan %1.</source>
        <translation>Plan %1 geöffnet.</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Could not open plan #%1: %2 %3</source>
        <translation>Plan #%1 konnte nicht geöffnet werden: %2 %3</translation>
    </message>
    <message>
        <source>Edit a plan first: it is compared with the plan it started from.</source>
        <translation>Bearbeiten Sie zuerst einen Plan: Er wird mit seinem Ausgangsplan verglichen.</translation>
    </message>
    <message>
        <source>Open a model first.</source>
        <translation>Öffnen Sie zuerst ein Modell.</translation>
    </message>
    <message>
        <source>Could Not Export</source>
        <translation>Export nicht möglich</translation>
    </message>
    <message>
        <source>Re-costed plan #%1 as plan #%2.</source>
        <translation>Plan #%1 als Plan #%2 neu bewertet.</translation>
    </message>
    <message>
        <source>Could Not Re-cost</source>
        <translation>Neubewertung nicht möglich</translation>
    </message>
    <message>
        <source>Could not re-cost plan #%1: %2 %3</source>
        <translation>Plan #%1 konnte nicht neu bewertet werden: %2 %3</translation>
    </message>
    <message>
        <source>opened</source>
        <translation>geöffnet</translation>
    </message>
    <message>
        <source>Plan #%1 was made for %2, which is not there any more.</source>
        <translation>Plan #%1 wurde für %2 erstellt, das nicht mehr vorhanden ist.</translation>
    </message>
    <message>
        <source>Opening %1 for plan #%2…</source>
        <translation>Öffne %1 für Plan #%2…</translation>
    </message>
    <message>
        <source>Plans, tp_plans, Megatron-LM arguments, torchtitan configs and ONNX exports (*.json *.py *.sh *.toml *.onnx);;All files (*)</source>
        <translation>Pläne, tp_plans, Megatron-LM-Argumente, torchtitan-Konfigurationen und ONNX-Exporte (*.json *.py *.sh *.toml *.onnx);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>tapestry::PresetDialog</name>
    <message>
        <source>New Model from Preset</source>
        <translation>Neues Modell aus Vorlage</translation>
    </message>
    <message>
        <source>as published</source>
        <translation>wie veröffentlicht</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>Architektur:</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>Schichten:</translation>
    </message>
    <message>
        <source>The model is written with its shapes only (no weights) and opened like a file.</source>
        <translation>Das Modell wird nur mit seinen Formen (ohne Gewichte) geschrieben und wie eine Datei geöffnet.</translation>
    </message>
    <message>
        <source>%1: %2 layers, width %3.</source>
        <translation>%1: %2 Schichten, Breite %3.</translation>
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
<context>
    <name>tapestry::SearchResultsModel</name>
    <message>
        <source>Data parallel</source>
        <translation>Datenparallel</translation>
    </message>
    <message>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <source>Megatron-LM + sequence parallel</source>
        <translation>Megatron-LM + Sequenzparallelität</translation>
    </message>
    <message>
        <source>Context parallel (ring attention)</source>
        <translation>Kontextparallel (Ring-Attention)</translation>
    </message>
    <message>
        <source>Context parallel (Ulysses)</source>
        <translation>Kontextparallel (Ulysses)</translation>
    </message>
    <message>
        <source>Searched: fastest</source>
        <translation>Gesucht: schnellster</translation>
    </message>
    <message>
        <source>Expert reference</source>
        <translation>Expertenreferenz</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>%1 GB of %2 GB per device</source>
        <translation>%1 GB von %2 GB pro Gerät</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Mesh</source>
        <translation>Mesh</translation>
    </message>
    <message>
        <source>Step (ms)</source>
        <translation>Schritt (ms)</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>Speicher (GB)</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>Passt</translation>
    </message>
    <message>
        <source>Expert plan</source>
        <translation>Expertenplan</translation>
    </message>
    <message>
        <source>Searched</source>
        <translation>Gesucht</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>Bearbeitet</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>Importiert</translation>
    </message>
    <message>
        <source>Searched: least memory (none fits)</source>
        <translation>Gesucht: wenigster Speicher (keiner passt)</translation>
    </message>
    <message>
        <source>Searched: dominated by %1</source>
        <translation>Gesucht: %1 ist in Zeit und Speicher besser</translation>
    </message>
    <message>
        <source>Searched: Pareto alternative</source>
        <translation>Gesucht: Pareto-Alternative</translation>
    </message>
    <message>
        <source>Best so far (provisional)</source>
        <translation>Bisher bester (vorläufig)</translation>
    </message>
    <message>
        <source>%1
Model FLOPs (3 × forward, recomputation not counted) over the step time and the peak of every GPU of the mesh.</source>
        <translation>%1
Modell-FLOPs (3 × Vorwärts, ohne Neuberechnung) über Schrittzeit und Spitzenleistung aller GPUs des Gitters.</translation>
    </message>
    <message>
        <source>Compute %1 ms, communication %2 ms (%3 ms of it hidden under compute)</source>
        <translation>Rechnen %1 ms, Kommunikation %2 ms (davon %3 ms unter dem Rechnen verborgen)</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Model FLOPs utilization: the model&apos;s FLOPs per step over the step time and the GPUs&apos; peak</source>
        <translation>Model FLOPs Utilization: die FLOPs des Modells je Schritt über Schrittzeit und Spitzenleistung der GPUs</translation>
    </message>
    <message>
        <source>Tokens per second per GPU</source>
        <translation>Tokens pro Sekunde pro GPU</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>Tok/s</translation>
    </message>
    <message>
        <source>Searched: best of its mesh</source>
        <translation>Gesucht: bester seines Meshes</translation>
    </message>
    <message>
        <source>%1 +%2</source>
        <comment>a mesh and how many more meshes gave the same plan</comment>
        <translation>%1 +%2</translation>
    </message>
    <message>
        <source>One plan on the devices, at the same price, found on %1 meshes (by the search or as the mesh&apos;s expert layout): %2</source>
        <translation>Ein Plan auf den Geräten, zum selben Preis, gefunden auf %1 Meshes (von der Suche oder als Experten-Layout des Meshes): %2</translation>
    </message>
</context>
<context>
    <name>tapestry::SearchResultsPanel</name>
    <message>
        <source>Press Start Search (F5) to search plans for the model on screen.</source>
        <translation>Drücken Sie „Suche starten“ (F5), um Pläne für das angezeigte Modell zu suchen.</translation>
    </message>
    <message>
        <source>Click a plan to inspect it.</source>
        <translation>Klicken Sie auf einen Plan, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Click a point to inspect its plan.</source>
        <translation>Klicken Sie auf einen Punkt, um seinen Plan zu untersuchen.</translation>
    </message>
    <message>
        <source>Searching for a plan that fits in %L1 GB per device… none found yet.</source>
        <translation>Suche nach einem Plan mit höchstens %L1 GB pro Gerät … noch keiner gefunden.</translation>
    </message>
    <message>
        <source>context parallelism</source>
        <translation>Kontextparallelität</translation>
    </message>
    <message>
        <source>expert parallelism</source>
        <translation>Expertenparallelität</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it the search finds no plan on %3.</source>
        <translation>Warum %1 (Grad %2): ohne sie findet die Suche keinen Plan auf %3.</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it no plan on %3 fits; the closest (%6) needs %L4 GB of the %L5 GB.</source>
        <translation>Warum %1 (Grad %2): ohne sie passt kein Plan auf %3; der knappste (%6) braucht %L4 GB der %L5 GB.</translation>
    </message>
    <message>
        <source>Why %1 (degree %2): without it the best plan on %3 (%6) takes %L4 ms, %L5 % longer.</source>
        <translation>Warum %1 (Grad %2): ohne sie braucht der beste Plan auf %3 (%6) %L4 ms, %L5 % länger.</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n plan(s) price above the GPU&apos;s peak (MFU over 100 %): a defect of the cost model, not a result; do not trust their step times.</source>
        <translation>
            <numerusform>⚠ %n Plan liegt über der Spitzenleistung der GPU (MFU über 100 %): ein Fehler des Kostenmodells, kein Ergebnis; seiner Schrittzeit nicht trauen.</numerusform>
            <numerusform>⚠ %n Pläne liegen über der Spitzenleistung der GPU (MFU über 100 %): ein Fehler des Kostenmodells, kein Ergebnis; ihren Schrittzeiten nicht trauen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Searching… the fastest plan so far that fits: %L1 ms on %2 (provisional: the search prices its final plans again and the best one can differ).</source>
        <translation>Suche läuft… der bisher schnellste passende Plan: %L1 ms auf %2 (vorläufig: Die Suche bepreist ihre endgültigen Pläne erneut, der beste kann abweichen).</translation>
    </message>
    <message>
        <source>Why this plan</source>
        <translation>Warum dieser Plan</translation>
    </message>
    <message>
        <source>Step vs. memory</source>
        <translation>Schritt über Speicher</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingProblemLoader</name>
    <message>
        <source>Reading the problem stopped with an unexpected error.</source>
        <translation>Das Lesen des Problems wurde durch einen unerwarteten Fehler abgebrochen.</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingProblemWindow</name>
    <message>
        <source>%1 — Sharding Problem — Tapestry</source>
        <translation>%1 — Sharding-Problem — Tapestry</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>Knoten:</translation>
    </message>
    <message>
        <source>Edges:</source>
        <translation>Kanten:</translation>
    </message>
    <message>
        <source>Time points:</source>
        <translation>Zeitpunkte:</translation>
    </message>
    <message>
        <source>Usage limit:</source>
        <translation>Speichergrenze:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Solution</source>
        <translation>Lösung</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>Herkunft:</translation>
    </message>
    <message>
        <source>Total cost:</source>
        <translation>Gesamtkosten:</translation>
    </message>
    <message>
        <source>Node costs:</source>
        <translation>Knotenkosten:</translation>
    </message>
    <message>
        <source>Edge costs:</source>
        <translation>Kantenkosten:</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>Speicher:</translation>
    </message>
    <message>
        <source>Peak usage:</source>
        <translation>Spitzenbelegung:</translation>
    </message>
    <message>
        <source>&amp;Solve</source>
        <translation>&amp;Lösen</translation>
    </message>
    <message>
        <source>Solve the problem in the background within the time limit (F5)</source>
        <translation>Das Problem im Hintergrund innerhalb des Zeitlimits lösen (F5)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>Stop the solver and keep the best solution found so far (Esc)</source>
        <translation>Den Löser anhalten und die bisher beste Lösung behalten (Esc)</translation>
    </message>
    <message>
        <source>&amp;Load Solution…</source>
        <translation>Lösung &amp;laden …</translation>
    </message>
    <message>
        <source>Save Solution &amp;As…</source>
        <translation>Lösung speichern &amp;unter …</translation>
    </message>
    <message>
        <source> s</source>
        <comment>seconds after a number</comment>
        <translation> s</translation>
    </message>
    <message>
        <source>How long the solver may search</source>
        <translation>Wie lange der Löser suchen darf</translation>
    </message>
    <message>
        <source>&amp;Solution</source>
        <translation>&amp;Lösung</translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation>Fenster &amp;schließen</translation>
    </message>
    <message>
        <source>Solve</source>
        <translation>Lösen</translation>
    </message>
    <message>
        <source>Time limit:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Solving: %L1 s, best cost %L2</source>
        <translation>Lösen: %L1 s, beste Kosten %L2</translation>
    </message>
    <message>
        <source>Solver, cancelled after %L1 s</source>
        <translation>Löser, nach %L1 s abgebrochen</translation>
    </message>
    <message>
        <source>Solver, %L1 s</source>
        <translation>Löser, %L1 s</translation>
    </message>
    <message>
        <source>%1, proven optimal</source>
        <translation>%1, nachweislich optimal</translation>
    </message>
    <message>
        <source>%1, within %L2 % of the optimum</source>
        <translation>%1, höchstens %L2 % über dem Optimum</translation>
    </message>
    <message>
        <source>Solved: cost %1.</source>
        <translation>Gelöst: Kosten %1.</translation>
    </message>
    <message>
        <source>The solver failed: %1</source>
        <translation>Der Löser ist gescheitert: %1</translation>
    </message>
    <message>
        <source>Could Not Solve</source>
        <translation>Lösen nicht möglich</translation>
    </message>
    <message>
        <source>Could not solve %1.</source>
        <translation>%1 konnte nicht gelöst werden.</translation>
    </message>
    <message>
        <source>None yet: solve, or load a solution file.</source>
        <translation>Noch keine: lösen Sie das Problem oder laden Sie eine Lösungsdatei.</translation>
    </message>
    <message>
        <source>Fits the limit</source>
        <translation>Hält die Grenze ein</translation>
    </message>
    <message>
        <source>No limit to fit</source>
        <translation>Keine Grenze einzuhalten</translation>
    </message>
    <message>
        <source>Over the limit: first at time point %L1 (usage %2)</source>
        <translation>Über der Grenze: zuerst bei Zeitpunkt %L1 (Belegung %2)</translation>
    </message>
    <message>
        <source>Load Solution</source>
        <translation>Lösung laden</translation>
    </message>
    <message>
        <source>Solutions (*.txt *.out *.sol);;All files (*)</source>
        <translation>Lösungen (*.txt *.out *.sol);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Solution</source>
        <translation>Lösung speichern</translation>
    </message>
    <message>
        <source>Solutions (*.txt);;All files (*)</source>
        <translation>Lösungen (*.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>Loaded the solution in %1.</source>
        <translation>Lösung aus %1 geladen.</translation>
    </message>
    <message>
        <source>The last line of the file is not a solution of this problem: it must list one strategy per node, like [0, 2, 1].</source>
        <translation>Die letzte Zeile der Datei ist keine Lösung dieses Problems: Sie muss eine Strategie je Knoten auflisten, etwa [0, 2, 1].</translation>
    </message>
    <message>
        <source>Could Not Load Solution</source>
        <translation>Lösung konnte nicht geladen werden</translation>
    </message>
    <message>
        <source>Could not load a solution from %1.</source>
        <translation>Aus %1 konnte keine Lösung geladen werden.</translation>
    </message>
    <message>
        <source>Saved the solution to %1.</source>
        <translation>Lösung in %1 gespeichert.</translation>
    </message>
    <message>
        <source>Could Not Save Solution</source>
        <translation>Lösung konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Could not save the solution to %1.</source>
        <translation>Die Lösung konnte nicht in %1 gespeichert werden.</translation>
    </message>
    <message>
        <source>Solving: %L1 s, searching for a plan within the limit…</source>
        <translation>Lösen: %L1 s, Suche nach einem Plan innerhalb des Limits …</translation>
    </message>
    <message>
        <source>Solve Running</source>
        <translation>Lösen läuft</translation>
    </message>
    <message>
        <source>The solver is still running. Cancel it and close the window?</source>
        <translation>Der Löser läuft noch. Abbrechen und das Fenster schließen?</translation>
    </message>
    <message>
        <source>Cancel Solve and Close</source>
        <translation>Lösen abbrechen und schließen</translation>
    </message>
    <message>
        <source>Keep Solving</source>
        <translation>Weiterlösen</translation>
    </message>
</context>
<context>
    <name>tapestry::ShardingSolveJob</name>
    <message>
        <source>The solver stopped with an unexpected error.</source>
        <translation>Der Löser wurde durch einen unerwarteten Fehler abgebrochen.</translation>
    </message>
</context>
<context>
    <name>tapestry::SolveProgressChart</name>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Best cost so far</source>
        <translation>Bisher beste Kosten</translation>
    </message>
    <message>
        <source>Best cost so far; lower bound, gap %L1 %</source>
        <translation>Bisher beste Kosten; untere Schranke, Abstand %L1 %</translation>
    </message>
    <message>
        <source>Searching for a plan within the limit…</source>
        <translation>Suche nach einem Plan innerhalb des Limits …</translation>
    </message>
</context>
<context>
    <name>tapestry::StageBoundaryEditor</name>
    <message>
        <source>A boundary between two consecutive chunks of the pipeline</source>
        <translation>Eine Grenze zwischen zwei aufeinanderfolgenden Abschnitten der Pipeline</translation>
    </message>
    <message>
        <source>The model&apos;s repeated blocks count from 0; the embedding runs with the first chunk, the head with the last. The plan is re-costed at once.</source>
        <translation>Die wiederholten Blöcke des Modells zählen ab 0; die Einbettung läuft mit dem ersten Abschnitt, der Kopf mit dem letzten. Der Plan wird sofort neu bewertet.</translation>
    </message>
    <message>
        <source>Stage boundary:</source>
        <translation>Stufengrenze:</translation>
    </message>
    <message>
        <source>starts at block</source>
        <translation>beginnt bei Block</translation>
    </message>
    <message>
        <source>Chunk %1 | %2 (stage %3 → %4)</source>
        <translation>Abschnitt %1 | %2 (Stufe %3 → %4)</translation>
    </message>
    <message>
        <source>Stage %1 | %2</source>
        <translation>Stufe %1 | %2</translation>
    </message>
    <message>
        <source>(%1 | %2 blocks)</source>
        <translation>(%1 | %2 Blöcke)</translation>
    </message>
    <message>
        <source>Move %1 to block %2</source>
        <translation>%1 auf Block %2 verschieben</translation>
    </message>
</context>
<context>
    <name>tapestry::StartupScript</name>
    <message>
        <source>Unknown cluster preset &apos;%1&apos;: no search was started.</source>
        <translation>Unbekannte Cluster-Vorlage „%1“: Es wurde keine Suche gestartet.</translation>
    </message>
    <message>
        <source>The mesh %1 does not fit the cluster&apos;s GPUs: no search was started.</source>
        <translation>Das Gitter %1 passt nicht zu den GPUs des Clusters: Es wurde keine Suche gestartet.</translation>
    </message>
</context>
<context>
    <name>tapestry::StrategyChoicesModel</name>
    <message>
        <source>Strategy (%1)</source>
        <translation>Strategie (%1)</translation>
    </message>
    <message>
        <source>Δ step (ms)</source>
        <translation>Δ Schritt (ms)</translation>
    </message>
    <message>
        <source>Δ memory (GB)</source>
        <translation>Δ Speicher (GB)</translation>
    </message>
    <message>
        <source>current</source>
        <translation>aktuell</translation>
    </message>
    <message>
        <source>The split of the node&apos;s tensors on each mesh axis</source>
        <translation>Die Aufteilung der Tensoren des Knotens auf jeder Gitterachse</translation>
    </message>
    <message>
        <source>The plan&apos;s step time with this strategy (ms)</source>
        <translation>Die Schrittzeit des Plans mit dieser Strategie (ms)</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>The plan&apos;s peak memory per device with this strategy (GB)</source>
        <translation>Der Spitzenspeicher des Plans pro Gerät mit dieser Strategie (GB)</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>Does not fit in the GPU&apos;s %L1 GB.</source>
        <translation>Passt nicht in die %L1 GB der GPU.</translation>
    </message>
</context>
<context>
    <name>tapestry::StrategyText</name>
    <message>
        <source>%1: ring attention, keys and values passed around the axis</source>
        <translation>%1: Ring-Attention, Keys und Values werden um die Achse weitergereicht</translation>
    </message>
    <message>
        <source>%1: the experts spread over the axis, tokens sent by all-to-alls</source>
        <translation>%1: Experten über die Achse verteilt, Tokens per All-to-All verschickt</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>Hidden-Dimension</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>Experten</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>linear</translation>
    </message>
    <message>
        <source>conv</source>
        <translation>Faltung</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>Einbettung</translation>
    </message>
    <message>
        <source>batched-matmul</source>
        <translation>Batch-MatMul</translation>
    </message>
    <message>
        <source>normalization</source>
        <translation>Normalisierung</translation>
    </message>
    <message>
        <source>elementwise</source>
        <translation>elementweise</translation>
    </message>
</context>
<context>
    <name>tapestry::UsageProfileChart</name>
    <message>
        <source>Time point</source>
        <translation>Zeitpunkt</translation>
    </message>
    <message>
        <source>Memory usage</source>
        <translation>Speicherbelegung</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Belegung</translation>
    </message>
    <message>
        <source>Range within %L1 time points</source>
        <translation>Spanne innerhalb von %L1 Zeitpunkten</translation>
    </message>
    <message>
        <source>Usage limit %1</source>
        <translation>Speichergrenze %1</translation>
    </message>
    <message>
        <source>Peak %1 at time point %L2</source>
        <translation>Spitze %1 bei Zeitpunkt %L2</translation>
    </message>
    <message>
        <source>First overload at time point %L1</source>
        <translation>Erste Überschreitung bei Zeitpunkt %L1</translation>
    </message>
    <message>
        <source>Memory over time: peak %1 of %2</source>
        <translation>Speicher über die Zeit: Spitze %1 von %2</translation>
    </message>
    <message>
        <source>Memory over time: peak %1 (no limit)</source>
        <translation>Speicher über die Zeit: Spitze %1 (keine Grenze)</translation>
    </message>
</context>
</TS>
